"""Tools ported from other tool libraries (``test-data/ported/``, see its README).

Both sides over the same modules, each read as a user would read it:

- every ``valid_*`` tool: the runtime's manifest entry equals the hand-written golden field by
  field (``json.dumps`` bytes), the static side's equals the runtime's, and neither side reports
  anything;
- every description and bound each author wrote is in the tool's schema (``ported_items``);
- every ``invalid_*`` module: both sides report the codes its ``# expect:`` comments name, at
  those lines, with messages that name what the README says;
- ``first_try.py``: every item written (each ``Annotated`` item, each default, each ``Field``
  argument, each ``@tool`` option, each line of a tool's docstring, in the tools and in the models
  they use) either changes the runtime's schema or description when it is taken out of the
  source, or is reported at its line, never neither;
  and the static side agrees with the runtime on everything it accepts.
"""

from __future__ import annotations

import ast
import functools
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from ported_items import BY_MODULE, EXACT_MESSAGES, REFUSED_NAMES

from onellm_runtime.cli import manifest as manifest_entries

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test-data"
PORTED = CORPUS / "ported"
for _path in (PORTED, CORPUS):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import _corpus  # noqa: E402

pytest.importorskip("pydantic")
pytest.importorskip("annotated_types")

VALID = sorted(PORTED.glob("valid_*.py"))
INVALID = sorted(PORTED.glob("invalid_*.py"))
FIRST_TRY = PORTED / "first_try.py"
FIELDS = ("qualname", "name", "description", "input_schema", "output_schema")
#: The contract's static-only code: the runtime has the value the source does not show.
STATIC_ONLY = frozenset({"OLT014"})


def _golden(module: Path) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((PORTED / "golden" / f"{module.stem}.json").read_text(encoding="utf-8"))
    return data


@functools.lru_cache(maxsize=1)
def _static() -> Any:
    from onellm_mypy.extract import extract

    return extract([str(p) for p in [*VALID, *INVALID, FIRST_TRY]])


def _static_entries(stem: str) -> dict[str, dict[str, Any]]:
    return {
        t.qualname: manifest_entries.entry(t.module, t.qualname, t.model) for t in _static().tools if t.module == stem
    }


def _static_findings(module: Path) -> Counter[tuple[int, str]]:
    return Counter((d.line, d.code) for d in _static().diagnostics if Path(d.path).resolve() == module.resolve())


def _static_messages(module: Path, line: int) -> list[str]:
    return [d.message for d in _static().diagnostics if Path(d.path).resolve() == module.resolve() and d.line == line]


@functools.cache
def _collected(module: Path) -> _corpus.Collected:
    return _corpus.collect_runtime(module)


def _runtime_findings(module: Path) -> dict[str, list[Any]]:
    """Each refused tool's findings, by qualname."""
    return {q: [d for e in errors for d in e.diagnostics] for q, errors in _collected(module).errors.items()}


def _spans(module: Path) -> list[_corpus.ToolSpan]:
    return _corpus.tool_spans(module)


def _parameter_lines(module: Path) -> dict[tuple[str, str], int]:
    """(tool qualname, parameter name) -> the line the parameter is written on."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    out: dict[tuple[str, str], int] = {}
    for node in tree.body:
        funcs: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            funcs += [
                (f"{node.name}.{f.name}", f)
                for f in node.body
                if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            ]
        for qualname, f in funcs:
            for a in [*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs]:
                out[(qualname, a.arg)] = a.lineno
            out[(qualname, "")] = f.lineno
    return out


def _runtime_line_findings(module: Path) -> Counter[tuple[int, str]]:
    """Runtime findings placed on lines: the named parameter's line, else the def line."""
    import re

    lines = _parameter_lines(module)
    found: Counter[tuple[int, str]] = Counter()
    for qualname, findings in _runtime_findings(module).items():
        for d in findings:
            named = re.search(r"Parameter '([^']+)'", d.message)
            found[(lines[(qualname, named.group(1) if named else "")], d.code)] += 1
    return found


def _expected(module: Path, side: str) -> Counter[tuple[int, str]]:
    return Counter((line, code) for line, exp in _corpus.expectations(module).items() for code in getattr(exp, side))


# --- valid modules: goldens, static = runtime, no findings ------------------------------


