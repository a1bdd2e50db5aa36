"""The one docstring parser shared by onellm's runtime and its mypy plugin.

The runtime hands it ``fn.__doc__``; the static side hands it the text from ``ast.get_docstring(node,
clean=False)``. Both must read the same descriptions (contract, "Docstrings"), so everything
that decides what a docstring says lives here, written against the standard library only, and never raises.

A docstring is read once into ``ParsedDocstring``: the parameter and attribute
entries by name, and the description's pieces, one per line it will have. Which
entries leave the description depends on the tool (an entry naming nothing the
tool has stays), so ``ParsedDocstring.description`` takes the tool's parameter
names and writes the rest.

Decisions the contract leaves open, pinned by ``tests/test_docstrings.py``:

* A section's entries line up: the first entry under a heading sets the column
  and the form (bulleted or not), and a line at another column or in the other
  form that continues nothing ends the section.
* A line naming a section with a capital (``Returns: the count``) is never an
  entry: it ends the section, so its text stays in the description. (``note:``
  in lower case is an entry: parameters may be called that.)
* Sphinx fields (``:param x:``, ``:returns:``, ``:rtype:``) are entries: each
  keeps its own line, and only parameter and attribute fields leave it.
* A NumPy heading's underline is layout, not text: the heading keeps its words.
* When a name is documented twice the first entry with text wins; every entry
  naming a parameter leaves the description. An entry with no text describes
  nothing, and leaves the description too when it names a parameter.
* ``*args``/``**kwargs`` entries are recorded as ``args``/``kwargs``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import NamedTuple, Protocol, TypeVar

from .caches import BoundedCache

__all__ = ["ParsedDocstring", "Piece", "field_description", "flatten", "parse_docstring"]


class Piece(NamedTuple):
    """One line of the description as it will be written (paragraph lines already joined).

    A named tuple: built several times per docstring, and a frozen dataclass's
    ``__init__`` costs a call per field.
    """

    text: str
    #: A blank line came before it in the docstring (it is written after ``\\n\\n``, not ``\\n``).
    blank_before: bool
    #: The parameters a parameter entry names; the piece leaves the description when one is the tool's.
    names: tuple[str, ...] = ()
    #: The parameters heading it is (``heading``) or sits under; -1 for anything else.
    section: int = -1
    #: It is a parameters heading, written only while one of its entries is.
    heading: bool = False


class ParsedDocstring(NamedTuple):
    """What a docstring says: entries by name, and the pieces of the description."""

    params: Mapping[str, str]
    attributes: Mapping[str, str]
    pieces: tuple[Piece, ...]

    def description(self, names: Collection[str]) -> str:
        """The tool description: every piece but the entries naming one of ``names``, and
        the parameters headings left with no entry (contract, "Docstrings").

        A left-out piece passes its blank line on to the next piece written. A heading
        waits for the first entry of its section that stays.
        """
        out: list[str] = []
        blank = False  # a blank line since the last piece written
        waiting: Piece | None = None  # a parameters heading, written with its first entry that stays
        waiting_blank = False
        for piece in self.pieces:
            blank = blank or piece.blank_before
            if piece.heading:
                if waiting is not None:  # a heading all of whose entries left: its blank line passes on
                    blank = blank or waiting_blank
                waiting, waiting_blank, blank = piece, blank, False
                continue
            if piece.names and any(n in names for n in piece.names):
                continue
            if waiting is not None:
                if piece.section == waiting.section:
                    if out:
                        out.append("\n\n" if waiting_blank else "\n")
                    out.append(waiting.text)
                else:
                    blank = blank or waiting_blank
                waiting = None
            if out:
                out.append("\n\n" if blank else "\n")
            out.append(piece.text)
            blank = False
        return "".join(out)


_EMPTY: Mapping[str, str] = MappingProxyType({})
_NOTHING = ParsedDocstring(_EMPTY, _EMPTY, ())


# --- headings --------------------------------------------------------------

_PARAMS = "params"
_ATTRIBUTES = "attributes"
_OTHER = "other"

# Header names (lower case, single-spaced) of Google and NumPy sections.
_SECTION_KINDS: dict[str, str] = {
    "args": _PARAMS,
    "arguments": _PARAMS,
    "parameters": _PARAMS,
    "params": _PARAMS,
    "keyword args": _PARAMS,
    "keyword arguments": _PARAMS,
    "keyword parameters": _PARAMS,
    "other parameters": _PARAMS,
    "other params": _PARAMS,
    "attributes": _ATTRIBUTES,
    **dict.fromkeys(
        (
            "returns return yields yield receives receive raises raise warns warn example examples note notes "
            "warning warnings todo references methods attention caution danger error hint important tip"
        ).split(),
        _OTHER,
    ),
    "see also": _OTHER,
}

# Sphinx info-field names (lower case) and what they document; any other field is text.
_FIELD_KINDS: dict[str, str] = {
    **dict.fromkeys(("param", "parameter", "arg", "argument", "key", "keyword"), _PARAMS),
    **dict.fromkeys(("ivar", "var", "cvar"), _ATTRIBUTES),
    **dict.fromkeys(
        "returns return type kwtype vartype rtype raises raise except exception yields yield ytype meta".split(),
        _OTHER,
    ),
}

# All patterns below are anchored and free of nested ambiguous quantifiers, so each
# runs in time linear in the line it is given.

# ":name args: text" on a stripped line. One \s before the arguments (not \s+) so the
# split between the separator and "[^:]*" is unambiguous.
_FIELD = re.compile(r":(?P<name>[^\W\d][\w-]*)(?P<args>\s[^:]*)?:(?:\s(?P<text>.*)|$)")

# A Google or bulleted entry, on a stripped line with any bullet taken off: a name, bare or
# wrapped in ``, ` or ** (the same on both sides), an optional "(type)", a colon and the text.
# "**name:**" (the colon inside the bold) is the second branch.
_ENTRY = re.compile(
    r"(?:(?P<wrap>``|`|\*\*)(?P<wrapped>\*{0,2}[^\W\d]\w*)(?P=wrap)|(?P<bare>\*{0,2}[^\W\d]\w*))"
    r"\s*(?:\([^()]*(?:\([^()]*\)[^()]*)*\)\s*)?:(?:\s+(?P<text>.*)|$)"
    r"|\*\*(?P<bold>[^\W\d]\w*)\s*(?:\([^()]*(?:\([^()]*\)[^()]*)*\)\s*)?:\*\*(?:\s+(?P<btext>.*)|$)"
)

# A NumPy entry head: names separated by commas, then " : type" or nothing.
_NUMPY_ENTRY = re.compile(r"(?P<names>\*{0,2}[^\W\d]\w*(?:\s*,\s*\*{0,2}[^\W\d]\w*)*)(?:\s+:(?:\s.*)?|\s*)")

# A list item: "- ", "* ", "+ ", "1. " or "1) " and text.
_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])\s+\S")

# A NumPy (or setext) heading's underline.
_UNDERLINE = re.compile(r"-{3,}|={3,}")

# A markdown heading.
_ATX = re.compile(r"#{1,6}\s+\S")

# Inline markup, one pass: ``literal``, :role:`text` (also :domain:role:), `text`.
# The role name parts are bounded so that a long run of ":a:a:a" costs O(1) per start.
_INLINE = re.compile(
    r"``(?P<lit>[^`]+(?:`[^`]+)*)``"
    r"|(?P<role>:(?:[A-Za-z0-9_+.-]{1,64}:){1,4})`(?P<rtext>[^`]+)`"
    r"|`(?P<tick>[^`]+)`"
)


# --- flattening ---


def _role_text(text: str) -> str:
    text = text.strip()
    if text.endswith(">") and "<" in text:
        title = text[: text.rfind("<")].strip()
        if title:
            return title  # explicit title form: :meth:`title <a.b>`
    if text.startswith("!"):
        text = text[1:]  # Sphinx: "!" only suppresses the link
    if text.startswith("~"):
        return text[1:].rsplit(".", 1)[-1]
    return text


def _inline(match: re.Match[str]) -> str:
    lit = match.group("lit")
    if lit is not None:
        return lit
    rtext = match.group("rtext")
    if rtext is not None:
        return _role_text(rtext)
    return match.group("tick") or ""


def flatten(text: str | None) -> str:
    """Collapse whitespace to single spaces and keep the text of inline markup.

    ``:class:`~a.b.X``` gives ``X``, ``:func:`a.b.f``` gives ``a.b.f``,
    ``:meth:`title <a.b>``` gives ``title``; ````x```` and ```x``` give ``x``.
    Nothing else is changed.
    """
    if not text:  # None too, from untyped callers
        return ""
    collapsed = " ".join(text.split())
    if "`" not in collapsed:
        return collapsed
    return " ".join(_INLINE.sub(_inline, collapsed).split())


def _clean_lines(doc: str) -> list[str]:
    """``inspect.cleandoc`` semantics, as a list of lines.

    Applying it to a raw docstring and to one that Python 3.13 already dedented
    gives the same lines.
    """
    if "\r" in doc:
        doc = doc.replace("\r\n", "\n").replace("\r", "\n")
    if "\t" in doc:
        doc = doc.expandtabs()
    lines = doc.split("\n")
    rest = lines[1:]
    margin = -1
    for line in rest:
        content = len(line.lstrip())
        if content:
            indent = len(line) - content
            if margin < 0 or indent < margin:
                margin = indent
    lines[0] = lines[0].strip()
    lines[1:] = [line[margin:].rstrip() for line in rest] if margin > 0 else [line.rstrip() for line in rest]
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    return lines[start:end]


# --- lines -----------------------------------------------------------------


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


#: ``_section_kind`` by a heading as written: the same few headings recur in every docstring.
_KINDS_SEEN: BoundedCache[str, str | None] = BoundedCache(512)


def _section_kind(stripped: str) -> str | None:
    """The kind of a heading's words (``"Args:"``, ``"Parameters"``), or None."""
    try:
        return _KINDS_SEEN[stripped]
    except KeyError:
        pass
    kind = _SECTION_KINDS.get(" ".join(stripped.removesuffix(":").split()).lower())
    _KINDS_SEEN.put(stripped, kind)  # bounded: most lines ending in ':' are prose, not headings
    return kind


