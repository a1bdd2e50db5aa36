"""What only the source text shows: read with ``ast`` from the files mypy checked.

mypy drops ``Annotated`` metadata from analysed types, keeps no docstrings, and does not
evaluate default values, so the static front end reads those from the source, the way
the C# generator reads doc comments. This module knows Python syntax and nothing about
mypy: names are resolved through a callback (``Resolve``) that ``names.NameResolver``
implements with mypy's symbol tables.

Parsed modules are kept by a ``SourceCache`` owned by one plugin (or extractor)
instance, keyed by path and file stamp, so a daemon that keeps the plugin alive re-reads
a file that changed.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union

from onellm_runtime.core import fields
from onellm_runtime.core.diagnostics import not_computed_text
from onellm_runtime.core.frozen import quick_init
from onellm_runtime.core.markers import NOT_COMPUTED, REQUIRED, MarkerSpec, Param, refusal, spec_for_call
from onellm_runtime.core.model import (
    NO_DEFAULT,
    NONE_DEFAULT,
    OPAQUE_DEFAULT,
    UNREADABLE_DEFAULT,
    Default,
    Marker,
    writable_number,
)

from .compute import evaluate
from .values import Allowance, Bound, EnumValue, Opaque, Resolution, Resolve, Resolver, Unreadable

__all__ = [
    "FunctionNode",
    "ModuleSource",
    "SourceCache",
    "EnumValue",
    "Bound",
    "Resolution",
    "Resolve",
    "Resolver",
    "Allowance",
    "Opaque",
    "Unreadable",
    "read_constant",
    "expression_text",
    "not_computed",
    "read_default",
    "default_of",
    "marker_from_call",
    "FIELD_FUNCTION",
    "field_call_arguments",
    "field_from_call",
    "body_bindings",
    "class_body_bindings",
    "docstring",
    "field_value",
]

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]


@quick_init
@dataclass(frozen=True)
class Binding:
    """One statement that binds a name in a module or class body."""

    node: ast.AST
    #: The assigned expression for ``x = ...`` / ``x: T = ...`` with a plain name target.
    value: ast.expr | None
    #: Bound inside ``if TYPE_CHECKING:`` (so absent at runtime).
    type_checking: bool


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _target_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _target_names(elt)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []


def _collect_bindings(body: list[ast.stmt], out: dict[str, list[Binding]], type_checking: bool) -> None:
    """Names bound by ``body`` at its own scope (nested blocks included, nested scopes not)."""

    def add(name: str, node: ast.AST, value: ast.expr | None = None) -> None:
        out.setdefault(name, []).append(Binding(node, value, type_checking))

    for stmt in body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                single = isinstance(target, ast.Name) and len(stmt.targets) == 1
                for name in _target_names(target):
                    add(name, stmt, stmt.value if single else None)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None and isinstance(stmt.target, ast.Name):
                add(stmt.target.id, stmt, stmt.value)
        elif isinstance(stmt, ast.AugAssign):
            for name in _target_names(stmt.target):
                add(name, stmt)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                if alias.name != "*":
                    add(alias.asname or alias.name.split(".")[0], stmt)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(stmt.name, stmt)
        elif isinstance(stmt, ast.If):
            inner = type_checking or _is_type_checking(stmt.test)
            _collect_bindings(stmt.body, out, inner)
            _collect_bindings(stmt.orelse, out, type_checking)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            for name in _target_names(stmt.target):
                add(name, stmt)
            _collect_bindings(stmt.body, out, type_checking)
            _collect_bindings(stmt.orelse, out, type_checking)
        elif isinstance(stmt, ast.While):
            _collect_bindings(stmt.body, out, type_checking)
            _collect_bindings(stmt.orelse, out, type_checking)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    for name in _target_names(item.optional_vars):
                        add(name, stmt)
            _collect_bindings(stmt.body, out, type_checking)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            _collect_bindings(getattr(stmt, "body"), out, type_checking)
            for handler in getattr(stmt, "handlers"):
                if handler.name:
                    add(handler.name, handler)
                _collect_bindings(handler.body, out, type_checking)
            _collect_bindings(getattr(stmt, "orelse"), out, type_checking)
            _collect_bindings(getattr(stmt, "finalbody"), out, type_checking)


def body_bindings(body: list[ast.stmt]) -> dict[str, list[Binding]]:
    """The names a function's body binds at its own scope (its parameters aside)."""
    out: dict[str, list[Binding]] = {}
    _collect_bindings(body, out, False)
    return out


