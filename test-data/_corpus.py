"""Readers of the corpus shared by the runtime and the static tests (see README.md).

Only the standard library and ``onellm_runtime`` are used, so the mypy side can import the
expectation readers without running any corpus module.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import io
import re
import sys
import tokenize
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

__all__ = [
    "HERE",
    "Expectation",
    "ToolSpan",
    "Collected",
    "valid_modules",
    "needs_newer_python",
    "needs_missing_package",
    "invalid_modules",
    "expectations",
    "tool_spans",
    "load_module",
    "collect_runtime",
    "manifest",
    "golden_path",
]

HERE = Path(__file__).resolve().parent

_EXPECT = re.compile(r"#\s*expect(?P<side>-static|-runtime)?:\s*(?P<codes>OLT\d{3}(?:[\s,]+OLT\d{3})*)")


_NEEDS_PYTHON = re.compile(r"_py3(?P<minor>\d+)$")


def needs_newer_python(stem: str) -> bool:
    """Whether a module named ``..._py3NN`` needs a newer Python than this one (``enum.StrEnum``
    is new in 3.11): such a module and its golden are left out here."""
    m = _NEEDS_PYTHON.search(stem)
    return m is not None and sys.version_info < (3, int(m.group("minor")))


#: The optional packages a corpus module may import (``import x`` / ``from x import``).
_OPTIONAL = re.compile(r"^(?:from|import) (pydantic|annotated_types)\b", re.M)


def needs_missing_package(path: Path) -> bool:
    """Whether a module imports an optional package this environment lacks (the runtime-alone
    runs on the other Pythons have neither pydantic nor annotated_types): it is left out there,
    and runs wherever the dev extra is installed."""
    return any(
        importlib.util.find_spec(name) is None for name in _OPTIONAL.findall(path.read_text(encoding="utf-8"))
    )


def valid_modules() -> list[Path]:
    return sorted(
        p for p in HERE.glob("valid_*.py") if not needs_newer_python(p.stem) and not needs_missing_package(p)
    )


def invalid_modules() -> list[Path]:
    return sorted(p for p in HERE.glob("invalid_*.py") if not needs_missing_package(p))


def golden_path(module: Path) -> Path:
    return HERE / "golden" / f"{module.stem}.json"


@dataclass
class Expectation:
    """The codes expected at one line, by side."""

    static: list[str] = field(default_factory=list)
    runtime: list[str] = field(default_factory=list)


def expectations(path: Path) -> dict[int, Expectation]:
    """``{line: Expectation}`` from the ``# expect...:`` comments of one module."""
    out: dict[int, Expectation] = {}
    source = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        m = _EXPECT.search(tok.string)
        if m is None:
            continue
        codes = re.findall(r"OLT\d{3}", m.group("codes"))
        entry = out.setdefault(tok.start[0], Expectation())
        side = m.group("side")
        if side != "-runtime":
            entry.static.extend(codes)
        if side != "-static":
            entry.runtime.extend(codes)
    return out


@dataclass(frozen=True)
class ToolSpan:
    """Where one decorated definition lies: its qualname, first decorator line, last line."""

    qualname: str
    first: int
    last: int


def _decorated_with_tool(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Name) and target.id == "tool":
            return True
        if isinstance(target, ast.Attribute) and target.attr == "tool":
            return True
    return False


