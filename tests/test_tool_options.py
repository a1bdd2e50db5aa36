"""``ToolOptions``, the one declaration of the ``@tool(...)`` options, read alike on both sides.

The table below is the contract's list of options: each row an option, its default and a value
other than the default. Every row is checked on the runtime (``@tool(...)``, ``Tool.create``)
and on the static side (mypy reading the same source), and both must give the same
``ToolOptions``; the public signatures must spell exactly the dataclass's fields.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import inspect
import sys
from pathlib import Path
from typing import Any

import pytest

from onellm_mypy.extract import ExtractResult, extract
from onellm_runtime import Tool, tool
from onellm_runtime.cli.manifest import entry
from onellm_runtime.core.model import ToolModel
from onellm_runtime.core.options import DEFAULT_OPTIONS, MANIFEST_OPTIONS, OPTION_NAMES, ToolOptions

ROOT = Path(__file__).resolve().parent.parent

#: (option, its default, a value other than the default)
OPTIONS: list[tuple[str, object, object]] = [
    ("name", None, "custom_name"),
    ("description", None, "Told here."),
    ("ends_loop", False, True),
    ("requires_approval", False, True),
    ("parallel_safe", True, False),
    ("timeout_seconds", 0, 2.5),
    ("naming", None, "camelCase"),
    ("invocation_mode", "wait", "model_choice"),
]

#: (keywords, the exact ValueError text): values ``ToolOptions`` refuses.
REFUSED: list[tuple[dict[str, object], str]] = [
    ({"invocation_mode": "later"}, "invocation_mode must be 'wait' or 'model_choice', not 'later'"),
    ({"timeout_seconds": -1}, "timeout_seconds must be 0 (none) or more, not -1"),
    ({"timeout_seconds": -0.5}, "timeout_seconds must be 0 (none) or more, not -0.5"),
    (
        {"invocation_mode": "later", "timeout_seconds": -1},
        "invocation_mode must be 'wait' or 'model_choice', not 'later'",
    ),
]


def _body(i: int) -> str:
    return f'    """Tool {i}."""\n    return str(x)\n'


def _module_source() -> str:
    """One tool per row given by keyword, one by ``Tool.create`` with the value in its
    positional place, a bare tool, and one per refused value (read statically only)."""
    lines = ["from onellm_runtime import Tool, tool", "", ""]
    lines += ["@tool", "def bare(x: int) -> str:", _body(0), ""]
    for i, (option, _, value) in enumerate(OPTIONS, 1):
        lines += [f"@tool({option}={value!r})", f"def by_keyword_{i}(x: int) -> str:", _body(i), ""]
        lines += [f"def by_position_{i}(x: int) -> str:", _body(i), ""]
        position = ", ".join([repr(d) for _, d, _ in OPTIONS[: i - 1]] + [repr(value)])
        lines += [f"created_{i} = Tool.create(by_position_{i}, {position})", ""]
    return "\n".join(lines) + "\n"


def _refused_source() -> str:
    lines = ["from onellm_runtime import tool", ""]
    for i, (given, _) in enumerate(REFUSED):
        args = ", ".join(f"{k}={v!r}" for k, v in given.items())
        lines += [f"@tool({args})", f"def refused_{i}(x: int) -> str:", _body(i), ""]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Tool[..., Any]], ExtractResult]:
    """The runtime's tools of the module (by qualname) and mypy's reading of it and of the
    module of refused values: one mypy build."""
    root = tmp_path_factory.mktemp("options")
    (root / "option_rows.py").write_text(_module_source())
    (root / "option_refused.py").write_text(_refused_source())
    spec = importlib.util.spec_from_file_location("option_rows", root / "option_rows.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["option_rows"] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["option_rows"]
    runtime = {v.__qualname__: v for v in vars(module).values() if isinstance(v, Tool)}
    return runtime, extract([str(root)])


def _static(result: ExtractResult, module: str, qualname: str) -> ToolModel:
    (found,) = [t.model for t in result.tools if (t.module, t.qualname) == (module, qualname)]
    return found


def test_the_table_is_every_option_with_its_default() -> None:
    assert [option for option, _, _ in OPTIONS] == list(OPTION_NAMES)
    defaults = {f.name: f.default for f in dataclasses.fields(ToolOptions)}
    assert [(option, default, type(default)) for option, default, _ in OPTIONS] == [
        (name, value, type(value)) for name, value in defaults.items()
    ]
    assert ToolOptions() == DEFAULT_OPTIONS
    assert MANIFEST_OPTIONS == ("ends_loop", "requires_approval", "parallel_safe", "timeout_seconds")


def _dataclass_spelling() -> list[tuple[str, str, object]]:
    return [(f.name, str(f.type), f.default) for f in dataclasses.fields(ToolOptions)]


def test_tool_create_spells_exactly_the_options() -> None:
    params = list(inspect.signature(Tool.create).parameters.values())[1:]  # after fn
    assert [(p.name, p.annotation, p.default) for p in params] == _dataclass_spelling()
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)


def test_the_decorator_overload_spells_exactly_the_options() -> None:
    tree = ast.parse((ROOT / "onellm_runtime" / "tool.py").read_text())
    (decorator,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "_ToolDecorator"]
    overloads = [n for n in decorator.body if isinstance(n, ast.FunctionDef) and n.decorator_list]
    with_options = [o.args for o in overloads if o.args.kwonlyargs]
    assert len(with_options) == 1
    args = with_options[0]
    spelled = [
        (a.arg, ast.unparse(a.annotation) if a.annotation else "", ast.literal_eval(d) if d is not None else None)
        for a, d in zip(args.kwonlyargs, args.kw_defaults)
    ]
    assert spelled == _dataclass_spelling()


@pytest.mark.parametrize(("option", "default", "value"), OPTIONS, ids=[row[0] for row in OPTIONS])
def test_an_option_given_reads_the_same_on_both_sides(
    sides: tuple[dict[str, Tool[..., Any]], ExtractResult], option: str, default: object, value: Any
) -> None:
    runtime, static = sides
    i = [row[0] for row in OPTIONS].index(option) + 1
    expected = ToolOptions(**{option: value})
    for qualname in (f"by_keyword_{i}", f"by_position_{i}"):
        runtime_model, static_model = runtime[qualname].model, _static(static, "option_rows", qualname)
        assert (runtime_model.options, static_model.options) == (expected, expected), qualname
        assert entry("option_rows", qualname, runtime_model) == entry("option_rows", qualname, static_model)
    assert getattr(runtime[f"by_keyword_{i}"].model.options, option) == value != default


def test_no_option_given_is_the_shared_default_on_both_sides(
    sides: tuple[dict[str, Tool[..., Any]], ExtractResult],
) -> None:
    runtime, static = sides
    assert runtime["bare"].model.options is DEFAULT_OPTIONS
    assert "options" not in vars(runtime["bare"].model)  # the model stores nothing for it
    assert _static(static, "option_rows", "bare").options == DEFAULT_OPTIONS


def _ping() -> str:
    return "pong"


@pytest.mark.parametrize(
    "make",
    [
        lambda: Tool.create(_ping),
        lambda: tool(_ping),
        lambda: tool()(_ping),
        lambda: tool(timeout_seconds=0, invocation_mode="wait")(_ping),
        lambda: Tool.create(_ping, None, None, False, False, True, 0, None, "wait"),
    ],
    ids=["create", "bare", "empty-call", "defaults-spelled", "create-positional"],
)
def test_the_defaults_given_in_any_way_are_shared(make: Any) -> None:
    assert make().model.options is DEFAULT_OPTIONS


@pytest.mark.parametrize(("given", "kept"), [({"timeout_seconds": 0.0}, 0.0), ({"ends_loop": 0}, 0)])
def test_a_value_equal_to_a_default_but_of_another_type_is_kept(given: dict[str, Any], kept: object) -> None:
    options = Tool.create(_ping, **given).model.options
    assert options is not DEFAULT_OPTIONS and options == DEFAULT_OPTIONS
    (value,) = [getattr(options, k) for k in given]
    assert (value, type(value)) == (kept, type(kept))


@pytest.mark.parametrize(("given", "message"), REFUSED, ids=[str(i) for i in range(len(REFUSED))])
def test_a_refused_value_is_refused_with_its_text(given: dict[str, Any], message: str) -> None:
    for make in (lambda: tool(**given)(_ping), lambda: Tool.create(_ping, **given), lambda: ToolOptions(**given)):
        with pytest.raises(ValueError) as raised:
            make()
        assert str(raised.value) == message


@pytest.mark.parametrize("i", range(len(REFUSED)))
def test_the_static_side_keeps_the_default_for_a_refused_value(
    sides: tuple[dict[str, Tool[..., Any]], ExtractResult], i: int
) -> None:
    """Documented: an option the static side cannot take keeps its default there (the runtime
    raises at import)."""
    _, static = sides
    assert _static(static, "option_refused", f"refused_{i}").options == DEFAULT_OPTIONS


def test_options_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_OPTIONS.name = "x"  # type: ignore[misc]
    assert repr(DEFAULT_OPTIONS) == (
        "ToolOptions(name=None, description=None, ends_loop=False, requires_approval=False, parallel_safe=True, "
        "timeout_seconds=0, naming=None, invocation_mode='wait')"
    )


def test_a_misspelt_option_is_named_with_its_spelling() -> None:
    with pytest.raises(TypeError) as raised:  # a ToolDefinitionError (OLT001), as the plugin reports it
        tool(nme="x")(_ping)  # type: ignore[call-overload]
    assert str(raised.value) == "Tool '_ping': @tool has no option 'nme'; did you mean name?  [OLT001]"
    with pytest.raises(TypeError) as raised:
        Tool.create(_ping, nme="x")  # type: ignore[call-arg]
    assert str(raised.value) == "Tool.create() got an unexpected keyword argument 'nme'"