def class_body_bindings(node: ast.ClassDef) -> dict[str, list[Binding]]:
    out: dict[str, list[Binding]] = {}
    _collect_bindings(node.body, out, False)
    return out


@dataclass
class ModuleSource:
    """One parsed module and the indexes the front end looks things up in."""

    path: str
    tree: ast.Module
    #: ``from __future__ import annotations``: every annotation is a string at runtime.
    lazy: bool
    #: Classes by qualified name inside the module (``Outer.Inner``), classes in classes only.
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    _class_bindings: dict[int, dict[str, list[Binding]]] = field(default_factory=dict)
    #: The file's bytes, for ``source_digest``.
    data: bytes = b""
    #: Positions of calls assigned to a name at module level or in a module-level class
    #: (``t = Tool.create(f)``): the tools a module's ``vars()`` holds.
    assigned_calls: set[tuple[int, int]] = field(default_factory=set)
    _walked: bool = False
    _outer_functions: dict[tuple[int, str], FunctionNode] = field(default_factory=dict)
    _functions: dict[tuple[int, str], FunctionNode] = field(default_factory=dict)
    _lambdas: dict[tuple[int, int], ast.Lambda] = field(default_factory=dict)
    _calls: dict[tuple[int, int], ast.Call] = field(default_factory=dict)
    _classes_at: dict[tuple[int, str], ast.ClassDef] = field(default_factory=dict)
    _lines: list[bytes] | None = None

    def span(self, node: ast.expr) -> bytes | None:
        """The bytes ``node`` was written as, or None where its positions cannot be trusted
        (no file bytes, or an encoding other than UTF-8, whose columns are not byte offsets)."""
        lines = self._lines
        if lines is None:
            lines = self._lines = _utf8_lines(self.data)
        end, end_col = node.end_lineno, node.end_col_offset
        first = node.lineno - 1
        if not lines or end is None or end_col is None or end > len(lines):
            return None
        if end - 1 == first:
            return lines[first][node.col_offset : end_col]
        return b"\n".join([lines[first][node.col_offset :], *lines[first + 1 : end - 1], lines[end - 1][:end_col]])

    def _walk(self) -> None:
        """Index every def, lambda, call and class by position (once, on first use)."""
        if self._walked:
            return
        self._walked = True
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._functions[(node.lineno, node.name)] = node
            elif isinstance(node, ast.Lambda):
                self._lambdas[(node.lineno, node.col_offset)] = node
            elif isinstance(node, ast.Call):
                self._calls[(node.lineno, node.col_offset)] = node
            elif isinstance(node, ast.ClassDef):
                self._classes_at[(node.lineno, node.name)] = node

    def function(self, line: int, name: str) -> FunctionNode | None:
        """The ``def`` at ``line``: found among module and class level defs first (cheap), else anywhere."""
        if not self._outer_functions and not self._walked:

            def visit(body: list[ast.stmt]) -> None:
                for stmt in body:
                    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self._outer_functions[(stmt.lineno, stmt.name)] = stmt
                    elif isinstance(stmt, ast.ClassDef):
                        visit(stmt.body)
                    elif isinstance(stmt, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                        visit(getattr(stmt, "body"))
                        visit(getattr(stmt, "orelse", []))

            visit(self.tree.body)
        found = self._outer_functions.get((line, name))
        return found if found is not None else self.functions.get((line, name))

    @property
    def functions(self) -> dict[tuple[int, str], FunctionNode]:
        self._walk()
        return self._functions

    @property
    def lambdas(self) -> dict[tuple[int, int], ast.Lambda]:
        self._walk()
        return self._lambdas

    @property
    def calls(self) -> dict[tuple[int, int], ast.Call]:
        self._walk()
        return self._calls

    @property
    def classes_at(self) -> dict[tuple[int, str], ast.ClassDef]:
        self._walk()
        return self._classes_at

    def class_bindings(self, node: ast.ClassDef) -> dict[str, list[Binding]]:
        found = self._class_bindings.get(id(node))
        if found is None:
            found = self._class_bindings[id(node)] = class_body_bindings(node)
        return found

    def type_checking_only(self, name: str) -> bool:
        """Bound at module level only inside ``if TYPE_CHECKING:`` (so unknown at runtime)."""
        found = self.bindings.get(name)
        return found is not None and len(found) > 0 and all(b.type_checking for b in found)


def _index(path: str, tree: ast.Module) -> ModuleSource:
    lazy = any(
        isinstance(stmt, ast.ImportFrom)
        and stmt.module == "__future__"
        and any(alias.name == "annotations" for alias in stmt.names)
        for stmt in tree.body
    )
    ms = ModuleSource(path, tree, lazy)
    _collect_bindings(tree.body, ms.bindings, False)

    def classes_in(body: list[ast.stmt], prefix: str) -> None:
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                qualname = prefix + stmt.name
                ms.classes.setdefault(qualname, stmt)
                classes_in(stmt.body, qualname + ".")
            elif isinstance(stmt, (ast.If, ast.Try, ast.With)):
                classes_in(getattr(stmt, "body"), prefix)
                classes_in(getattr(stmt, "orelse", []), prefix)

    classes_in(tree.body, "")

    def assignments(body: list[ast.stmt], in_class: bool) -> None:
        for stmt in body:
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value, ast.Call):
                ms.assigned_calls.add((value.lineno, value.col_offset))
            elif isinstance(stmt, ast.ClassDef) and not in_class:
                assignments(stmt.body, True)
            elif isinstance(stmt, (ast.If, ast.Try, ast.With)):
                assignments(getattr(stmt, "body"), in_class)
                assignments(getattr(stmt, "orelse", []), in_class)

    assignments(tree.body, False)
    return ms


