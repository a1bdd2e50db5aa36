"""What the runtime reads back from source text (``onellm_runtime.front.sourcetext``).

typing caches ``Optional[...]``, ``Union[...]``, ``Annotated[...]`` and its generics by
argument equality and ``Literal`` equality ignores order, so each test
writes a module that evaluates one order of a value set before the other: without the
source, the second tool would get the first order. The corpus case is
test-data/valid_gen_literal_order.py; these pin the corners it does not reach.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

from onellm_runtime import Tool

_counter = 0


def _load(tmp_path: Path, source: str) -> types.ModuleType:
    global _counter
    _counter += 1
    name = f"sourcetext_case_{_counter}"
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _enum(tool: Any, *path: str) -> list[object]:
    assert isinstance(tool, Tool)
    node: Any = tool.input_schema["properties"]
    for key in path:
        node = node[key]
    return list(node["enum"])


def test_string_annotations_keep_each_order(tmp_path: Path) -> None:
    m = _load(
        tmp_path,
        """
        from __future__ import annotations
        from dataclasses import dataclass
        from typing import Optional, Literal
        from onellm_runtime import tool

        @dataclass
        class Pick:
            side: Optional[Literal["p", "q"]]
            other: Optional[Literal["q", "p"]] = None

        @tool
        def first(a: Optional[Literal["p", "q"]]) -> str:
            return ""

        @tool
        def second(a: Optional[Literal["q", "p"]], pick: Pick) -> str:
            return ""
        """,
    )
    m.first.input_schema  # noqa: B018 - evaluates the first order first
    assert _enum(m.first, "a") == ["p", "q", None]
    assert _enum(m.second, "a") == ["q", "p", None]
    assert _enum(m.second, "pick", "properties", "side") == ["p", "q", None]
    assert _enum(m.second, "pick", "properties", "other") == ["q", "p", None]


def test_a_generic_records_type_argument_is_read_where_it_was_written(tmp_path: Path) -> None:
    """The record is not cached by its (equal) type arguments, and a type variable used
    twice in it reads the one Literal written in the argument."""
    m = _load(
        tmp_path,
        """
        from dataclasses import dataclass
        from typing import Generic, List, Optional, Literal, TypeVar
        from onellm_runtime import tool

        T = TypeVar("T")

        @dataclass
        class Box(Generic[T]):
            value: T
            more: List[T]

        @tool
        def first(box: Box[Optional[Literal["s", "t"]]]) -> str:
            return ""

        @tool
        def second(box: Box[Optional[Literal["t", "s"]]]) -> str:
            return ""
        """,
    )
    assert _enum(m.first, "box", "properties", "value") == ["s", "t", None]
    assert _enum(m.second, "box", "properties", "value") == ["t", "s", None]
    assert _enum(m.second, "box", "properties", "more", "items") == ["t", "s", None]


def test_values_of_different_types_are_told_apart(tmp_path: Path) -> None:
    m = _load(
        tmp_path,
        """
        from typing import Optional, Literal
        from onellm_runtime import tool

        @tool
        def first(a: Optional[Literal[1, 2]], b: Optional[Literal["1", "2"]]) -> str:
            return ""

        @tool
        def second(a: Optional[Literal["2", "1"]], b: Optional[Literal[2, 1]]) -> str:
            return ""
        """,
    )
    assert _enum(m.first, "a") == [1, 2, None]
    assert _enum(m.second, "a") == ["2", "1", None]
    assert _enum(m.second, "b") == [2, 1, None]


_EXECED = textwrap.dedent(
    """
    from typing import Optional, Literal
    from onellm_runtime import tool

    @tool
    def first(a: Optional[Literal["u", "v"]]) -> str:
        return ""

    @tool
    def second(a: Optional[Literal["v", "u"]]) -> str:
        return ""
    """
)


def test_without_source_typings_order_is_kept() -> None:
    """``exec``'d code has no file to read: the schema is what typing hands out (documented)."""
    namespace: dict[str, Any] = {}
    exec(compile(_EXECED, "<string>", "exec", dont_inherit=True), namespace)
    assert _enum(namespace["second"], "a") == ["u", "v", None]


