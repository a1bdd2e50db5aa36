"""How the binder constructs records: every cheaper construction it uses gives what the
record's own keyword call ``cls(**kwargs)`` gives (``binding.makers.Maker``).

For each kind of class the binder's result is compared with the keyword call on the same
values: equal, the same type, and (for dataclasses) the very same instance ``__dict__``,
key order included; default factories run once per instance; a frozen instance stays
frozen; ``__post_init__``, a custom ``__init__``, ``__new__`` or ``__setattr__`` still
run. Each record goes through every entrance of the generated code: raw JSON with every
member (one unpacking), raw JSON with optional members left out, members in another order
(the dict path), an already-parsed mapping, and a list of records.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import InitVar, dataclass, field
from typing import Any, ClassVar, NamedTuple, Optional

import pytest

from onellm_runtime import ArgumentError, Tool
from onellm_runtime.binding.makers import maker_for
from onellm_runtime.front.typing_front import lower_type

CALLS: list[str] = []


def made() -> list[str]:
    CALLS.append("factory")
    return ["made"]


@dataclass
class Plain:
    a: int
    b: str = "b"
    tags: list[str] = field(default_factory=made)
    note: Optional[str] = None


@dataclass
class WithHidden:
    a: int
    hidden: int = field(default=7, init=False)
    made: list[str] = field(default_factory=made, init=False)
    b: str = "x"
    limit: ClassVar[int] = 3


@dataclass
class Base:
    a: int
    b: str = "base"


@dataclass
class Child(Base):
    b: str = "child"
    c: bool = False


class NotDecorated(Base):
    """A subclass dataclass did not process: it inherits ``Base.__init__``."""


@dataclass(kw_only=True)
class KwOnly:
    a: int
    b: str = "k"


@dataclass
class MixedKw:
    a: int
    _: dataclasses.KW_ONLY
    b: str
    c: int = 2


@dataclass(frozen=True)
class Frozen:
    a: int
    b: str = "f"
    tags: tuple[str, ...] = ()


@dataclass
class PostInit:
    a: int
    b: int = 1

    def __post_init__(self) -> None:
        CALLS.append("post_init")
        self.total = self.a + self.b


@dataclass
class WithInitVar:
    a: int
    scale: InitVar[int] = 2

    def __post_init__(self, scale: int) -> None:
        self.scaled = self.a * scale


@dataclass
class OwnInit:
    a: int
    b: str = "o"

    def __init__(self, a: int, b: str = "o") -> None:  # dataclass keeps it
        self.a = a * 10
        self.b = b.upper()


@dataclass
class Watched:
    a: int
    b: str = "w"

    def __setattr__(self, name: str, value: object) -> None:
        CALLS.append(f"set {name}")
        object.__setattr__(self, name, value)


@dataclass
class OwnNew:
    a: int

    def __new__(cls, *args: object, **kwargs: object) -> OwnNew:
        CALLS.append("new")
        return super().__new__(cls)


class CountingMeta(type):
    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        CALLS.append("meta call")
        return super().__call__(*args, **kwargs)


@dataclass
class WithMeta(metaclass=CountingMeta):
    a: int


@dataclass(slots=True)
class Slotted:
    a: int
    b: str = "s"


# A class compiled from a string (as by exec) whose body writes an __init__ with exactly the
# generated one's parameters: still the class's own __init__, so still called.
_scope: dict[str, Any] = {"dataclass": dataclass}
exec(
    "@dataclass\nclass FromString:\n    a: int\n    def __init__(self, a: int) -> None:\n        self.a = a + 1\n",
    _scope,
)
FromString: type = _scope["FromString"]


class Point(NamedTuple):
    x: int
    y: int = 0
    label: str = "p"


class LoudPoint(Point):
    def __new__(cls, x: int, y: int = 0, label: str = "p") -> LoudPoint:
        CALLS.append("loud new")
        return super().__new__(cls, x, y, label)


KINDS = {
    Plain: "stores",
    WithHidden: "stores",
    Base: "stores",
    Child: "stores",
    NotDecorated: "keywords",
    KwOnly: "stores",
    MixedKw: "stores",
    Frozen: "positional",
    PostInit: "positional",
    WithInitVar: "keywords",
    OwnInit: "keywords",
    FromString: "keywords",
    Watched: "stores",
    OwnNew: "keywords",
    WithMeta: "keywords",
    Slotted: "positional",
    Point: "tuple",
    LoudPoint: "keywords",
}


def record_of(cls: type) -> Any:
    return lower_type(cls)


def one_tool(cls: type) -> Tool[..., Any]:
    def fn(r: Any, rs: Optional[list[Any]] = None) -> None: ...

    fn.__annotations__ = {"r": cls, "rs": Optional[list[cls]], "return": None}  # type: ignore[valid-type]
    return Tool.create(fn)


@pytest.mark.parametrize("cls", list(KINDS), ids=lambda c: c.__name__)
def test_the_construction_chosen(cls: type) -> None:
    expected = KINDS[cls]
    if expected in ("stores", "positional") and dataclasses.is_dataclass(cls) and sys.version_info < (3, 11):
        expected = "keywords"  # no co_qualname: a generated __init__ cannot be told from a written one
    assert maker_for(record_of(cls)).kind == expected


def state(obj: object) -> object:
    """What must be identical: the type, the value, and the instance dict in order."""
    if isinstance(obj, tuple):
        return (type(obj), tuple(obj))
    d = getattr(obj, "__dict__", None)
    slots = {n: getattr(obj, n) for n in getattr(type(obj), "__slots__", ())}
    return (type(obj), list(d.items()) if d is not None else None, slots)


# (class, JSON members of a record, the keyword arguments the reference call gets)
CASES: list[tuple[type, dict[str, object], dict[str, object]]] = [
    (Plain, {"a": 1, "b": "x", "tags": ["t"], "note": "n"}, {"a": 1, "b": "x", "tags": ["t"], "note": "n"}),
    (Plain, {"a": 1}, {"a": 1}),
    (Plain, {"a": 1, "b": "x"}, {"a": 1, "b": "x"}),
    (Plain, {"a": 1, "note": None}, {"a": 1, "note": None}),
    (WithHidden, {"a": 1, "b": "y"}, {"a": 1, "b": "y"}),
    (WithHidden, {"a": 1}, {"a": 1}),
    (Base, {"a": 1}, {"a": 1}),
    (Child, {"a": 1, "b": "x", "c": True}, {"a": 1, "b": "x", "c": True}),
    (Child, {"a": 1}, {"a": 1}),
    (NotDecorated, {"a": 1}, {"a": 1}),
    (KwOnly, {"a": 1, "b": "x"}, {"a": 1, "b": "x"}),
    (KwOnly, {"a": 1}, {"a": 1}),
    (MixedKw, {"a": 1, "b": "x", "c": 5}, {"a": 1, "b": "x", "c": 5}),
    (MixedKw, {"a": 1, "b": "x"}, {"a": 1, "b": "x"}),
    (Frozen, {"a": 1, "b": "x", "tags": ["t"]}, {"a": 1, "b": "x", "tags": ("t",)}),
    (Frozen, {"a": 1}, {"a": 1}),
    (PostInit, {"a": 1, "b": 2}, {"a": 1, "b": 2}),
    (PostInit, {"a": 1}, {"a": 1}),
    (WithInitVar, {"a": 3}, {"a": 3}),
    (OwnInit, {"a": 1, "b": "x"}, {"a": 1, "b": "x"}),
    (OwnInit, {"a": 1}, {"a": 1}),
    (FromString, {"a": 1}, {"a": 1}),
    (Watched, {"a": 1, "b": "x"}, {"a": 1, "b": "x"}),
    (Watched, {"a": 1}, {"a": 1}),
    (OwnNew, {"a": 1}, {"a": 1}),
    (WithMeta, {"a": 1}, {"a": 1}),
    (Slotted, {"a": 1, "b": "x"}, {"a": 1, "b": "x"}),
    (Slotted, {"a": 1}, {"a": 1}),
    (Point, {"x": 1, "y": 2, "label": "q"}, {"x": 1, "y": 2, "label": "q"}),
    (Point, {"x": 1}, {"x": 1}),
    (Point, {"x": 1, "y": 2}, {"x": 1, "y": 2}),
    (LoudPoint, {"x": 1, "y": 2, "label": "q"}, {"x": 1, "y": 2, "label": "q"}),
    (LoudPoint, {"x": 1}, {"x": 1}),
]


def entrances(members: dict[str, object]) -> list[tuple[str, object]]:
    """The same record, by every entrance of the generated code (as ``r`` and as ``rs[0..1]``)."""
    backwards = dict(reversed(list(members.items())))
    out: list[tuple[str, object]] = []
    for label, obj in (("in order", members), ("reordered", backwards)):
        doc = {"r": obj, "rs": [obj, obj]}
        out.append((f"raw, {label}", json.dumps(doc)))
        out.append((f"mapping, {label}", json.loads(json.dumps(doc))))
    return out


@pytest.mark.parametrize(("cls", "members", "kwargs"), CASES, ids=[f"{c.__name__}-{'-'.join(m)}" for c, m, _ in CASES])
def test_binding_constructs_what_the_keyword_call_does(
    cls: type, members: dict[str, object], kwargs: dict[str, object]
) -> None:
    t = one_tool(cls)
    for label, arguments in entrances(members):
        CALLS.clear()
        expected = cls(**kwargs)
        reference_calls = list(CALLS)
        CALLS.clear()
        bound = t.bind(arguments)  # type: ignore[arg-type]
        r, rs = bound["r"], bound["rs"]
        assert isinstance(rs, list)
        for got in (r, *rs):
            assert state(got) == state(expected), label
            assert got == expected, label
        # every side effect of the keyword call, once per instance (three instances)
        assert CALLS == reference_calls * 3, label
        # no two instances share a mutable default
        assert r is not rs[0] and rs[0] is not rs[1]
        for name, value in (getattr(r, "__dict__", None) or {}).items():
            if isinstance(value, list):
                assert value is not getattr(rs[0], name), label


def test_a_frozen_record_stays_frozen_and_hashable() -> None:
    t = one_tool(Frozen)
    r = t.bind('{"r": {"a": 1, "b": "x", "tags": []}}')["r"]
    assert isinstance(r, Frozen)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.a = 2  # type: ignore[misc]
    assert hash(r) == hash(Frozen(1, "x", ()))


def test_a_default_factory_is_called_for_each_instance() -> None:
    t = one_tool(Plain)
    CALLS.clear()
    bound = t.bind('{"r": {"a": 1}, "rs": [{"a": 2}, {"a": 3}]}')
    r, rs = bound["r"], bound["rs"]
    assert isinstance(r, Plain) and isinstance(rs, list)
    assert CALLS == ["factory"] * 3
    assert r.tags == ["made"] and r.tags is not rs[0].tags and rs[0].tags is not rs[1].tags
    r.tags.append("more")
    assert rs[0].tags == ["made"]


def test_field_init_false_follows_the_generated_init() -> None:
    t = one_tool(WithHidden)
    r = t.bind('{"r": {"a": 1, "b": "y"}}')["r"]
    # the plain default is the class attribute, not an instance entry; the factory's value is
    assert list(vars(r)) == ["a", "made", "b"]
    assert isinstance(r, WithHidden) and r.hidden == 7 and r.made == ["made"]


@dataclass
class Exploding:
    a: int
    tags: list[str] = field(default_factory=lambda: [][0])


def test_a_failing_default_factory_is_reported_at_its_path() -> None:
    t = one_tool(Exploding)
    with pytest.raises(ArgumentError) as e:
        t.bind('{"r": {"a": 1}, "rs": [{"a": 1, "tags": []}, {"a": 2}]}')
    assert e.value.errors == [
        ("r", "Argument 'r' is not valid: IndexError: list index out of range"),
        ("rs[1]", "Argument 'rs[1]' is not valid: IndexError: list index out of range"),
    ]


def test_a_model_is_built_by_its_own_model_validate_when_it_has_one() -> None:
    """pydantic's ``model_validate`` is run as its body (the validator's ``validate_python``);
    a ``model_validate`` the model defines itself is called as the contract says."""
    from pydantic import BaseModel, field_validator

    seen: list[dict[str, object]] = []

    class Plain(BaseModel):
        n: int

        @field_validator("n")
        @classmethod
        def small(cls, v: int) -> int:
            if v > 5:
                raise ValueError("too big")
            return v

    class Own(BaseModel):
        n: int

        @classmethod
        def model_validate(cls, obj: Any, **kwargs: Any) -> Own:
            seen.append(dict(obj))
            return super().model_validate(obj, **kwargs)

    def plain(xs: list[Plain]) -> None:
        """Models."""

    def own(xs: list[Own]) -> None:
        """Models."""

    plain.__annotations__ = {"xs": list[Plain], "return": None}
    own.__annotations__ = {"xs": list[Own], "return": None}
    assert Tool.create(plain).bind('{"xs": [{"n": 1}, {"n": 2}]}') == {"xs": [Plain(n=1), Plain(n=2)]}
    with pytest.raises(ArgumentError) as raised:
        Tool.create(plain).bind('{"xs": [{"n": 1}, {"n": 9}]}')
    assert str(raised.value) == "Argument 'xs[1].n' is not valid: Value error, too big"
    assert Tool.create(own).bind('{"xs": [{"n": 1}, {"n": 2}]}') == {"xs": [Own(n=1), Own(n=2)]}
    assert seen == [{"n": 1}, {"n": 2}]