class SourceCache:
    """Parsed modules by path; a changed file (new size or mtime) is parsed again.

    A file's stamp is checked once per ``generation``: the plugin starts a new one
    whenever mypy parses a module, which is how a daemon run begins after an edit.

    The text read is the one mypy checks, which is not always the file at ``path``:
    ``shadows`` maps a path to the file mypy reads in its place (``--shadow-file SOURCE
    SHADOW``, how editors hand mypy an unsaved buffer), and ``texts`` holds text that
    has no file at all (``mypy -c PROGRAM``, a buffer handed over in memory).
    """

    def __init__(self) -> None:
        self._modules: dict[str, tuple[object, ModuleSource | None]] = {}
        #: Trees parsed elsewhere (``adopt``), indexed when first asked for: by path, the stamp
        #: they were read under, their bytes and tree.
        self._adopted: dict[str, tuple[object, bytes, ast.Module]] = {}
        self._checked: set[str] = set()
        #: Bytes of each source held, for the allowance.
        self._sizes: dict[str, int] = {}
        #: What the generation's value reads may spend together (see ``Allowance``).
        self.allowance = Allowance()
        #: Normalised source path -> the file read in its place.
        self.shadows: dict[str, str] = {}
        #: Path as mypy names the module (``<string>`` for ``-c``) -> its text.
        self.texts: dict[str, str] = {}

    def new_generation(self) -> None:
        self._checked.clear()
        self.allowance = Allowance(sum(self._sizes.values()))

    def set_shadows(self, pairs: list[list[str]] | list[tuple[str, str]]) -> None:
        """``options.shadow_file``: (source, shadow) pairs."""
        self.shadows = {_normalised(source): shadow for source, shadow in pairs}

    def read_from(self, path: str) -> str:
        """The file whose bytes stand for ``path`` (its shadow, or itself)."""
        if not self.shadows:
            return path
        found = self.shadows.get(_normalised(path))
        if found is not None:
            return found
        for source, shadow in self.shadows.items():
            try:
                if os.path.samefile(source, path):
                    return shadow
            except OSError:
                continue
        return path

    def module(self, path: str | None) -> ModuleSource | None:
        if not path:
            return None
        text = self.texts.get(path)
        if text is not None:
            return self._from_text(path, text)
        if not path.endswith((".py", ".pyi")):
            return None
        cached = self._modules.get(path)
        if cached is not None and path in self._checked:
            return cached[1]
        read = self.read_from(path)
        try:
            st = os.stat(read)
        except OSError:
            return None
        stamp = (read, st.st_mtime_ns, st.st_size)
        self._checked.add(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        adopted = self._adopted.pop(path, None)
        if adopted is not None and adopted[0] == stamp:
            indexed = _index(path, adopted[2])
            indexed.data = adopted[1]
            self._held(path, stamp, indexed)
            return indexed
        parsed: ModuleSource | None
        try:
            with open(read, "rb") as f:
                data = f.read()
            parsed = _parse(path, data)
        except OSError:
            parsed = None
        self._held(path, stamp, parsed)
        return parsed

    def adopt(self, path: str, data: bytes, stamp: tuple[int, int], tree: ast.Module) -> None:
        """Hold ``path`` as parsed elsewhere from ``data`` (``stamp``: its mtime and size when
        read), so that it is not parsed again; a shadowed path is left to be read as usual.

        Its bytes count toward the allowance now, as a source held; it is indexed when first
        asked for (most modules of a build hold no tool, and are never asked for)."""
        if self.read_from(path) != path:
            return
        self._adopted[path] = ((path, *stamp), data, tree)
        self.allowance.widen(len(data) - self._sizes.get(path, 0))
        self._sizes[path] = len(data)

    def _held(self, path: str, stamp: object, parsed: ModuleSource | None) -> None:
        """Keep a parsed source; its bytes widen the allowance of this generation and the next ones."""
        self._modules[path] = (stamp, parsed)
        size = len(parsed.data) if parsed is not None else 0
        self.allowance.widen(size - self._sizes.get(path, 0))
        self._sizes[path] = size

    def _from_text(self, path: str, text: str) -> ModuleSource | None:
        cached = self._modules.get(path)
        if cached is not None and cached[0] == text:
            return cached[1]
        parsed = _parse(path, text.encode("utf-8"))
        self._held(path, text, parsed)
        return parsed


def _parse(path: str, data: bytes) -> ModuleSource | None:
    try:
        parsed = _index(path, ast.parse(data, filename=path))
    except (SyntaxError, ValueError):
        return None
    parsed.data = data
    return parsed


def _utf8_lines(data: bytes) -> list[bytes]:
    """The lines of a UTF-8 source as the parser numbers them (its columns are UTF-8 byte
    offsets); none for a source declaring another encoding."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.splitlines()
    for line in lines[:2]:  # PEP 263: a coding declaration is on line 1 or 2
        found = _CODING.match(line)
        if found is not None and found.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
            return []
    return lines


_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def _normalised(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


def docstring(node: FunctionNode | ast.ClassDef) -> str | None:
    """The raw docstring, as ``fn.__doc__`` holds it (the shared parser cleans it)."""
    return ast.get_docstring(node, clean=False)


# -- constant values -----------------------------------------------------------------


_UNREADABLE = Unreadable()

Constant = Union[str, int, float, bool, None, bytes, complex, EnumValue, tuple[object, ...], list[object]]


def read_constant(expr: ast.expr, resolve: Resolve, depth: int = 0) -> object:
    """The value of ``expr`` as the contract's value rule computes it, else ``Opaque``/``Unreadable``.

    Computed (``compute.py`` has the rules): literals, enum members, names bound once to
    such a value, arithmetic on numbers, ``+`` on strings, f-strings, tuples and lists.
    ``Opaque``: a dict, set, comprehension or lambda (a value never written); ``Unreadable``:
    anything else, and any value past the size and step bounds. ``depth`` counts the names
    already followed to get here.
    """
    return evaluate(expr, resolve, depth)


#: How much of an expression a message quotes.
_QUOTED = 60


def written_names(expr: ast.expr) -> list[str] | None:
    """Every plain name ``expr`` resolves, those in strings that read as expressions included
    (forward references); None for an expression with parts of other kinds (a lambda, a
    comprehension), whose meaning this does not describe."""
    names: list[str] = []
    stack: list[ast.expr] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, (ast.Attribute, ast.Starred)):
            stack.append(node.value)
        elif isinstance(node, ast.Subscript):
            stack += (node.value, node.slice)
        elif isinstance(node, (ast.Tuple, ast.List)):
            stack += node.elts
        elif isinstance(node, ast.Call):
            stack += (node.func, *node.args, *(k.value for k in node.keywords))
        elif isinstance(node, ast.BinOp):
            stack += (node.left, node.right)
        elif isinstance(node, ast.UnaryOp):
            stack.append(node.operand)
        elif isinstance(node, ast.JoinedStr):
            stack += node.values
        elif isinstance(node, ast.FormattedValue):
            stack.append(node.value)
            if node.format_spec is not None:
                stack.append(node.format_spec)
        elif isinstance(node, ast.Constant):
            if type(node.value) is str:
                inner = _names_in_string(node.value)
                if inner is None:
                    return None
                names += inner
        else:
            return None
    return names


@functools.lru_cache(maxsize=4096)
def _names_in_string(text: str) -> tuple[str, ...] | None:
    """The names a string would resolve as a forward reference (none if it does not parse)."""
    if text.isidentifier():
        return (text,)
    try:
        parsed = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    found = written_names(parsed)
    return tuple(found) if found is not None else None


def expression_text(expr: ast.expr) -> str:
    """``expr`` as written (``ast.unparse``), cut to a length a message can quote."""
    try:
        text = ast.unparse(expr)
    except (RecursionError, ValueError):
        text = ""
    if not text:
        return "<expression>"
    return text if len(text) <= _QUOTED else text[: _QUOTED - 3] + "..."


def not_computed(value: object) -> bool:
    """Whether a value read is one the static side could not compute (nothing written can hold it)."""
    return isinstance(value, (Opaque, Unreadable))


def default_of(value: object) -> Default:
    """The runtime's ``_default`` on a value read from the source."""
    if isinstance(value, Unreadable):
        return UNREADABLE_DEFAULT
    if isinstance(value, Opaque):
        return OPAQUE_DEFAULT
    if value is None:
        return NONE_DEFAULT
    if isinstance(value, EnumValue):
        return Default.of(value.member if value.wire is None else value.wire)
    if type(value) in (str, bool):
        assert isinstance(value, (str, bool))
        return Default.of(value)
    if type(value) in (int, float):
        assert isinstance(value, (int, float))
        return Default.of(value) if writable_number(value) else OPAQUE_DEFAULT
    return OPAQUE_DEFAULT


def read_default(expr: ast.expr | None, resolve: Resolve) -> Default:
    """The default ``expr`` gives; an unreadable one names the expression (its OLT014 quotes it)."""
    if expr is None:
        return NO_DEFAULT
    found = default_of(read_constant(expr, resolve))
    if found.state == "unreadable":
        return Default("unreadable", expression=expression_text(expr))
    return found


def field_value(value: ast.expr | None, is_field_call: Callable[[ast.expr], bool], resolve: Resolve) -> Default:
    """A dataclass field's default: ``= v``, ``= field(default=v)``, ``= field(default_factory=f)``."""
    if value is None:
        return NO_DEFAULT
    if isinstance(value, ast.Call) and is_field_call(value.func):
        for kw in value.keywords:
            if kw.arg == "default":
                return read_default(kw.value, resolve)
            if kw.arg == "default_factory":
                return OPAQUE_DEFAULT
        return NO_DEFAULT
    return read_default(value, resolve)


# -- Annotated metadata ----------------------------------------------------------------


def _not_computed_marker(call: ast.Call, text: str) -> Marker:
    """An argument (``text``, as written) the source does not let us compute: OLT014 naming it."""
    plural = "s" if text.startswith("*") else ""
    return refusal(not_computed_text(f"the argument{plural} {text!r} of {expression_text(call.func)}"), NOT_COMPUTED)


def _bind_args(call: ast.Call, params: tuple[Param, ...], resolve: Resolve) -> tuple[object, ...] | Marker | None:
    """Constructor arguments in signature order, read as constants; a ``NOT_COMPUTED`` refusal
    for one the source does not let us compute; None if they do not fit the signature."""
    for a in call.args:
        if isinstance(a, ast.Starred):
            return _not_computed_marker(call, expression_text(a))
    for k in call.keywords:
        if k.arg is None:
            return _not_computed_marker(call, "**" + expression_text(k.value))
    if len(call.args) > len(params):
        return None
    exprs: dict[str, ast.expr] = {}
    for p, arg in zip(params, call.args):
        exprs[p.name] = arg
    names = {p.name for p in params}
    for kw in call.keywords:
        assert kw.arg is not None
        if kw.arg in exprs or kw.arg not in names:
            return None
        exprs[kw.arg] = kw.value
    values: list[object] = []
    for p in params:
        if p.name in exprs:
            value = read_constant(exprs[p.name], resolve)
            if isinstance(value, (Opaque, Unreadable)):
                return _not_computed_marker(call, expression_text(exprs[p.name]))
            values.append(value)
        elif p.default is REQUIRED:
            return None
        else:
            values.append(p.default)
    return tuple(values)


def marker_from_call(fullname: str, call: ast.Call, resolve: Resolve) -> Marker | None:
    """The marker for ``Description("...")`` and friends, read through the marker table's
    row for ``fullname``, its arguments by the row's signature (as the runtime reads the
    object's attributes).

    None for metadata onellm does not know (the runtime ignores it too), and for a call
    whose arguments do not fit the signature (the runtime's call raises). An argument the
    source does not let us compute gives a ``NOT_COMPUTED`` refusal (OLT014).
    """
    spec = spec_for_call(fullname)
    if spec is None:
        return None
    values = _bind_args(call, spec.signature, resolve)
    if values is None or isinstance(values, Marker):
        return values
    return spec.reading(values)


#: The full name a ``Field(...)`` call resolves to.
FIELD_FUNCTION = "pydantic.fields.Field"


def _not_computed(name: str, expr: ast.expr | None = None) -> Marker:
    what = f"Field({name}=)" if expr is None else f"Field({name}=) {expression_text(expr)!r}"
    return refusal(not_computed_text(what), NOT_COMPUTED)


def field_call_arguments(
    call: ast.Call, resolve: Resolve, class_named: ClassNamed | None = None
) -> tuple[dict[str, object], tuple[Marker, ...]]:
    """A ``Field(...)`` call's arguments by name, as ``core.fields.read_field`` takes them
    (the first positional argument is ``default``; ``...`` stays ``Ellipsis``: no default;
    ``default_factory`` is kept as its expression, never called), and an OLT014 marker for
    each argument whose value cannot be computed. A default that names a class
    (``class_named``) is handed on as ``fields.NamedClass``, as the runtime hands the class."""
    arguments: dict[str, object] = {}
    problems: list[Marker] = []
    exprs: list[tuple[str, ast.expr]] = []
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred) or i > 0:
            problems.append(refusal("Field takes one positional argument, the default; name the others"))
            continue
        exprs.append(("default", arg))
    for kw in call.keywords:
        if kw.arg is None:
            problems.append(_not_computed("**"))
            continue
        exprs.append((kw.arg, kw.value))
    for name, expr in exprs:
        if name == "default_factory":
            arguments[name] = expr
            continue
        shown = class_named(expr) if class_named is not None and name == "default" else None
        if shown is not None:
            arguments[name] = fields.NamedClass(shown)
            continue
        value = read_constant(expr, resolve)
        if isinstance(value, Unreadable) or (isinstance(value, Opaque) and _sets_keyword(name)):
            if _sets_keyword(name) or name == "default":
                problems.append(_not_computed(name, expr))
                continue
        arguments[name] = value
    return arguments, tuple(problems)