def _valid_cases() -> list[Any]:
    return [
        pytest.param(module, entry, id=f"{module.stem}:{entry['qualname']}")
        for module in VALID
        for entry in _golden(module)
    ]


def test_the_ported_corpus_has_forty_accepted_tools_in_five_peers_habits() -> None:
    assert len([m for m in VALID if not m.stem.startswith("valid_docstrings")]) == 7 and len(INVALID) == 6
    assert sum(len(_golden(m)) for m in VALID) >= 40


@pytest.mark.parametrize("module", VALID, ids=lambda p: p.stem)
def test_a_valid_ported_module_imports_and_lists_exactly_its_golden_tools(module: Path) -> None:
    tools = _corpus.manifest(_corpus.load_module(module))
    assert [t["qualname"] for t in tools] == [g["qualname"] for g in _golden(module)]


@pytest.mark.parametrize(("module", "expected"), _valid_cases())
def test_a_ported_tool_matches_its_hand_written_golden_on_the_runtime(module: Path, expected: dict[str, Any]) -> None:
    actual = {t["qualname"]: t for t in _corpus.manifest(_corpus.load_module(module))}[expected["qualname"]]
    for field in FIELDS:
        assert json.dumps(actual[field]) == json.dumps(expected[field]), field


@pytest.mark.parametrize(("module", "expected"), _valid_cases())
def test_a_ported_tool_has_the_same_bytes_on_the_static_side(module: Path, expected: dict[str, Any]) -> None:
    static = _static_entries(module.stem)
    assert expected["qualname"] in static
    for field in FIELDS:
        assert json.dumps(static[expected["qualname"]][field]) == json.dumps(expected[field]), field


@pytest.mark.parametrize("module", VALID, ids=lambda p: p.stem)
def test_neither_side_reports_anything_in_a_valid_ported_module(module: Path) -> None:
    assert _static_findings(module) == Counter()
    assert _runtime_findings(module) == {}


# --- what each author wrote is in the schema --------------------------------------------


def _place(entry: dict[str, Any], where: str) -> tuple[Any, Any, str | None]:
    """The fragment at ``where``, the object schema holding it, and its property name."""
    if where == "tool":
        return entry, None, None
    head, _, rest = where.partition(".")
    node: Any = entry["input_schema"] if head == "in" else entry["output_schema"]
    if head.startswith("out") and head.endswith("[]"):
        node = node["items"]
    parent: Any = None
    name: str | None = None
    for step in [s for s in rest.split(".") if s]:
        items = step.endswith("[]")
        step = step.removesuffix("[]")
        holder = _object_with(node, step)
        parent, name, node = holder, step, holder["properties"][step]
        if items:
            node = _unwrapped(node)["items"]
    return node, parent, name


def _unwrapped(node: Any) -> Any:
    """A nullable fragment's non-null branch (``anyOf`` with ``{"type":"null"}``)."""
    if "anyOf" in node and "items" not in node:
        for branch in node["anyOf"]:
            if branch.get("type") != "null":
                return branch
    return node


def _object_with(node: Any, name: str) -> Any:
    if "properties" in node and name in node["properties"]:
        return node
    for branch in node.get("anyOf", []):
        if "properties" in branch and name in branch["properties"]:
            return branch
    if "items" in node:
        return _object_with(node["items"], name)
    raise AssertionError(f"no property {name!r} in {json.dumps(node)[:300]}")


