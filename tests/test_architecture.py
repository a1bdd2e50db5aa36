"""The import rules of docs/architecture.md, read from the source with ``ast``.

Every module of ``onellm_runtime`` and ``onellm_mypy`` belongs to one part (a folder, or a public
module at the top), and each part's row says which other parts and which third-party packages it
may import. Imports are read wherever they are written (module level, inside functions, under
``if TYPE_CHECKING``), relative ones resolved, ``from package import submodule`` counted as the
submodule. Where today's code breaks a rule the pair is listed in ``EXCEPTIONS`` with its reason;
an exception no import needs any more fails too, so the table says exactly what the code does.
"""

from __future__ import annotations

import ast
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("onellm_runtime", "onellm_mypy")
FOLDERS = ("core", "front", "binding", "invoking", "providers", "locking", "cli", "mcp")

# The public modules at the top that hold plain definitions (markers, aliases, the context, results,
# error texts, provider names): every part may read them, and they import only one another.
LEAVES = frozenset(
    f"onellm_runtime.{name}" for name in ("annotations", "aliases", "context", "results", "errortext", "provider_names")
)


@dataclass(frozen=True)
class Rule:
    part: str
    may_import: frozenset[str]
    third_party: frozenset[str] = frozenset()


def _rule(part: str, parts: set[str], third_party: set[str] = set()) -> Rule:  # noqa: B006 (never mutated)
    return Rule(part, frozenset(parts), frozenset(third_party))


R = "onellm_runtime."
# One row per part: what it may import besides itself and the standard library.
RULES = {
    r.part: r
    for r in [
        # the tables' rows name the public classes the runtime meets (markers, sized integers)
        _rule(R + "core", {R + "annotations", R + "aliases"}, {"typing_extensions"}),
        *(_rule(leaf, set(LEAVES), {"typing_extensions"}) for leaf in sorted(LEAVES)),
        _rule(R + "front", {R + "core", *LEAVES}, {"typing_extensions"}),
        # the language server speaks the protocol with the standard library: mypy is its one dependency
        _rule("onellm_mypy", {R + "core", R + "aliases", R + "annotations"}, {"mypy"}),
        # the provider table's binding rules (which providers send null for "not given")
        _rule(R + "binding", {R + "core", R + "errortext", R + "provider_names"}, {"typing_extensions"}),
        _rule(R + "tool", {R + "core", R + "front", R + "binding", *LEAVES}, {"typing_extensions"}),
        _rule(R + "invoking", {R + "core", R + "binding", R + "tool", *LEAVES}, {"typing_extensions"}),
        # the tools offered together, one per name (what dispatch, the adapters and the server take)
        _rule(R + "toolset", {R + "core", R + "tool", *LEAVES}, {"typing_extensions"}),
        _rule(R + "providers", {R + "core", R + "invoking", R + "tool", R + "toolset", *LEAVES}),
        # the lock file, the schema differ, token estimates: schemas as JSON, and the adapters' forms
        _rule(R + "locking", {R + "core", R + "providers", *LEAVES}),
        # contract tests for a user's suite: refusal cases bound by the tool, a lock compared
        _rule(R + "testing", {R + "core", R + "binding", R + "locking", R + "tool", R + "toolset", *LEAVES}),
        # the MCP server adapter; the `mcp` extra brings the SDK (mcp_types, uvicorn, anyio come with it)
        _rule(
            R + "mcp",
            {"onellm_runtime", R + "invoking", R + "providers", R + "tool", R + "toolset", *LEAVES},
            {"mcp", "mcp_types", "uvicorn", "anyio"},
        ),
        # `import onellm_runtime`: the public API, re-exported (not the adapters, the server or the commands)
        _rule("onellm_runtime", {R + "tool", R + "toolset", R + "binding", R + "invoking", *LEAVES}),
        _rule(R + "__main__", {R + "cli"}),
        # the commands: everything, the static side included; nothing imports them (but the entry points)
        _rule(
            R + "cli",
            {
                "onellm_runtime",
                "onellm_mypy",
                R + "core",
                R + "front",
                R + "binding",
                R + "invoking",
                R + "providers",
                R + "locking",
                R + "tool",
                R + "toolset",
                R + "mcp",
                *LEAVES,
            },
        ),
    ]
}