def tool_spans(path: Path) -> list[ToolSpan]:
    """Every ``@tool``-decorated definition at module level or in a module-level class."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spans: list[ToolSpan] = []

    def span(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, qualname: str) -> ToolSpan:
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        return ToolSpan(qualname, first, node.end_lineno or node.lineno)

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _decorated_with_tool(node):
            spans.append(span(node, node.name))
        elif isinstance(node, ast.ClassDef):
            if _decorated_with_tool(node):
                spans.append(span(node, node.name))
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _decorated_with_tool(item):
                    spans.append(span(item, f"{node.name}.{item.name}"))
    return spans


def load_module(path: Path) -> types.ModuleType:
    """Import one corpus module under its file stem (records need ``sys.modules`` to resolve)."""
    name = path.stem
    loaded = sys.modules.get(name)
    if loaded is not None and getattr(loaded, "__file__", None) == str(path):
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


@dataclass
class Collected:
    """What the runtime raised while an invalid module ran: errors per tool qualname."""

    module: types.ModuleType | None = None
    errors: dict[str, list[Exception]] = field(default_factory=dict)
    tools: list[tuple[str, Any]] = field(default_factory=list)

    def add(self, qualname: str, error: Exception) -> None:
        self.errors.setdefault(qualname, []).append(error)


def collect_runtime(path: Path) -> Collected:
    """Run an invalid module with a ``tool`` that records ``ToolDefinitionError`` instead of raising.

    Errors are collected where a user would meet them: at decoration, at class creation
    (the descriptor's ``__set_name__``), on first use of a deferred tool (``.model``), and
    from ``tools_of`` on each module-level class (which is where a ``staticmethod`` or
    ``classmethod`` applied on top of ``@tool`` is found).
    """
    import onellm_runtime
    from onellm_runtime import Tool, ToolDefinitionError, tools_of

    real = onellm_runtime.tool
    found = Collected()

    class Probe(Tool):  # type: ignore[type-arg]
        """A real ``Tool`` whose class-creation errors are recorded, not raised."""

        def __set_name__(self, owner: type, attr: str) -> None:
            try:
                super().__set_name__(owner, attr)
            except ToolDefinitionError as e:
                found.add(self.__qualname__, e)

    spans = tool_spans(path)

    def apply(fn: Any, options: dict[str, Any], line: int) -> Any:
        inner = getattr(fn, "__func__", fn)
        qualname = str(getattr(inner, "__qualname__", None) or getattr(getattr(inner, "fget", None), "__qualname__", "?"))
        if qualname.endswith("_overload_dummy"):  # typing.overload's placeholder: find the stub by line
            qualname = next((s.qualname for s in spans if s.first <= line <= s.last), qualname)
        try:
            made = real(**options)(fn) if options else real(fn)
        except ToolDefinitionError as e:
            found.add(qualname, e)
            return fn
        if isinstance(made, Tool):
            made.__class__ = Probe
            found.tools.append((qualname, made))
        return made

    def collecting_tool(fn: Any = None, /, **options: Any) -> Any:
        line = sys._getframe(1).f_lineno
        if fn is not None:
            return apply(fn, {}, line)
        return lambda f: apply(f, options, line)

    name = path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    onellm_runtime.tool = collecting_tool  # type: ignore[assignment]
    try:
        spec.loader.exec_module(module)
    finally:
        onellm_runtime.tool = real
    found.module = module
    for qualname, made in found.tools:
        if qualname in found.errors:
            continue
        try:
            made.model
        except ToolDefinitionError as e:
            found.add(qualname, e)
    for value in list(vars(module).values()):
        if isinstance(value, type) and value.__module__ == name:
            _collect_tools_of(value, found, tools_of, ToolDefinitionError)
    return found


def _collect_tools_of(cls: type, found: Collected, tools_of: Callable[[object], Any], error: type[Exception]) -> None:
    try:
        tools_of(cls)
    except error as e:
        message = str(e)
        # OLT007 carries the offending Tool as its loc; otherwise match the name the message starts with.
        loc = next((d.loc for d in getattr(e, "diagnostics", []) if d.loc is not None), None)
        qualname = getattr(loc, "__qualname__", None)
        if qualname is None:
            for attr, value in cls.__dict__.items():
                inner = getattr(value, "__func__", value)
                tool_name = getattr(inner, "name", None)
                if isinstance(tool_name, str) and message.startswith(f"Tool '{tool_name}':"):
                    qualname = getattr(inner, "__qualname__", f"{cls.__qualname__}.{attr}")
                    break
        qualname = qualname or cls.__qualname__
        if not any(str(prev) == message for prev in found.errors.get(qualname, [])):
            found.add(qualname, e)


def manifest(module: types.ModuleType) -> list[dict[str, Any]]:
    """The module's tools in source order, as the golden files write them."""
    from onellm_runtime import Tool

    tools: dict[int, Any] = {}
    for value in vars(module).values():
        if isinstance(value, Tool) and value.__module__ == module.__name__:
            tools[id(value)] = value
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attr in value.__dict__.values():
                if isinstance(attr, Tool):
                    tools[id(attr)] = attr
    ordered = sorted(tools.values(), key=lambda t: inspect.unwrap(t.fn).__code__.co_firstlineno)
    return [
        {
            "qualname": t.__qualname__,
            "name": t.name,
            "description": t.description,
            "input_schema": t.input_schema,
            "output_schema": t.output_schema,
            "ends_loop": t.ends_loop,
            "requires_approval": t.requires_approval,
            "parallel_safe": t.parallel_safe,
            "timeout_seconds": t.timeout_seconds,
        }
        for t in ordered
    ]