def _heading_at(lines: list[str], i: int) -> tuple[str | None, int] | None:
    """(section kind or None, lines taken) when line ``i`` is a heading, else None.

    A heading is a known section name ending in ``:`` alone on its line, any line
    underlined with dashes or equals signs (NumPy, setext), or a markdown ``#`` line.
    """
    stripped = lines[i].strip()
    if i + 1 < len(lines):
        below = lines[i + 1].strip()
        if below[:1] in ("-", "=") and _UNDERLINE.fullmatch(below) and _UNDERLINE.fullmatch(stripped) is None:
            return _section_kind(stripped), 2
    if stripped[-1:] == ":":
        kind = _section_kind(stripped)
        if kind is not None:
            return kind, 1
    if stripped[:1] == "#" and _ATX.match(stripped):
        return None, 1
    return None


#: The first characters of an underline.
_RULE_STARTS = ("-", "=")


def _entry_head(stripped: str, bulleted: bool) -> tuple[str, str] | None:
    """(name, text) of a Google or bulleted entry line (``bulleted``: it has a bullet), else None."""
    m = _ENTRY.fullmatch(stripped[2:].lstrip() if bulleted else stripped)
    if m is None:
        return None
    wrapped, bare, bold, text, bold_text = m.group("wrapped", "bare", "bold", "text", "btext")
    if bold is None:
        return wrapped or bare, text or ""
    return bold, bold_text or ""