# (importing module or package, imported part): where today's code breaks its row, and why.
EXCEPTIONS = {
    ("onellm_runtime.binding", R + "providers"): (
        "bind(..., provider=...) decodes a provider's re-encoded arguments with providers._decode"
    ),
    ("onellm_mypy.__main__", R + "cli"): "python -m onellm_mypy runs the onellm command",
    ("onellm_mypy.extract", "onellm_runtime"): "reads the package's directory for mypy_path (no names)",
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    line: int
    target: str  # the imported module, resolved


def _modules() -> dict[str, tuple[Path, bool]]:
    found: dict[str, tuple[Path, bool]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


MODULES = _modules()


def part_of(module: str) -> str:
    """The part (row of RULES) a module of either package belongs to."""
    parts = module.split(".")
    if parts[0] == "onellm_mypy":
        return "onellm_mypy"
    if len(parts) > 1 and parts[1] in FOLDERS:
        return f"onellm_runtime.{parts[1]}"
    return ".".join(parts[:2])


def imports_in(module: str, source: str) -> list[Import]:
    """The imports a module's source text makes, each resolved to the module it names."""
    is_package = MODULES[module][1]
    package = module.split(".") if is_package else module.split(".")[:-1]
    out: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [Import(module, node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.append(Import(module, node.lineno, sub if sub in MODULES else base))
    return out


@functools.cache
def imports_of(module: str) -> list[Import]:
    return imports_in(module, MODULES[module][0].read_text(encoding="utf-8"))


def _own(target: str) -> str | None:
    """The module of either package that an import names (a name inside one counts as the module)."""
    if target.split(".")[0] not in PACKAGES:
        return None
    while target not in MODULES:
        target = target.rsplit(".", 1)[0]
    return target


def _third_party(target: str) -> str | None:
    top = target.split(".")[0]
    if top in PACKAGES or top == "__future__" or top in sys.stdlib_module_names:
        return None
    return top


def test_every_module_belongs_to_a_row() -> None:
    assert sorted({part_of(m) for m in MODULES} - RULES.keys()) == []


def test_the_leaves_and_folders_are_all_on_disk() -> None:
    assert sorted(p for p in RULES if p not in {part_of(m) for m in MODULES}) == []


@pytest.mark.parametrize("part", sorted(RULES))
def test_part_imports_only_what_its_row_allows(part: str) -> None:
    rule = RULES[part]
    broken = []
    for module in sorted(m for m in MODULES if part_of(m) == part):
        for imp in imports_of(module):
            own = _own(imp.target)
            if own is not None:
                target_part = part_of(own)
                if target_part != part and target_part not in rule.may_import:
                    if _excepted(module, target_part) is None:
                        broken.append(f"{module}:{imp.line} imports {own} ({target_part})")
            elif (top := _third_party(imp.target)) is not None and top not in rule.third_party:
                broken.append(f"{module}:{imp.line} imports {top} (third-party)")
    assert broken == []


def _within(module: str, key: str) -> bool:
    return module == key or module.startswith(key + ".")


def _excepted(module: str, target_part: str) -> str | None:
    """The reason an import of ``target_part`` by ``module`` is allowed against its row, if listed."""
    for (key, target), reason in EXCEPTIONS.items():
        if target == target_part and _within(module, key):
            return reason
    return None


@pytest.mark.parametrize(("key", "target_part"), sorted(EXCEPTIONS))
def test_each_exception_is_still_needed(key: str, target_part: str) -> None:
    targets = {
        part_of(own)
        for module in MODULES
        if _within(module, key)
        for imp in imports_of(module)
        if (own := _own(imp.target)) is not None
    }
    assert target_part in targets
    assert target_part not in RULES[part_of(key)].may_import  # else the row already allows it


def test_nothing_imports_the_commands_but_the_entry_points() -> None:
    importers = sorted(
        module
        for module in MODULES
        if part_of(module) != R + "cli"
        for imp in imports_of(module)
        if (own := _own(imp.target)) is not None and part_of(own) == R + "cli"
    )
    assert importers == ["onellm_mypy.__main__", "onellm_runtime.__main__"]


def test_the_two_front_ends_never_import_each_other() -> None:
    crossings = sorted(
        f"{imp.module} imports {own}"
        for module in MODULES
        for imp in imports_of(module)
        if (own := _own(imp.target)) is not None and {part_of(module), part_of(own)} == {R + "front", "onellm_mypy"}
    )
    assert crossings == []


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("from .. import annotations as ann", "onellm_runtime.front.typing_front", "onellm_runtime.annotations"),
        ("from ..core.model import Param", "onellm_runtime.front.typing_front", "onellm_runtime.core.model"),
        ("from . import model", "onellm_runtime.core", "onellm_runtime.core.model"),
        ("from .. import __version__", "onellm_runtime.mcp._app", "onellm_runtime"),
        (
            "def f():\n    from ..providers._decode import D",
            "onellm_runtime.binding",
            "onellm_runtime.providers._decode",
        ),
        ("import onellm_runtime", "onellm_mypy.live", "onellm_runtime"),
        ("if TYPE_CHECKING:\n    from ..tool import Tool", "onellm_runtime.providers._common", "onellm_runtime.tool"),
    ],
)
def test_relative_and_function_level_imports_resolve(source: str, module: str, expected: str) -> None:
    """The reader's own rows: what an import statement written in a given module names."""
    assert [imp.target for imp in imports_in(module, source)] == [expected]


def test_the_rules_are_the_ones_docs_architecture_states() -> None:
    """Each part of the table is named in docs/architecture.md, and so is each exception's reason."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [p for p in RULES if f"`{_doc_name(p)}`" not in doc]
    missing += [reason for reason in EXCEPTIONS.values() if reason not in " ".join(doc.split())]
    assert missing == []


def _doc_name(part: str) -> str:
    """How docs/architecture.md names a part: ``core/``, ``tool.py``, ``onellm_mypy/``, ``__init__.py``."""
    if part == "onellm_mypy":
        return "onellm_mypy/"
    if part == "onellm_runtime":
        return "__init__.py"
    name = part.removeprefix(R)
    return f"{name}/" if name in FOLDERS else f"{name}.py"


def _is_type_checking(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:``: imports only the type checkers follow."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of a module that runs: all of it but the bodies of ``if TYPE_CHECKING:``."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        found.append(node)
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            pending += node.orelse
        else:
            pending += ast.iter_child_nodes(node)
    return found


@functools.cache
def run_time_imports_of(module: str) -> frozenset[str]:
    """The modules of either package that ``module`` imports when it runs (wherever the import is written)."""
    tree = ast.parse(MODULES[module][0].read_text(encoding="utf-8"))
    lines = {node.lineno for node in _run_time_nodes(tree) if isinstance(node, ast.Import | ast.ImportFrom)}
    return frozenset(
        own for imp in imports_of(module) if imp.line in lines and (own := _own(imp.target)) not in (None, module)
    )


def import_cycles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """One cycle, modules in import order, for each group of modules that import one another."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while (top := stack.pop()) != module:
                group.add(top)
            groups.append(group | {module})

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return [_a_cycle_through(sorted(group), graph) for group in groups if len(group) > 1]


def _a_cycle_through(group: list[str], graph: dict[str, frozenset[str]]) -> list[str]:
    """A shortest path in ``group`` from its first module back to itself (breadth first)."""
    start = group[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(graph[module] & set(group)):
                if target == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if target not in came_from:
                    came_from[target] = module
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle through {start}")


def test_no_import_cycle_at_run_time() -> None:
    """No module imports, when it runs, a module that imports it back (``if TYPE_CHECKING:`` aside)."""
    graph = {module: run_time_imports_of(module) for module in MODULES}
    assert [" -> ".join(cycle) for cycle in import_cycles(graph)] == []


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b", "a"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}, [["a", "b", "c", "a"]]),
        ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b", "a"], ["c", "d", "c"]]),
    ],
)
def test_import_cycles_are_named_in_order(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert sorted(import_cycles({m: frozenset(t) for m, t in graph.items()})) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from . import model", {"onellm_runtime.core.model"}),
        ("def f():\n    from . import rules", {"onellm_runtime.core.rules"}),
        ("if TYPE_CHECKING:\n    from .forms import Meta", set()),
        ("if typing.TYPE_CHECKING:\n    from .forms import Meta", set()),
        ("if TYPE_CHECKING:\n    pass\nelse:\n    from . import forms", {"onellm_runtime.core.forms"}),
    ],
)
def test_run_time_imports_leave_out_type_checking(source: str, expected: set[str]) -> None:
    tree = ast.parse(source)
    lines = {node.lineno for node in _run_time_nodes(tree) if isinstance(node, ast.Import | ast.ImportFrom)}
    found = {imp.target for imp in imports_in("onellm_runtime.core.markers", source) if imp.line in lines}
    assert found == expected