def _names_below(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties":
                found.update(value)
            found |= _names_below(value)
    elif isinstance(node, list):
        for value in node:
            found |= _names_below(value)
    return found


def _item_cases() -> list[Any]:
    return [
        pytest.param(stem, *row, id=f"{stem}:{row[0]}:{row[1]}:{row[2]}")
        for stem, rows in BY_MODULE.items()
        for row in rows
    ]


@pytest.mark.parametrize(("stem", "qualname", "where", "keyword", "value"), _item_cases())
def test_what_the_author_wrote_is_in_the_schema(stem: str, qualname: str, where: str, keyword: str, value: Any) -> None:
    module = PORTED / f"{stem}.py"
    entry = {t["qualname"]: t for t in _corpus.manifest(_corpus.load_module(module))}[qualname]
    node, parent, name = _place(entry, where)
    if keyword == "required":
        assert (name in parent.get("required", [])) is value
    elif keyword == "absent":
        assert value not in _names_below(node)
    elif keyword == "nullable":
        types = node.get("type")
        nullable = (isinstance(types, list) and "null" in types) or {"type": "null"} in node.get("anyOf", [])
        assert nullable is value
    else:
        assert keyword in node, json.dumps(node)
        assert json.dumps(node[keyword]) == json.dumps(value)


# --- refused habits ------------------------------------------------------------------------


@pytest.mark.parametrize("module", INVALID, ids=lambda p: p.stem)
def test_both_sides_report_the_expected_codes_at_the_expected_lines(module: Path) -> None:
    assert _static_findings(module) == _expected(module, "static")
    assert _runtime_line_findings(module) == _expected(module, "runtime")


def _named_cases() -> list[Any]:
    return [
        pytest.param(stem, line, words, id=f"{stem}:{line}")
        for stem, lines in REFUSED_NAMES.items()
        for line, words in lines.items()
    ]


@pytest.mark.parametrize(("stem", "line", "words"), _named_cases())
def test_a_refusal_names_what_was_written_and_the_fix(stem: str, line: int, words: tuple[str, ...]) -> None:
    module = PORTED / f"{stem}.py"
    static = _static_messages(module, line)
    assert any(all(w in m for w in words) for m in static), static
    if all(code in STATIC_ONLY for (at, code) in _expected(module, "static") if at == line):
        return  # the runtime has the value: nothing to report there
    lines = _parameter_lines(module)
    runtime = [
        d.message
        for q, findings in _runtime_findings(module).items()
        for d in findings
        if any(lines.get((q, p)) == line for p in _parameters_named(d.message))
    ]
    assert any(all(w in m for w in words) for m in runtime), runtime


def _exact_cases() -> list[Any]:
    return [
        pytest.param(stem, line, message, id=f"{stem}:{line}")
        for stem, lines in EXACT_MESSAGES.items()
        for line, message in lines.items()
    ]


@pytest.mark.parametrize(("stem", "line", "message"), _exact_cases())
def test_an_interop_refusal_is_worded_exactly_alike_on_both_sides(stem: str, line: int, message: str) -> None:
    module = PORTED / f"{stem}.py"
    assert _static_messages(module, line) == [message]
    lines = _parameter_lines(module)
    runtime = [
        d.message
        for q, findings in _runtime_findings(module).items()
        for d in findings
        if any(lines.get((q, p)) == line for p in _parameters_named(d.message))
    ]
    assert runtime == [message]


def test_every_interop_refusal_has_its_exact_message() -> None:
    for stem, lines in EXACT_MESSAGES.items():
        expected = _corpus.expectations(PORTED / f"{stem}.py")
        assert sorted(expected) == sorted(lines), stem


def _parameters_named(message: str) -> list[str]:
    import re

    return re.findall(r"Parameter '([^']+)'", message) or [""]


@pytest.mark.parametrize("module", [*INVALID, FIRST_TRY], ids=lambda p: p.stem)
def test_the_two_sides_word_each_shared_finding_alike(module: Path) -> None:
    static = sorted(
        d.message
        for d in _static().diagnostics
        if Path(d.path).resolve() == module.resolve() and d.code not in STATIC_ONLY
    )
    runtime = sorted(d.message for findings in _runtime_findings(module).values() for d in findings)
    assert static == runtime


# --- first try: every item is in the schema or reported, never neither ---------------------


def _tool_functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _corpus._decorated_with_tool(node):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _corpus._decorated_with_tool(item):
                    found.append((f"{node.name}.{item.name}", item))
    return found


def _is_call_of(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Call) and (
        (isinstance(expr.func, ast.Name) and expr.func.id == name)
        or (isinstance(expr.func, ast.Attribute) and expr.func.attr == name)
    )


def _annotated_items(annotation: ast.expr | None) -> list[ast.expr]:
    """The metadata of ``Annotated[T, ...]`` as written (a ``Field`` call is split into its arguments)."""
    if not (isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple)):
        return []
    head = annotation.value
    if not (isinstance(head, ast.Name) and head.id == "Annotated"):
        return []
    return list(annotation.slice.elts[1:])


Item = tuple[str, int, str]  # (tool qualname, line, description of the item)


