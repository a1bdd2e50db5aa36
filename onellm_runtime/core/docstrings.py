"""The one docstring parser shared by onellm's runtime and its mypy plugin.

The runtime hands it ``fn.__doc__``; the static side hands it the text from
``ast.get_docstring(node, clean=False)``. Both must read the same descriptions
(contract, "Docstrings"), so everything that decides what a docstring says lives
here, written against the standard library only (``re`` and ``dataclasses``),
and never raises.

What is read:

* ``summary``: the text before the first section (a Google header such as
  ``Args:``, a NumPy header underlined with dashes, or a Sphinx field such as
  ``:param x:``), flattened into one line.
* ``params``: Google ``Args:``/``Arguments:``/``Parameters:``/``Params:``/
  ``Keyword Args:``/``Keyword Arguments:``/``Other Parameters:`` entries, the
  NumPy sections of the same names, and Sphinx ``:param [type] name:``
  (also ``:parameter:``, ``:arg:``, ``:argument:``, ``:key:``, ``:keyword:``).
* ``attributes``: Google/NumPy ``Attributes`` entries and Sphinx ``:ivar:``,
  ``:var:``, ``:cvar:``.
* ``returns``: Google ``Returns:``/``Return:`` (a leading ``type:`` is dropped),
  NumPy ``Returns`` (the indented descriptions), Sphinx ``:returns:``/``:return:``.

Decisions that the contract leaves open, pinned by ``tests/test_docstrings.py``:

* An entry whose flattened description is empty is not recorded, and an empty
  ``Returns`` gives ``None``: a missing description and an empty one mean the same.
* When a name is documented twice (say in ``Args:`` and by ``:param:``), the first
  entry wins; so does the first non-empty returns text.
* ``*args``/``**kwargs`` entries are recorded as ``args``/``kwargs``.
* Text after a section that belongs to no section is ignored (it is not summary).
* A Google section whose body is not indented deeper than its header (``Args:``
  on a docstring's first line) runs, like a NumPy one, to the next section.
* A NumPy ``Returns`` entry list without indented descriptions gives its head
  lines (``int``), so no text the author wrote is lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from operator import methodcaller
from types import MappingProxyType

from .caches import BoundedCache

__all__ = ["ParsedDocstring", "field_description", "flatten", "parse_docstring"]


def _frozen(items: dict[str, str]) -> Mapping[str, str]:
    return MappingProxyType(items)


@dataclass(frozen=True, slots=True)
class ParsedDocstring:
    """What a docstring says, each text already flattened.

    Slotted: the parse cache keeps one per docstring text, and an instance dict would be
    one more object for the collector to walk per tool.
    """

    summary: str = ""
    params: Mapping[str, str] = field(default_factory=lambda: _frozen({}))
    attributes: Mapping[str, str] = field(default_factory=lambda: _frozen({}))
    returns: str | None = None

    def __init__(
        self,
        summary: str = "",
        params: Mapping[str, str] | None = None,
        attributes: Mapping[str, str] | None = None,
        returns: str | None = None,
    ) -> None:
        # Written out (the frozen dataclass's own calls object.__setattr__ per field, and
        # every tool parses a docstring of its own): the slots' own setters, the same
        # fields and defaults.
        _SET_SUMMARY(self, summary)
        _SET_PARAMS(self, _frozen({}) if params is None else params)
        _SET_ATTRIBUTES(self, _frozen({}) if attributes is None else attributes)
        _SET_RETURNS(self, returns)


# The slots' descriptors set a field past the frozen class's __setattr__, as
# object.__setattr__ would, without looking the attribute up by name.
_SET_SUMMARY: Callable[[ParsedDocstring, str], None] = ParsedDocstring.__dict__["summary"].__set__
_SET_PARAMS: Callable[[ParsedDocstring, Mapping[str, str]], None] = ParsedDocstring.__dict__["params"].__set__
_SET_ATTRIBUTES: Callable[[ParsedDocstring, Mapping[str, str]], None] = ParsedDocstring.__dict__["attributes"].__set__
_SET_RETURNS: Callable[[ParsedDocstring, str | None], None] = ParsedDocstring.__dict__["returns"].__set__


# --- sections --------------------------------------------------------------

_PARAMS = "params"
_ATTRIBUTES = "attributes"
_RETURNS = "returns"
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
    "returns": _RETURNS,
    "return": _RETURNS,
    "yields": _OTHER,
    "yield": _OTHER,
    "receives": _OTHER,
    "receive": _OTHER,
    "raises": _OTHER,
    "raise": _OTHER,
    "warns": _OTHER,
    "warn": _OTHER,
    "example": _OTHER,
    "examples": _OTHER,
    "note": _OTHER,
    "notes": _OTHER,
    "warning": _OTHER,
    "warnings": _OTHER,
    "see also": _OTHER,
    "todo": _OTHER,
    "references": _OTHER,
    "methods": _OTHER,
    "attention": _OTHER,
    "caution": _OTHER,
    "danger": _OTHER,
    "error": _OTHER,
    "hint": _OTHER,
    "important": _OTHER,
    "tip": _OTHER,
}

# Sphinx info-field names (lower case) and what they document.
_FIELD_KINDS: dict[str, str] = {
    "param": _PARAMS,
    "parameter": _PARAMS,
    "arg": _PARAMS,
    "argument": _PARAMS,
    "key": _PARAMS,
    "keyword": _PARAMS,
    "ivar": _ATTRIBUTES,
    "var": _ATTRIBUTES,
    "cvar": _ATTRIBUTES,
    "returns": _RETURNS,
    "return": _RETURNS,
    "type": _OTHER,
    "kwtype": _OTHER,
    "vartype": _OTHER,
    "rtype": _OTHER,
    "raises": _OTHER,
    "raise": _OTHER,
    "except": _OTHER,
    "exception": _OTHER,
    "yields": _OTHER,
    "yield": _OTHER,
    "ytype": _OTHER,
    "meta": _OTHER,
}

# All patterns below are anchored and free of nested ambiguous quantifiers, so each
# runs in time linear in the line it is given.

# ":name args: text" on a stripped line. One \s before the arguments (not \s+) so the
# split between the separator and "[^:]*" is unambiguous.
_FIELD = re.compile(r":(?P<name>[^\W\d][\w-]*)(?P<args>\s[^:]*)?:(?:\s(?P<text>.*)|$)")

# Google entry "name (type): description" / "name: description" on a stripped line.
_GOOGLE_ENTRY = re.compile(r"\*{0,2}(?P<name>[^\W\d]\w*)\s*(?:\((?P<type>.*?)\)\s*)?:(?:\s(?P<desc>.*)|$)")

# NumPy section underline.
_UNDERLINE = re.compile(r"-{3,}|={3,}")

# Inline markup, one pass: ``literal``, :role:`text` (also :domain:role:), `text`.
# The role name parts are bounded so that a long run of ":a:a:a" costs O(1) per start.
_INLINE = re.compile(
    r"``(?P<lit>[^`]+(?:`[^`]+)*)``"
    r"|(?P<role>:(?:[A-Za-z0-9_+.-]{1,64}:){1,4})`(?P<rtext>[^`]+)`"
    r"|`(?P<tick>[^`]+)`"
)


# --- flattening ------------------------------------------------------------


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


def flatten(text: str) -> str:
    """Collapse whitespace to single spaces and keep the text of inline markup.

    ``:class:`~a.b.X``` gives ``X``, ``:func:`a.b.f``` gives ``a.b.f``,
    ``:meth:`title <a.b>``` gives ``title``; ````x```` and ```x``` give ``x``.
    Nothing else is changed.
    """
    if not text:  # also tolerates None from untyped callers
        return ""
    collapsed = " ".join(text.split())
    if "`" not in collapsed:
        return collapsed
    return " ".join(_INLINE.sub(_inline, collapsed).split())


# --- line helpers ----------------------------------------------------------


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


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


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """End of the block from ``start``: lines blank or indented deeper than ``indent``.

    Trailing blank lines are not part of the block.
    """
    end = start
    for j in range(start, len(lines)):
        line = lines[j]
        if line:
            if len(line) - len(line.lstrip()) <= indent:
                break
            end = j + 1
    return end


def _dedent(body: list[str]) -> list[str]:
    margin = min([len(line) - len(line.lstrip()) for line in body if line], default=0)
    return [line[margin:] for line in body] if margin else body


#: ``_header_kind`` by the header's text as written (``"Args"``): the same few headers
#: recur in every docstring, and normalising one costs more than looking it up.
_HEADER_KINDS: BoundedCache[str, str | None] = BoundedCache(512)


def _header_kind(name: str) -> str | None:
    try:
        return _HEADER_KINDS[name]
    except KeyError:
        pass
    kind = _SECTION_KINDS.get(" ".join(name.split()).lower())
    _HEADER_KINDS.put(name, kind)  # bounded: most lines ending in ':' are prose, not headers
    return kind


# A section start: (style, kind, field match or None).
_Start = tuple[str, str, re.Match[str] | None]


def _section_at(lines: list[str], i: int) -> _Start | None:
    stripped = lines[i].strip()
    if not stripped:
        return None
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    if ("---" in nxt or "===" in nxt) and _UNDERLINE.fullmatch(nxt.strip()):
        kind = _header_kind(stripped[:-1] if stripped.endswith(":") else stripped)
        if kind is not None:
            return ("numpy", kind, None)
    if stripped.endswith(":"):
        kind = _header_kind(stripped[:-1])
        if kind is not None:
            return ("google", kind, None)
    if stripped.startswith(":"):
        match = _FIELD.match(stripped)
        if match is not None:
            kind = _FIELD_KINDS.get(match.group("name").lower())
            if kind is not None:
                return ("sphinx", kind, match)
    return None


# --- entries ---------------------------------------------------------------

_Head = tuple[list[str], str]


def _numpy_head(stripped: str) -> _Head | None:
    names = [name.strip().lstrip("*") for name in stripped.partition(":")[0].split(",")]
    if all(name.isidentifier() for name in names):
        return names, ""
    return None


def _entries(body: list[str], head: Callable[[str], _Head | None]) -> list[tuple[list[str], str]]:
    """Split a section body into (names, flattened description) entries.

    Entry heads sit at the body's least indentation; deeper lines continue the
    entry. A line at head level that is not a head continues the entry before it.
    """
    found: list[tuple[list[str], list[str]]] = []
    for line in _dedent(body):
        if line and not line[0].isspace():  # at the body's least indentation
            parsed = head(line)
            if parsed is not None:
                found.append((parsed[0], [parsed[1]]))
                continue
        if found:
            found[-1][1].append(line)
    return [(names, flatten("\n".join(text))) for names, text in found]


def _google_entries(body: list[str]) -> list[tuple[str, str]]:
    """A Google section's (name, flattened description) entries, as ``_entries`` reads a
    NumPy one, with a head being a line that ``_GOOGLE_ENTRY`` matches in full (one name
    each). Written out for the commonest section (every tool's ``Args:``), where calls per
    line were most of the parser's cost. Lines are not dedented first: a head is a line at
    the least indentation, matched from there, and a continuation's own indentation is
    whitespace that flattening drops anyway."""
    margin = -1
    for line in body:
        if line:
            indent = len(line) - len(line.lstrip())
            if margin < 0 or indent < margin:
                margin = indent
    found: list[tuple[str, list[str]]] = []
    match = _GOOGLE_ENTRY.fullmatch
    for line in body:
        if line and not line[margin].isspace():  # at the least indentation
            m = match(line, margin)
            if m is not None:
                found.append((m["name"], [m["desc"] or ""]))
                continue
        if found:
            found[-1][1].append(line)
    return [(name, flatten(text[0] if len(text) == 1 else "\n".join(text))) for name, text in found]


def _strip_return_type(text: str) -> str:
    """Drop a leading ``type:`` from a Google ``Returns`` text (``int: The count.``).

    The part before the first colon (outside brackets) counts as a type only if,
    brackets aside, it is one word or words joined by ``|``.
    """
    depth = 0
    outside: list[str] = []
    for idx, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            if char == ":" and (idx + 1 == len(text) or text[idx + 1] == " "):
                word = "".join(outside).replace(" | ", "|").strip()
                if word and " " not in word:
                    return text[idx + 1 :].strip()
                return text
            outside.append(char)
    return text


def _google_returns(body: list[str]) -> str:
    lines = _dedent(body)
    first = 0
    while first < len(lines) and not lines[first]:
        first += 1
    if first == len(lines):
        return ""
    head = _strip_return_type(flatten(lines[first]))
    rest = flatten("\n".join(lines[first + 1 :]))
    return " ".join(part for part in (head, rest) if part)


def _numpy_returns(body: list[str]) -> str:
    found: list[tuple[str, list[str]]] = []
    for line in _dedent(body):
        if line and not _indent(line):
            found.append((line, []))
        elif found:
            found[-1][1].append(line)
    described = [flatten("\n".join(text)) for _, text in found]
    if any(described):
        return " ".join(text for text in described if text)
    return flatten("\n".join(head for head, _ in found))


# --- parsing ---------------------------------------------------------------


class _Collector:
    def __init__(self) -> None:
        self.params: dict[str, str] = {}
        self.attributes: dict[str, str] = {}
        self.returns: str | None = None

    def add(self, kind: str, names: list[str], text: str) -> None:
        if not text:
            return
        if kind == _RETURNS:
            if self.returns is None:
                self.returns = text
            return
        target = self.params if kind == _PARAMS else self.attributes
        for name in names:
            name = name.lstrip("*")
            if name and name not in target:
                target[name] = text


# The commonest docstring of a tool, read in one match: a summary, then an ``Args:``
# section of one-line entries to the end. Nothing before the header has a colon (so no
# line there starts a Google or Sphinx section: the header is the first colon), every
# entry sits at one indentation deeper than the header's, and the rest is blank.
_SIMPLE = re.compile(
    r"(?P<summary>[^:]*)\n"
    r"(?P<indent> *)(?:Args|Arguments|Parameters|Params): *"
    r"(?P<body>(?:\n(?P<entry>(?P=indent) +)\S[^\n]*)(?:\n(?:(?P=entry)\S[^\n]*| *))*)"
)


def _parse_simple(doc: str) -> ParsedDocstring | None:
    """``_parse_lines(doc)`` for a docstring ``_SIMPLE`` matches, else None.

    The same reading, without the line-by-line work: spaces and line breaks inside the
    summary and the entries are what ``flatten`` collapses anyway; relative indentation,
    the only kind the sections depend on, is the same before and after dedenting (the
    header is never the first line, the one line ``cleandoc`` treats apart); and with no
    tab, carriage return or underline anywhere, cleaning changes nothing else.
    """
    if "\t" in doc or "\r" in doc or "---" in doc or "===" in doc:
        return None
    m = _SIMPLE.fullmatch(doc)
    if m is None:
        return None
    summary, body, indent = m.group("summary", "body", "entry")
    margin = len(indent)
    params: dict[str, str] = {}
    match = _GOOGLE_ENTRY.fullmatch
    for line in body.split("\n"):
        if len(line) <= margin or line[margin] == " ":
            continue  # a blank line: it continues an entry with nothing but whitespace
        # Matched as written: trailing spaces change nothing that flatten keeps.
        entry = match(line, margin)
        if entry is None:
            return None  # a head-level line that is no entry continues the one before: the full parser
        name, desc = entry.group("name", "desc")  # never starred: the stars are outside the group
        if name not in params and desc:
            text = flatten(desc)
            if text:
                params[name] = text
    return ParsedDocstring(flatten(summary), _frozen(params), _NO_ENTRIES, None)


#: The empty mapping of a docstring with no entries of a kind (read-only, so one serves all).
_NO_ENTRIES: Mapping[str, str] = _frozen({})

#: The ``_SIMPLE`` header lines ``_parse_plain`` takes, as written (less indentation and trailing spaces).
_PLAIN_HEADERS = frozenset(("Args:", "Arguments:", "Parameters:", "Params:"))

#: ``line.split(": ", 1)``, called from C by ``map``: a name and its text, or one piece.
_split_entry: Callable[[str], list[str]] = methodcaller("split", ": ", 1)


def _parse_plain(doc: str) -> ParsedDocstring | None:
    """``_parse_simple(doc)`` for the plainest of its docstrings, else None: each entry
    ``name: text`` on one line, the name an ASCII identifier, the text already flat (single
    spaces, no other whitespace, no backquote), no name twice, no blank line between entries.

    Read with a few string methods over the whole text, none per character in Python and
    no match per line: the first colon is the header's (the summary has none), and the
    entries are the pieces between the line breaks followed by the entries' indentation.
    Anything else returns None, for ``_parse_simple`` to read.
    """
    colon = doc.find(":")
    start = doc.rfind("\n", 0, colon) if colon > 0 else -1
    end = doc.find("\n", colon)
    if start < 0 or end < 0:  # no colon, the header on the first line, or no line after it
        return None
    header = doc[start + 1 : end]
    name = header.lstrip(" ")
    if name.rstrip(" ") not in _PLAIN_HEADERS:
        return None
    if "\t" in doc or "\r" in doc or doc.find("---", 0, start) >= 0 or doc.find("===", 0, start) >= 0:
        return None  # what cleaning or an underline in the summary would change: _parse_simple's refusals
    # The entries: after the first entry's indentation (deeper than the header's), the text
    # up to the blank lines at the end (the closing quotes' indentation), cut at each line
    # break followed by that indentation.
    probe = doc[end + 1 : end + 81]
    depth = len(probe) - len(probe.lstrip(" "))
    if depth == len(probe) or depth <= len(header) - len(name):
        return None
    sep = doc[end : end + 1 + depth]
    body = doc[end + 1 + depth : len(doc.rstrip(" \n"))]
    # Every text flat and not empty, checked on the whole: with each cut made a single
    # " | ", a line break left (a line at another indentation, a blank line) or any other
    # whitespace character is unprintable, and a text with a space at an edge, a run of
    # spaces, a line indented deeper or an empty text puts two spaces together.
    joined = body.replace(sep, " | ")
    if not joined.isprintable() or "  " in joined or "`" in joined:
        return None
    lines = body.split(sep)
    try:
        params: dict[str, str] = dict(map(_split_entry, lines))
    except ValueError:  # a line with no ': '
        return None
    if len(params) != len(lines) or not all(map(str.isidentifier, params)) or not " ".join(params).isascii():
        return None  # a name twice (the first wins), or a head that is no plain name
    return ParsedDocstring(flatten(doc[:start]), MappingProxyType(params), _NO_ENTRIES, None)


def _parse_lines(doc: str) -> ParsedDocstring:
    """The parser: every style, line by line."""
    lines = _clean_lines(doc)
    summary: list[str] = []
    found = _Collector()
    in_sections = False
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if ":" in line or (i + 1 < n and ("---" in lines[i + 1] or "===" in lines[i + 1])):
            start = _section_at(lines, i)
        else:  # no section starts without a colon on its line or an underline on the next
            start = None
        if start is None:
            if not in_sections:
                summary.append(line)
            i += 1
            continue
        in_sections = True
        style, kind, match = start
        indent = len(line) - len(line.lstrip())
        if style == "sphinx":
            assert match is not None
            end = _block_end(lines, i + 1, indent)
            if kind != _OTHER:
                text = flatten("\n".join([match.group("text") or "", *lines[i + 1 : end]]))
                args = (match.group("args") or "").split()
                if kind == _RETURNS:
                    found.add(kind, [], text)
                elif args:
                    found.add(kind, [args[-1]], text)
            i = max(end, i + 1)
            continue
        body_start = i + 1 if style == "google" else i + 2
        end = _block_end(lines, body_start, indent) if style == "google" else body_start
        if end == body_start:
            # A NumPy section, or a Google one whose body is not indented (as when
            # the header is the docstring's first line, whose indentation cleandoc
            # cannot know): it runs to the next section at the header's level.
            for j in range(body_start, n):
                line = lines[j]
                if line:
                    if _indent(line) <= indent and _section_at(lines, j) is not None:
                        break
                    end = j + 1
        body = lines[body_start:end]
        if kind == _RETURNS:
            text = _google_returns(body) if style == "google" else _numpy_returns(body)
            found.add(kind, [], text)
        elif kind != _OTHER and style == "google":
            target = found.params if kind == _PARAMS else found.attributes
            for name, text in _google_entries(body):
                name = name.lstrip("*")  # as _Collector.add does
                if text and name and name not in target:
                    target[name] = text
        elif kind != _OTHER:
            for names, text in _entries(body, _numpy_head):
                found.add(kind, names, text)
        i = max(end, body_start)
    return ParsedDocstring(
        summary=flatten("\n".join(summary)),
        params=_frozen(found.params),
        attributes=_frozen(found.attributes),
        returns=found.returns,
    )


def parse_docstring(doc: str | None) -> ParsedDocstring:
    """Parse a raw or cleaned docstring (Google, NumPy or Sphinx style, or a mix).

    Never raises: what cannot be read is left out.
    """
    if not isinstance(doc, str) or not doc or doc.isspace():  # (not doc.strip(), without the copy)
        return ParsedDocstring()
    try:
        simple = _parse_plain(doc)
        if simple is None:
            simple = _parse_simple(doc)
        return simple if simple is not None else _parse_lines(doc)
    except Exception:  # pragma: no cover - a parser bug must not break a tool
        return ParsedDocstring()


def field_description(doc: ParsedDocstring, name: str) -> str | None:
    """A record field's description from its class docstring (contract, "Records").

    The ``Attributes`` entry wins; else the ``Args``/``Parameters`` entry (a dataclass
    documented by its constructor arguments); else ``None``.
    """
    return doc.attributes.get(name) or doc.params.get(name) or None