# -- the size of a module, and where names are resolved on the static side -------------------

#: A module's longest allowed length in lines: past it, a module holds more than one job.
MAX_LINES = 800


def test_no_module_is_over_the_line_limit() -> None:
    lengths = {module: len(path.read_text(encoding="utf-8").splitlines()) for module, (path, _) in MODULES.items()}
    assert {module: n for module, n in sorted(lengths.items()) if n > MAX_LINES} == {}


#: The static side's name resolver: the one module that asks what a name means where it is written.
RESOLVER = "onellm_mypy.names"
#: mypy's look-ups by name: a full name through the modules, a name in a symbol table.
SYMBOL_LOOKUPS = frozenset({"lookup_qualified", "lookup_fully_qualified", "lookup_fully_qualified_or_none"})
#: The source index's answers about a name (``source.ModuleSource``): what binds it, in a module,
#: a class body or a function's body, and whether only ``if TYPE_CHECKING:`` does.
BINDING_READS = frozenset({"class_bindings", "body_bindings", "type_checking_only"})


def name_reads(source: str) -> list[tuple[int, str]]:
    """Where a module's source resolves a name itself: each mypy look-up by name (a call of
    ``SYMBOL_LOOKUPS``, ``<table>.names.get(...)``, an import of ``mypy.lookup``) and each read
    of the source's bindings (``BINDING_READS``, ``<source>.bindings.get(...)``), as (line, what)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "mypy.lookup":
            found.append((node.lineno, "mypy.lookup"))
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in SYMBOL_LOOKUPS or name in BINDING_READS:
            found.append((node.lineno, name))
        elif (
            name == "get"
            and isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Attribute)
            and func.value.attr in ("names", "bindings")
        ):
            found.append((node.lineno, f"{func.value.attr}.get"))
    return found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("sym = self.lookup_fully_qualified(fullname)", [(1, "lookup_fully_qualified")]),
        ("from mypy.lookup import lookup_fully_qualified", [(1, "mypy.lookup")]),
        ("x = api.lookup_qualified(name, ctx)", [(1, "lookup_qualified")]),
        ("found = file.names.get(name)", [(1, "names.get")]),
        ("b = ms.bindings.get(name, [])", [(1, "bindings.get")]),
        ("b = src.body_bindings(fn.body)", [(1, "body_bindings")]),
        ("if ms.type_checking_only(name):\n    pass", [(1, "type_checking_only")]),
        ("del file.names[name]\nfile.names[name] = node\nrows = info.names.items()", []),
        ("value = memo.get(key)\nfound = self.lookup(expr, scope)", []),
    ],
)
def test_name_reads_are_found_where_written(source: str, expected: list[tuple[int, str]]) -> None:
    """The reader's own rows: which statements count as resolving a name."""
    assert name_reads(source) == expected


def test_only_the_name_resolver_resolves_names() -> None:
    """Every static module asks ``names.NameResolver`` what a name means; only the resolver reads
    mypy's symbol tables by name, and only it (besides ``source``, which indexes them) the bindings."""
    found = []
    for module, (path, _) in sorted(MODULES.items()):
        if part_of(module) != "onellm_mypy" or module == RESOLVER:
            continue
        for line, what in name_reads(path.read_text(encoding="utf-8")):
            if module == "onellm_mypy.source" and (what in BINDING_READS or what == "bindings.get"):
                continue  # the index itself: where bindings are collected and answered
            found.append(f"{module}:{line} {what}")
    assert found == []


def test_the_name_resolver_is_where_the_static_side_reads_names() -> None:
    """The resolver holds the reads the rule above keeps out of every other module."""
    reads = {what for _, what in name_reads(MODULES[RESOLVER][0].read_text(encoding="utf-8"))}
    assert reads >= {"mypy.lookup", "lookup_fully_qualified", "names.get", "bindings.get", "type_checking_only"}
