"""Tools as methods: the descriptor, ``tools_of``, static and class methods, class-level codes.

Contract, "Public API": `Cls.method` is the unbound `Tool`, `obj.method` a bound `Tool` whose
schema never contains `self`/`cls`; `tools_of(obj)` lists the `@tool` methods bound to it, in
definition order. "Decisions": OLT007 and OLT010 are raised when the class is created (from
`__set_name__`). Python before 3.12 wraps an exception raised in `__set_name__` in a
RuntimeError (the ToolDefinitionError is its `__cause__`); 3.12 and later let it through.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, Callable, Generic, TypeVar, overload

import pytest
from schema_support import refusal

from onellm_runtime import Tool, ToolContext, ToolDefinitionError, tool, tools_of

T = TypeVar("T")

X_ONLY = (
    '{"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"], "additionalProperties": false}'
)


class Counter:
    """Counts."""

    def __init__(self, start: int = 0) -> None:
        self.total = start

    @tool
    def add(self, x: int) -> int:
        """Add x."""
        self.total += x
        return self.total

    @tool(name="peek")
    async def peek_async(self, ctx: ToolContext) -> int:
        """Read the total."""
        return self.total

    @tool
    @staticmethod
    def double(x: int) -> int:
        """Double x."""
        return 2 * x

    @tool
    @classmethod
    def make(cls, x: int) -> str:
        """Make one."""
        return f"{cls.__name__}({x})"

    def plain(self) -> int:
        return self.total


class Scaled(Counter):
    @tool
    def add(self, x: int) -> int:
        """Add x, doubled (an override keeps its base's place)."""
        return super().add.fn(self, 2 * x)  # type: ignore[no-any-return]

    @tool
    def reset(self, x: int) -> None:
        """Reset."""
        self.total = x

    double = None  # type: ignore[assignment]  # hides the base's tool


# --- the descriptor ---------------------------------------------------------------------


def test_class_access_is_the_unbound_tool_without_self() -> None:
    unbound = Counter.add
    assert isinstance(unbound, Tool)
    assert unbound is Counter.__dict__["add"]
    assert json.dumps(unbound.input_schema) == X_ONLY


def test_instance_access_is_a_bound_tool_without_self() -> None:
    c = Counter(10)
    bound = c.add
    assert isinstance(bound, Tool) and bound is not Counter.add  # type: ignore[comparison-overlap]
    assert json.dumps(bound.input_schema) == X_ONLY
    assert (bound.name, bound.description) == ("add", "Add x.")
    assert bound(5) == 15
    assert bound.call_with({"x": 1}) == 16
    assert c.total == 16


def test_the_unbound_tool_is_called_with_self() -> None:
    c = Counter()
    assert Counter.add(c, 3) == 3


def test_context_parameter_of_a_method_never_appears() -> None:
    assert json.dumps(Counter().peek_async.input_schema) == (
        '{"type": "object", "properties": {}, "additionalProperties": false}'
    )
    assert Counter.peek_async.name == "peek"


def test_staticmethod_under_tool_has_no_self_and_is_callable_both_ways() -> None:
    assert json.dumps(Counter.double.input_schema) == X_ONLY
    assert json.dumps(Counter().double.input_schema) == X_ONLY
    assert Counter.double(4) == 8
    assert Counter().double(5) == 10  # type: ignore[call-arg]  # mypy binds the first parameter here


def test_classmethod_under_tool_has_no_cls_and_binds_the_class() -> None:
    assert json.dumps(Counter.make.input_schema) == X_ONLY
    # mypy's view of Tool.__get__ keeps cls in a class method's signature (a typing gap, not the runtime's):
    assert Counter.make(1) == "Counter(1)"  # type: ignore[call-arg, arg-type]
    assert Scaled.make(2) == "Scaled(2)"  # type: ignore[call-arg, arg-type]
    assert Scaled().make(3) == "Scaled(3)"


def test_tool_create_on_a_bound_method_has_no_self() -> None:
    c = Counter(1)
    t = Tool.create(c.plain)
    assert json.dumps(t.input_schema) == '{"type": "object", "properties": {}, "additionalProperties": false}'
    assert t() == 1


# --- tools_of ---------------------------------------------------------------------------


def test_tools_of_lists_the_tools_bound_in_definition_order() -> None:
    c = Counter(1)
    tools = tools_of(c)
    assert [t.name for t in tools] == ["add", "peek", "double", "make"]
    assert tools[0](2) == 3 and c.total == 3
    assert all(json.dumps(t.input_schema).find('"self"') < 0 for t in tools)


def test_tools_of_puts_base_tools_first_keeps_an_overrides_place_and_drops_hidden_ones() -> None:
    s = Scaled()
    tools = tools_of(s)
    assert [t.name for t in tools] == ["add", "peek", "make", "reset"]
    assert tools[0].description == "Add x, doubled (an override keeps its base's place)."
    assert tools[0](3) == 6 and s.total == 6


def test_tools_of_a_class_gives_the_unbound_tools() -> None:
    tools = tools_of(Counter)
    assert [t.name for t in tools] == ["add", "peek", "double", "make"]
    assert tools[0] is Counter.add
    assert tools[3](7) == "Counter(7)"


def test_a_class_without_tools_has_none() -> None:
    class Empty:
        def m(self) -> None: ...

    assert tools_of(Empty()) == []


# --- the decorated function stays callable ----------------------------------------------


def test_a_decorated_function_stays_callable_with_its_own_signature() -> None:
    @tool
    def add(a: int, b: int = 2, *, c: int = 0) -> int:
        return a + b + c

    @tool
    async def twice_async(x: int) -> int:
        return 2 * x

    assert add(1) == 3 and add(1, 1, c=1) == 3
    assert asyncio.run(twice_async(4)) == 8
    assert twice_async.name == "twice"
    assert add.__name__ == "add" and add.__wrapped__.__name__ == "add"


# --- OLT001, OLT007, OLT010 -------------------------------------------------------------


def _class_creation_error(make: Callable[[], object]) -> ToolDefinitionError:
    """What a user meets at class creation, on this Python version (see the module docstring)."""
    if sys.version_info >= (3, 12):
        with pytest.raises(ToolDefinitionError) as info:
            make()
        return info.value
    with pytest.raises(RuntimeError) as wrapped:
        make()
    assert str(wrapped.value).startswith("Error calling __set_name__ on 'Tool' instance")
    cause = wrapped.value.__cause__
    assert isinstance(cause, ToolDefinitionError)
    return cause


def test_olt007_at_class_creation_names_both_methods() -> None:
    def make() -> type:
        class Tracker:
            @tool
            def search(self, q: str) -> str:
                return q

            @tool(name="search")
            def find(self, q: str) -> str:
                return q

        return Tracker

    error = _class_creation_error(make)
    assert error.code == "OLT007"
    assert str(error) == (
        "Tool 'search': method 'find' of class 'Tracker' has the same tool name as method 'search'; "
        "give one of them another name with @tool(name=...)  [OLT007]"
    )


def test_olt007_for_a_tool_named_as_one_its_base_class_offers() -> None:
    class Catalog:
        @tool(name="search")
        def find(self, query: str) -> str:
            return query

        @tool
        def describe(self, sku: str) -> str:
            return sku

        @tool
        def size(self) -> int:
            return 0

    def make() -> type:
        class Shop(Catalog):
            @tool
            def search(self, query: str) -> str:
                return query

        return Shop

    error = _class_creation_error(make)
    assert str(error) == (
        "Tool 'search': method 'search' of class 'Shop' has the same tool name as method 'find' of its base "
        "class 'Catalog'; give one of them another name with @tool(name=...)  [OLT007]"
    )

    class Shop(Catalog):  # an override, and a plain attribute hiding the base's 'size': no duplicate
        @tool
        def describe(self, sku: str) -> str:
            return sku.upper()

        size = 3  # type: ignore[assignment]

        @tool(name="size")
        def count(self) -> int:
            return 0

    assert [(t.name, t.__name__) for t in tools_of(Shop())] == [
        ("search", "find"),
        ("describe", "describe"),
        ("size", "count"),
    ]


def test_olt007_for_names_that_only_derive_the_same() -> None:
    def make() -> type:
        class Tracker:
            @tool
            def get_item(self) -> str:
                return ""

            @tool
            async def get_item_async(self) -> str:
                return ""

        return Tracker

    assert _class_creation_error(make).code == "OLT007"


def test_olt010_at_class_creation() -> None:
    def make() -> type:
        class Box(Generic[T]):
            @tool
            def put(self, item: str) -> str:
                return item

        return Box

    error = _class_creation_error(make)
    assert error.code == "OLT010"
    assert str(error) == (
        "Tool 'put': the containing class is generic (type variable 'T'); tools must live in a concrete class; "
        "move the tool to a non-generic class  [OLT010]"
    )


def test_a_concrete_subclass_of_a_generic_base_is_not_olt010() -> None:
    class Base(Generic[T]):
        pass

    class Concrete(Base[int]):
        @tool
        def put(self, item: str) -> str:
            return item

    assert [t.name for t in tools_of(Concrete())] == ["put"]


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax needs Python 3.12")
def test_olt010_for_a_pep_695_class() -> None:
    namespace: dict[str, Any] = {"tool": tool}

    def make() -> object:
        exec("class Box[U]:\n    @tool\n    def put(self, item: str) -> str:\n        return item\n", namespace)
        return namespace["Box"]

    error = _class_creation_error(make)
    assert error.code == "OLT010" and "type variable 'U'" in str(error)


@pytest.mark.parametrize(
    ("outer", "text"),
    [
        (
            staticmethod,
            "Tool 'm': @staticmethod is applied on top of @tool, which hides the tool from its class; "
            "write @tool above @staticmethod instead  [OLT001]",
        ),
        (
            classmethod,
            "Tool 'm': @classmethod is applied on top of @tool, which hides the tool from its class; "
            "write @tool above @classmethod instead  [OLT001]",
        ),
    ],
    ids=["staticmethod", "classmethod"],
)
def test_staticmethod_or_classmethod_on_top_of_tool_is_olt001_from_tools_of(outer: Any, text: str) -> None:
    def m(x: int) -> str:
        return ""

    m.__qualname__ = "Wrapped.m"
    Wrapped = type("Wrapped", (), {"m": outer(tool(m))})
    codes, message = refusal(lambda: tools_of(Wrapped()))
    assert (codes, message) == (["OLT001"], text)


def test_tool_on_an_overload_is_olt001() -> None:
    def make() -> object:
        @tool  # type: ignore[misc]
        @overload
        def pick(x: int) -> int: ...  # type: ignore[empty-body]

        return pick

    codes, message = refusal(make)
    assert codes == ["OLT001"]
    assert message == (
        "Tool '<overload>': @tool cannot decorate an @overload stub; decorate the implementation "
        "(the def without @overload) instead  [OLT001]"
    )


def test_tool_on_a_property_or_a_class_is_olt001() -> None:
    def on_property() -> object:
        class Holder:
            @tool  # type: ignore[prop-decorator]
            @property
            def value(self) -> int:
                return 1

        return Holder

    codes, message = refusal(on_property)
    assert (codes, message) == (
        ["OLT001"],
        "Tool 'value': @tool cannot decorate a property; make it a plain method and decorate that  [OLT001]",
    )

    def on_class() -> object:
        @tool
        class Thing:
            pass

        return Thing

    assert refusal(on_class) == (
        ["OLT001"],
        "Tool 'thing': @tool must decorate a function, not a class; decorate the class's methods instead  [OLT001]",
    )


def test_tool_applied_twice_is_olt001() -> None:
    def f() -> str:
        return ""

    assert refusal(lambda: tool(tool(f))) == (["OLT001"], "Tool 'f': @tool is applied twice; remove one  [OLT001]")