def _items(tree: ast.Module) -> list[tuple[Item, Any]]:
    """Every item a user wrote, with a function that takes it out of a fresh copy of the tree."""
    out: list[tuple[Item, Any]] = []
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

    def walk_annotation(owner: str, path: list[Any], ann: ast.expr | None) -> None:
        for i, item in enumerate(_annotated_items(ann)):
            if _is_call_of(item, "Field"):
                assert isinstance(item, ast.Call)
                walk_call(owner, [*path, ("in_slice", i + 1)], item)
            else:
                out.append(((owner, item.lineno, ast.unparse(item)), [*path, ("slice", i + 1)]))

    def walk_call(owner: str, path: list[Any], call: ast.Call) -> None:
        for k, kw in enumerate(call.keywords):
            out.append(((owner, kw.value.lineno, f"{ast.unparse(call.func)}({kw.arg}=)"), [*path, ("keyword", k)]))
        for a, arg in enumerate(call.args):
            if isinstance(arg, ast.Constant) and arg.value is Ellipsis:
                continue  # `Field(...)`: "required", which is also what leaving it out means
            out.append(((owner, arg.lineno, f"{ast.unparse(call.func)}(<{a}>)"), [*path, ("arg", a)]))

    used: list[str] = []
    for qualname, fn in _tool_functions(tree):
        doc = _docstring_node(fn)
        if doc is not None:
            for k, text in enumerate(doc.value.split("\n")):
                if text.strip():  # each written line of the docstring
                    out.append(
                        ((qualname, doc.lineno + k, f"docstring: {text.strip()}"), [("fn", qualname), ("docline", k)])
                    )
        for d, dec in enumerate(fn.decorator_list):
            if isinstance(dec, ast.Call):
                for k, kw in enumerate(dec.keywords):
                    out.append(((qualname, dec.lineno, f"@tool({kw.arg}=)"), [("fn", qualname), ("decorator", d, k)]))
        args = fn.args.args
        defaults = fn.args.defaults
        first_default = len(args) - len(defaults)
        for i, a in enumerate(args):
            walk_annotation(qualname, [("fn", qualname), ("arg", i)], a.annotation)
            if isinstance(a.annotation, ast.Name) and a.annotation.id in classes:
                used.append(a.annotation.id)
            if i >= first_default:
                default = defaults[i - first_default]
                if _is_call_of(default, "Field"):
                    assert isinstance(default, ast.Call)
                    walk_call(qualname, [("fn", qualname), ("default", i - first_default)], default)
                elif i == len(args) - 1:  # only the last default can go (the rest would not parse)
                    out.append(
                        (
                            (qualname, a.lineno, f"{a.arg} = {ast.unparse(default)}"),
                            [("fn", qualname), ("drop_default", i - first_default)],
                        )
                    )
        walk_annotation(qualname, [("fn", qualname), ("returns",)], fn.returns)
        if isinstance(fn.returns, ast.Name) and fn.returns.id in classes:
            used.append(fn.returns.id)
        for cls_name in list(dict.fromkeys(used)):
            cls = classes[cls_name]
            for s, stmt in enumerate(cls.body):
                if isinstance(stmt, ast.AnnAssign):
                    field_path = [("class", cls_name), ("stmt", s)]
                    walk_annotation(qualname, [*field_path, ("annotation",)], stmt.annotation)
                    if stmt.value is not None and _is_call_of(stmt.value, "Field"):
                        assert isinstance(stmt.value, ast.Call)
                        walk_call(qualname, [*field_path, ("value",)], stmt.value)
        used.clear()
    return out