def _numpy_head(stripped: str) -> tuple[list[str], str] | None:
    """(names, text) of a NumPy entry line (its type is not description), else None."""
    m = _NUMPY_ENTRY.fullmatch(stripped)
    if m is None:
        return None
    return [name.strip() for name in m["names"].split(",")], ""


def _is_section_name(name: str) -> bool:
    """A capitalised section name (``Returns``, ``NOTE``); a parameter may be called ``note``."""
    return not name[:1].islower() and name.lower() in _SECTION_KINDS


def _continuation(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """The stripped lines after ``start`` indented deeper than ``indent`` (blank lines between
    them allowed), and the index after the last one."""
    taken: list[str] = []
    end = start
    for j in range(start, len(lines)):
        line = lines[j]
        if not line:
            continue
        stripped = line.lstrip()
        if len(line) - len(stripped) <= indent:
            break
        taken.append(stripped)
        end = j + 1
    return taken, end


# --- reading ---------------------------------------------------------------


class _Reader:
    """Reads cleaned lines into entries and description pieces, each line once."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.params: dict[str, str] = {}
        self.attributes: dict[str, str] = {}
        self.pieces: list[Piece] = []
        self.blank = False  # a blank line since the last piece
        self.open: list[str] = []  # the lines of the paragraph or list item being read
        self.open_indent = -1  # its first line's indentation; -1 for a paragraph

    def piece(self, text: str, names: tuple[str, ...] = (), section: int = -1, heading: bool = False) -> None:
        self.close()
        self.pieces.append(_new(Piece, (text, self.blank and bool(self.pieces), names, section, heading)))
        self.blank = False

    def close(self) -> None:
        if self.open:
            lines, self.open = self.open, []
            self.piece(flatten(" ".join(lines)))

    def record(self, kind: str, names: list[str], text: str) -> tuple[str, ...]:
        """Keep an entry's text under its names (the first text wins); the names a
        parameter entry takes out of the description."""
        target = self.params if kind == _PARAMS else self.attributes
        clean = tuple([name.lstrip("*") for name in names]) if len(names) > 1 else (names[0].lstrip("*"),)
        if text:
            for name in clean:
                if name and name not in target:
                    target[name] = text
        return clean if kind == _PARAMS else ()

    def read(self) -> None:
        lines = self.lines
        n = len(lines)
        i = 0
        while i < n:
            line = lines[i]
            if not line:
                self.close()
                self.blank = True
                i += 1
                continue
            stripped = line.lstrip()  # a cleaned line ends in no white space
            # Only a line ending in ":", a "#" line or one above an underline can be a heading.
            if stripped[-1] == ":" or stripped[0] == "#" or (i + 1 < n and lines[i + 1].lstrip()[:1] in _RULE_STARTS):
                found = _heading_at(lines, i)
            else:
                found = None
            if found is not None:
                kind, taken = found
                self.close()
                if kind in (_PARAMS, _ATTRIBUTES):
                    i = self.section(kind, i, taken)
                else:
                    self.piece(flatten(stripped))
                    i += taken
                continue
            if stripped.startswith(":"):
                m = _FIELD.match(stripped)
                if m is not None and m["name"].lower() in _FIELD_KINDS:
                    i = self.field(m, i, line)
                    continue
            indent = len(line) - len(stripped)
            if (stripped[0] in "-*+" or stripped[0].isdecimal()) and _ITEM.match(stripped):
                self.close()
                self.open, self.open_indent = [stripped], indent
            elif self.open and (self.open_indent < 0 or indent > self.open_indent):
                self.open.append(stripped)
            else:
                self.close()
                self.open, self.open_indent = [stripped], -1
            i += 1
        self.close()

    def field(self, m: re.Match[str], i: int, line: str) -> int:
        """A Sphinx field (``line``, at ``i``) and its continuation: one piece; a parameter
        or attribute field also an entry."""
        lines = self.lines
        stripped = line.lstrip()
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if below and len(below) - len(below.lstrip()) <= len(line) - len(stripped):
            more: list[str] = []  # the next line is no continuation (the usual one-line field)
            end = i + 1
        else:
            more, end = _continuation(lines, i + 1, len(line) - len(stripped))
        text = flatten(" ".join([m["text"] or "", *more]) if more else m["text"] or "")
        kind = _FIELD_KINDS[m["name"].lower()]
        args = (m["args"] or "").split()
        names: tuple[str, ...] = ()
        if kind != _OTHER and args:
            names = self.record(kind, [args[-1]], text)
        self.piece(flatten(" ".join([stripped, *more]) if more else stripped), names)
        return max(end, i + 1)

    def section(self, kind: str, i: int, taken: int) -> int:
        """A parameters or attributes heading at ``i`` and its entries; the index of the
        first line after them (blank lines after the last entry are left to the caller)."""
        lines = self.lines
        numpy = taken == 2
        heading_indent = _indent(lines[i])
        column = -1  # the entries' indentation, set by the first one
        form = False  # whether the first entry is bulleted
        found: list[tuple[str, list[str], tuple[str, ...], bool]] = []  # (head line, more, names, blank)
        blank = False
        j = end = i + taken
        n = len(lines)
        while j < n:
            line = lines[j]
            if not line:
                blank = True
                j += 1
                continue
            stripped = line.lstrip()
            indent = len(line) - len(stripped)
            if indent != column and (column >= 0 or indent < heading_indent):
                break
            below = lines[j + 1].lstrip() if j + 1 < n else ""
            if (stripped[-1] == ":" or stripped[0] == "#" or below[:1] in _RULE_STARTS) and _heading_at(
                lines, j
            ) is not None:
                break  # (only such a line can be a heading)
            bulleted = stripped[0] in "-*+" and stripped[1:2].isspace()
            if found and bulleted != form:
                break  # a list's entries are all bulleted, or none is
            if numpy:
                numpy_head = _numpy_head(stripped)
                if numpy_head is None:
                    break
                names, text = numpy_head
            else:
                head = _entry_head(stripped, bulleted)
                if head is None:
                    break
                names, text = [head[0]], head[1]
            if not names[0][:1].islower() and any(map(_is_section_name, names)):
                break
            column, form = indent, bulleted
            if below and len(lines[j + 1]) - len(below) <= indent:
                more: list[str] = []  # the next line is no continuation (the usual one-line entry)
                after = j + 1
            else:
                more, after = _continuation(lines, j + 1, indent)
            own = flatten(" ".join([text, *more]) if more else text)
            found.append((stripped, more, self.record(kind, names, own), blank))
            blank = False
            j = end = max(after, j + 1)
        if not found:
            self.piece(flatten(lines[i].strip()))
            return i + taken
        self.close()
        section = len(self.pieces) if kind == _PARAMS else -1
        self.piece(flatten(lines[i].strip()), section=section, heading=kind == _PARAMS)
        # The entries follow the heading, so a blank line before one is written as one.
        self.pieces += [
            _new(Piece, (flatten(" ".join([line, *more]) if more else line), blank, names, section, False))
            for line, more, names, blank in found
        ]
        return end


# --- the usual tool docstrings, read without the line reader ---------------------------

_T = TypeVar("_T", bound=tuple[object, ...])


class _TupleNew(Protocol):
    def __call__(self, cls: type[_T], fields: tuple[object, ...], /) -> _T: ...


#: Builds a named tuple from a tuple of its fields in C (a named tuple's own ``__new__`` is a
#: Python function, a call per piece).
_new: _TupleNew = tuple.__new__  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]

#: The headers ``_read_plain`` takes, as written (less indentation and trailing spaces):
#: whether their entries are parameters (else attributes).
_PLAIN_HEADERS: dict[str, bool] = {
    **dict.fromkeys(("Args:", "Arguments:", "Parameters:", "Params:"), True),
    "Attributes:": False,
}

#: One of them on its own line, found anywhere when the first colon is not the header's.
_PLAIN_HEADER = re.compile(r"\n *(?:Args|Arguments|Parameters|Params|Attributes): *\n")

#: A line break and a blank line (of spaces).
_BLANK_LINE = re.compile(r"\n *\n")

#: A prose line's first character that could make it something else than paragraph text (a
#: list item, a heading, an underline, a Sphinx field): ``_paragraphs`` leaves those to the reader.
_NOT_PROSE = frozenset("-*+#=:0123456789")


class _PlainDocstring(ParsedDocstring):
    """A parse laid out as ``_read_plain`` reads: paragraphs of prose (and headings such as
    ``Note:``), then perhaps a parameters or attributes heading with one-line entries
    ``name: text``, each naming one parameter or attribute (no name twice), the text
    already flat, then, after a blank line, perhaps sections such as ``Returns:``.

    Its ``pieces`` are the reader's less the entries' (the entries are ``params`` or
    ``attributes``, in their order, each the line it was written as; attribute entries
    never leave the description), and the blank line before the sections after them is
    not marked on their first piece. ``description`` writes what
    ``ParsedDocstring.description`` writes for the reader's pieces of the same docstring.
    """

    __slots__ = ()

    def description(self, names: Collection[str]) -> str:
        """The prose, then the heading and the entries that stay, if any, then the sections
        after the entries."""
        pieces = self.pieces
        params = self.params
        if params and pieces[-1].heading and all(map(names.__contains__, params)):
            # every entry leaves and no section follows them (the usual tool docstring): the prose
            return pieces[0].text if len(pieces) == 2 else _joined(pieces[:-1])
        if not (params or self.attributes):  # prose alone
            return _joined(pieces)
        heading = len(pieces) - 1
        if params and not pieces[heading].heading:  # other sections after the entries
            heading = next(i for i, piece in enumerate(pieces) if piece.heading)
        text = pieces[0].text if heading == 1 else _joined(pieces[:heading])
        if not params or not all(map(names.__contains__, params)):
            entries = params.items() if params else self.attributes.items()
            top = pieces[heading]
            section = top.text + "\n" + "\n".join([f"{k}: {v}" for k, v in entries if k not in names or not params])
            text = text + ("\n\n" if top.blank_before else "\n") + section if heading else section
            written = True
        else:
            written = heading > 0
        if heading + 1 == len(pieces):
            return text
        tail = _joined(pieces[heading + 1 :])  # a blank line always comes before it
        return text + "\n\n" + tail if written else tail


def _joined(pieces: tuple[Piece, ...]) -> str:
    """Pieces written one after another, each after a blank line or a line break as read."""
    if len(pieces) == 1:
        return pieces[0].text
    out: list[str] = []
    for piece in pieces:
        if out:
            out.append("\n\n" if piece.blank_before else "\n")
        out.append(piece.text)
    return "".join(out)


def _paragraphs(text: str) -> tuple[list[Piece], bool] | None:
    """The pieces of ``text`` (paragraphs of plain prose, and headings of sections other
    than parameters and attributes, such as ``Returns:``, on their own lines) and whether
    a blank line ends it; None when a line could be read as something else (a list item,
    an underline, a field, a parameters section) or ``text`` has a carriage return (which
    the reader takes for a line break).

    Only ``str.strip`` and ``str.split`` touch white space here, as in the reader, so
    a tab or another space reads the same.
    """
    if "\r" in text:
        return None
    body = text.strip()
    if "\n" not in body:  # the summary alone, or nothing
        if not body:
            return [], False
        if body[0] in _NOT_PROSE:
            return None  # (a heading alone on its line is read as its own words: the same piece)
        blank = text[-1] == "\n" or "\n" in text[text.rfind(body[-1]) :]
        if "  " in body or "`" in body or not body.isprintable():
            body = flatten(body)
        return [_new(Piece, (body, False, (), -1, False))], blank
    pieces: list[Piece] = []
    paragraph: list[str] = []
    blank = False  # a blank line since the last piece
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            if paragraph:
                pieces.append(_new(Piece, (flatten(" ".join(paragraph)), blank and bool(pieces), (), -1, False)))
                paragraph = []
            blank = True
        elif line[0] in _NOT_PROSE:
            return None
        elif line[-1] == ":" and (kind := _section_kind(line)) is not None:
            if kind != _OTHER:
                return None  # a parameters or attributes section: the reader's
            if paragraph:  # a "Returns:" heading: its own piece, as the reader writes it
                pieces.append(_new(Piece, (flatten(" ".join(paragraph)), blank and bool(pieces), (), -1, False)))
                paragraph, blank = [], False
            pieces.append(_new(Piece, (flatten(line), blank and bool(pieces), (), -1, False)))
            blank = False
        else:
            paragraph.append(line)
    if paragraph:
        pieces.append(_new(Piece, (flatten(" ".join(paragraph)), blank and bool(pieces), (), -1, False)))
        blank = False
    return pieces, blank


def _sections_after(text: str, column: int) -> list[Piece] | None:
    """The pieces of ``text``, which follows a blank line after a parameters section's
    entries at ``column``: ``Returns:``, ``Raises:`` and other such sections of prose.

    Its first line must be shallower than the entries (a deeper line would continue the
    last entry, one at their column could be another entry) and indented with spaces, so
    that the columns compare as in the reader.
    """
    content = len(text) - len(text.lstrip())
    indentation = text[text.rfind("\n", 0, content) + 1 : content]
    if len(indentation) >= column or indentation.strip(" "):
        return None
    read = _paragraphs(text)
    return None if read is None else read[0]


def _typed_names(heads: list[str]) -> list[str] | None:
    """The names of entry heads written ``name (type)`` or ``name``, each name once, else None."""
    names: list[str] = []
    for head in heads:
        name, paren, kind = head.partition(" (")
        if not name.isidentifier() or (paren and (kind[-1:] != ")" or "(" in kind or ")" in kind[:-1])):
            return None
        names.append(name)
    return names if len(set(names)) == len(names) else None


def _read_plain(doc: str) -> ParsedDocstring | None:
    """What ``_Reader`` reads from the commonest tool docstrings, or None for any other.

    The shapes: prose alone (``_paragraphs``); or prose, then ``Args:`` (``Arguments:``,
    ``Parameters:``, ``Params:``, ``Attributes:``) on a later line, then one-line
    ``name: text`` entries at one column at or past the header's (typed ``name (type): text``
    ones give the reader's pieces, for the general description), the name an ASCII
    identifier, the text already flat (no double space, no markup, no white space but the
    space), then blank lines and, after parameters, perhaps prose sections such as
    ``Returns:`` (``_sections_after``). The entries are checked all at once on the block,
    each cut between two made a ``" | "``: another line break (a line at another column)
    or white space is unprintable, and a text with a space at an edge, a deeper line or an
    empty text puts two spaces together. Cleaning the docstring shifts every line after
    the first by the same margin, so columns compared here compare as in the reader.
    ``tests/test_build_caches.py`` holds the two readings equal.
    """
    colon = doc.find(":")
    if colon < 0:
        alone = _paragraphs(doc)
        if alone is None or not alone[0]:
            return None
        return _new(_PlainDocstring, (_EMPTY, _EMPTY, tuple(alone[0])))
    start = doc.rfind("\n", 0, colon)
    end = doc.find("\n", colon) + 1
    header = doc[start + 1 : end - 1]
    title = header.strip(" ")
    if start < 0 or not end or title not in _PLAIN_HEADERS:
        found = _PLAIN_HEADER.search(doc, colon)  # prose with a colon, or no header
        if found is None:
            return None
        start, end = found.span()
        header = doc[start + 1 : end - 1]
        title = header.strip(" ")
    first = doc[end : end + 80]
    column = len(first) - len(first.lstrip(" "))
    if column == len(first) or column < len(header) - len(header.lstrip(" ")):
        return None  # no entry line after the header, or one shallower than it
    stop = len(doc.rstrip(" \n"))
    body = doc[end + column : stop]
    cut = doc[end - 1 : end + column]  # the line break and the column's spaces
    joined = body.replace(cut, " | ")
    gap = None
    if not joined.isprintable():  # perhaps a blank line after the entries, and other sections
        gap = _BLANK_LINE.search(doc, end, stop)
        if gap is None:
            return None
        body = doc[end + column : gap.start()].rstrip(" ")
        joined = body.replace(cut, " | ")
        if not joined.isprintable():
            return None
    if "  " in joined or "`" in joined:
        return None
    lines = body.split(cut)
    try:
        entries: dict[str, str] = dict([line.split(": ", 1) for line in lines])
    except ValueError:  # a line with no ": "
        return None
    keys = " ".join(entries)
    if len(entries) != len(lines) or not keys.isascii():
        return None  # a head twice (the first wins)
    typed = None
    if not all(map(str.isidentifier, entries)):  # "name (type)" heads, or no entries
        typed = _typed_names(list(entries))
        if typed is None:
            return None
        keys = " ".join(typed)
    if not keys.islower() and any(not name[0].islower() and _is_section_name(name) for name in typed or entries):
        return None  # "Returns: ..." ends the section in the reader
    prose = doc[:start]
    summary = prose.strip()
    if "\n" in summary or "\r" in prose or not summary or summary[0] in _NOT_PROSE:
        read = _paragraphs(prose)
        if read is None:
            return None
        pieces, blank = read
    else:  # the summary alone, the usual: what _paragraphs reads, without the call
        blank = prose[-1] == "\n" or "\n" in prose[prose.rfind(summary[-1]) :]
        if "  " in summary or "`" in summary or not summary.isprintable():
            summary = flatten(summary)
        pieces = [_new(Piece, (summary, False, (), -1, False))]
    params = _PLAIN_HEADERS[title]
    tail = None if gap is None or not params else _sections_after(doc[gap.end() - 1 :], column)
    if gap is not None and tail is None:
        return None
    if typed is not None:  # the reader's pieces, for the general description
        section = len(pieces) if params else -1
        pieces.append(_new(Piece, (title, blank and bool(pieces), (), section, params)))
        pieces += [
            _new(Piece, (line, False, (name,) if params else (), section, False)) for name, line in zip(typed, lines)
        ]
        if tail:
            pieces += [tail[0]._replace(blank_before=True), *tail[1:]]
        named = MappingProxyType(dict(zip(typed, entries.values())))
        return _new(ParsedDocstring, (named, _EMPTY, tuple(pieces)) if params else (_EMPTY, named, tuple(pieces)))
    if params:
        pieces.append(_new(Piece, (title, blank and bool(pieces), (), len(pieces), True)))
        pieces += tail or ()
        return _new(_PlainDocstring, (MappingProxyType(entries), _EMPTY, tuple(pieces)))
    pieces.append(_new(Piece, (title, blank and bool(pieces), (), -1, False)))
    return _new(_PlainDocstring, (_EMPTY, MappingProxyType(entries), tuple(pieces)))


def parse_docstring(doc: object) -> ParsedDocstring:
    """Parse a raw or cleaned docstring (Google, NumPy, Sphinx or markdown lists, or a mix).

    Never raises: a docstring that cannot be read, or a ``__doc__`` that is not a string, is read as nothing.
    """
    if not isinstance(doc, str) or not doc or doc.isspace():
        return _NOTHING
    try:
        plain = _read_plain(doc)
        if plain is not None:
            return plain
        reader = _Reader(_clean_lines(doc))
        reader.read()
        return ParsedDocstring(
            MappingProxyType(reader.params), MappingProxyType(reader.attributes), tuple(reader.pieces)
        )
    except Exception:  # pragma: no cover - a parser bug must not break a tool
        return _NOTHING


def field_description(doc: ParsedDocstring, name: str) -> str | None:
    """A record field's description from its class docstring (contract, "Records").

    The ``Attributes`` entry wins; else the ``Args``/``Parameters`` entry (a dataclass
    documented by its constructor arguments); else ``None``.
    """
    return doc.attributes.get(name) or doc.params.get(name) or None