def _sets_keyword(name: str) -> bool:
    return isinstance(fields.ARGUMENTS.get(name), MarkerSpec)


#: The name of the class an expression names (``int``, ``mod.Order``), else None.
ClassNamed = Callable[[ast.expr], "str | None"]


def field_from_call(call: ast.Call, resolve: Resolve, class_named: ClassNamed | None = None) -> fields.FieldReading:
    """A ``Field(...)`` call read as the runtime reads the ``FieldInfo`` it makes; the
    markers include the OLT014 ones for arguments the source does not let us compute."""
    arguments, problems = field_call_arguments(call, resolve, class_named)
    reading = fields.read_field(arguments)
    return dataclasses.replace(reading, markers=problems + reading.markers)


# -- what the static side reads, as a digest -------------------------------------------


def source_digest(ms: ModuleSource) -> str:
    """A digest of everything in a module the static side may read, function bodies left out.

    mypy's cache keeps analysed types, not ``Annotated`` metadata, docstrings or default
    values, so a change to those alone would not re-check the modules that use them. The
    plugin records this digest in the module's symbol table, which makes such a change a
    change of the module's interface, while an edit inside a function body (below its
    docstring) is not. Lines are hashed as written, so reformatting counts as a change.
    """
    import hashlib

    skipped: list[tuple[int, int]] = []

    def bodies(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                rest = stmt.body
                if rest and isinstance(rest[0], ast.Expr) and isinstance(rest[0].value, ast.Constant):
                    rest = rest[1:]
                if rest:
                    skipped.append((rest[0].lineno, rest[-1].end_lineno or rest[-1].lineno))
            elif isinstance(stmt, ast.ClassDef):
                bodies(stmt.body)
            else:  # if/for/while/with/try blocks at this level
                for name in ("body", "orelse", "finalbody"):
                    inner = getattr(stmt, name, None)
                    if isinstance(inner, list):
                        bodies(inner)
                for handler in getattr(stmt, "handlers", None) or ():
                    bodies(handler.body)

    bodies(ms.tree.body)
    lines = ms.data.split(b"\n")
    digest = hashlib.sha1()
    line = 1
    for start, end in sorted(skipped):
        if start > line:
            digest.update(b"\n".join(lines[line - 1 : start - 1]))
        line = max(line, end + 1)
    digest.update(b"\n".join(lines[line - 1 :]))
    return digest.hexdigest()