def _docstring_node(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Constant | None:
    first = fn.body[0] if fn.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first.value
    return None


def _remove(tree: ast.Module, path: list[Any]) -> None:
    """Take the item at ``path`` out of ``tree`` (in place)."""
    functions = dict(_tool_functions(tree))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    node: Any = None
    parent_set: Any = None
    for step in path:
        kind = step[0]
        if kind == "fn":
            node = functions[step[1]]
        elif kind == "class":
            node = classes[step[1]]
        elif kind == "stmt":
            node = node.body[step[1]]
        elif kind == "annotation":
            holder = node
            node = node.annotation
            parent_set = lambda value, holder=holder: setattr(holder, "annotation", value)  # noqa: E731
        elif kind == "value":
            node = node.value
        elif kind == "decorator":
            del node.decorator_list[step[1]].keywords[step[2]]
            return
        elif kind == "arg" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            holder = node.args.args[step[1]]
            node = holder.annotation
            parent_set = lambda value, holder=holder: setattr(holder, "annotation", value)  # noqa: E731
        elif kind == "returns":
            holder = node
            node = node.returns
            parent_set = lambda value, holder=holder: setattr(holder, "returns", value)  # noqa: E731
        elif kind == "default":
            node = node.args.defaults[step[1]]
        elif kind == "docline":
            doc = _docstring_node(node)
            assert doc is not None
            lines = doc.value.split("\n")
            del lines[step[1]]
            doc.value = "\n".join(lines)
            return
        elif kind == "drop_default":
            del node.args.defaults[step[1]]
            return
        elif kind == "in_slice":
            node = node.slice.elts[step[1]]
        elif kind == "slice":
            elts = node.slice.elts
            del elts[step[1]]
            if len(elts) == 1:  # Annotated[T] alone is not allowed: T
                parent_set(elts[0])
            return
        elif kind == "keyword":
            del node.keywords[step[1]]
            return
        elif kind == "arg":
            del node.args[step[1]]
            return
    raise AssertionError(path)


def _runtime_entries(path: Path) -> dict[str, str]:
    collected = _corpus.collect_runtime(path)
    entries: dict[str, str] = {}
    for qualname, made in collected.tools:
        if qualname not in collected.errors:
            entries[qualname] = json.dumps([made.name, made.description, made.input_schema, made.output_schema])
    return entries


@functools.lru_cache(maxsize=1)
def _first_try_items() -> list[tuple[Item, Any]]:
    return _items(ast.parse(FIRST_TRY.read_text(encoding="utf-8")))


def test_the_first_try_module_has_the_items_the_readme_lists() -> None:
    assert len(_first_try_items()) >= 28


def test_every_first_try_item_is_in_the_schema_or_reported_never_neither(tmp_path: Path) -> None:
    source = FIRST_TRY.read_text(encoding="utf-8")
    original = _runtime_entries(FIRST_TRY)
    static_lines = {line for line, _ in _static_findings(FIRST_TRY)}
    runtime_lines = {line for line, _ in _runtime_line_findings(FIRST_TRY)}
    # A refused tool's docstring is read by neither side: its refusal covers every line of it.
    refused = {
        s.qualname
        for s in _spans(FIRST_TRY)
        if s.qualname not in original and any(s.first <= at <= s.last for at in static_lines & runtime_lines)
    }
    neither: list[str] = []
    for n, ((qualname, line, what), path) in enumerate(_first_try_items()):
        reported = line in static_lines and (line in runtime_lines or qualname in original)
        if path[-1][0] == "docline":
            reported = qualname in refused
        tree = ast.parse(source)
        _remove(tree, path)
        variant = tmp_path / f"first_try_without_{n}.py"
        variant.write_text(ast.unparse(tree), encoding="utf-8")
        changed = qualname in original and _runtime_entries(variant).get(qualname) != original[qualname]
        if not (changed or reported):
            neither.append(f"line {line}: {qualname}: {what}")
    assert neither == []


def test_first_try_static_side_agrees_on_every_tool_it_accepts() -> None:
    static = _static_entries(FIRST_TRY.stem)
    golden = {g["qualname"]: g for g in _golden(FIRST_TRY)}
    reported = {
        q
        for q in golden
        for s in _spans(FIRST_TRY)
        if s.qualname == q
        for (line, _) in _static_findings(FIRST_TRY)
        if s.first <= line <= s.last
    }
    assert sorted(static) == sorted(set(golden) - reported)
    for qualname, entry in static.items():
        for field in FIELDS:
            assert json.dumps(entry[field]) == json.dumps(golden[qualname][field]), (qualname, field)


def test_first_try_runtime_accepts_exactly_the_golden_tools() -> None:
    entries = _runtime_entries(FIRST_TRY)
    golden = _golden(FIRST_TRY)
    assert sorted(entries) == sorted(g["qualname"] for g in golden)
    for g in golden:
        assert entries[g["qualname"]] == json.dumps(
            [g["name"], g["description"], g["input_schema"], g["output_schema"]]
        )
    assert _runtime_line_findings(FIRST_TRY) == _expected(FIRST_TRY, "runtime")
    assert _static_findings(FIRST_TRY) == _expected(FIRST_TRY, "static")