def test_a_string_annotation_is_its_own_source() -> None:
    """Under ``from __future__ import annotations`` the annotation is the text: no file needed."""
    namespace: dict[str, Any] = {}
    exec(compile("from __future__ import annotations\n" + _EXECED, "<string>", "exec", dont_inherit=True), namespace)
    assert _enum(namespace["first"], "a") == ["u", "v", None]
    assert _enum(namespace["second"], "a") == ["v", "u", None]


def test_the_common_path_reads_no_source() -> None:
    """Top-level Literals are the user's own objects, and no other annotation needs source."""
    code = textwrap.dedent(
        """
        import sys
        from typing import Literal, Optional
        from onellm_runtime import tool

        @tool
        def f(a: Literal["b", "a"], b: Optional[int], c: Optional[Literal["x"]]) -> str:
            return ""

        f.input_schema
        print("onellm_runtime.front.sourcetext" in sys.modules)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_typeddict_base_docstring_without_orig_bases(tmp_path: Path) -> None:
    """On 3.10/3.11 the subclass's bases are read from its class statement; on 3.12+ kept."""
    m = _load(
        tmp_path,
        """
        import typing
        from onellm_runtime import tool

        class Base(typing.TypedDict):
            '''A base.

            Attributes:
                key: The key.
            '''

            key: str

        class Child(Base):
            more: int

        @tool
        def use(child: Child) -> str:
            return ""
        """,
    )
    props = m.use.input_schema["properties"]["child"]["properties"]
    assert json.dumps(props) == json.dumps(
        {"key": {"type": "string", "description": "The key."}, "more": {"type": "integer"}}
    )


def test_names_are_followed_to_aliases_newtypes_and_generic_aliases(tmp_path: Path) -> None:
    m = _load(
        tmp_path,
        """
        from typing import Any, Dict, List, NewType, Optional, Literal, TypeVar, Union
        from onellm_runtime import tool

        T = TypeVar("T")
        Table = Dict[str, T]
        Level = NewType("Level", Optional[Literal["lo", "hi"]])
        Spelled = Union[Literal["lo", "hi"], None]

        @tool
        def first(a: Optional[Literal["hi", "lo"]], b: Union[Literal["hi", "lo"], None]) -> str:
            return ""

        @tool
        def second(level: Level, spelled: Spelled, table: Table[Optional[Literal["lo", "hi"]]]) -> str:
            return ""
        """,
    )
    assert _enum(m.first, "a") == ["hi", "lo", None]
    assert _enum(m.second, "level") == ["lo", "hi", None]
    assert _enum(m.second, "spelled") == ["lo", "hi", None]
    assert _enum(m.second, "table", "additionalProperties") == ["lo", "hi", None]


def test_union_members_keep_their_order_in_string_annotations_and_fields(tmp_path: Path) -> None:
    """``Union[A, B] == Union[B, A]`` too: a union's members are read from the source alike."""
    m = _load(
        tmp_path,
        """
        from __future__ import annotations
        from dataclasses import dataclass
        from typing import List, Optional, Literal, Union
        from onellm_runtime import tool

        @dataclass
        class Keep:
            members: Optional[Literal["k"] | Literal["j"]]

        @tool
        def first(a: Optional[Literal["j"] | Literal["k"]], b: List[Union[Literal["j"], Literal["k"]]]) -> str:
            return ""

        @tool
        def second(a: Optional[Literal["k"] | Literal["j"]], b: List[Union[Literal["k"], Literal["j"]]], keep: Keep) -> str:
            return ""
        """,
    )
    assert _enum(m.first, "a") == ["j", "k", None]
    assert _enum(m.first, "b", "items") == ["j", "k"]
    assert _enum(m.second, "a") == ["k", "j", None]
    assert _enum(m.second, "b", "items") == ["k", "j"]
    assert _enum(m.second, "keep", "properties", "members") == ["k", "j", None]
