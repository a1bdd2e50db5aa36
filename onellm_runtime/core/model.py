"""The neutral type model that both front ends lower into.

The runtime front end (``typing_front``) reads ``typing`` objects; the mypy front end
(``onellm_mypy.mypy_front``) reads mypy types plus the source text. Both produce the
values below, and nothing else decides anything: whether a type is supported, which
OLT code it earns, and what schema it has are all computed from this model by the shared
modules ``diagnostics`` and ``schema``. That is what makes the two sides agree by design.

So the model describes what was *written*, including what is wrong with it
(``Unsupported``, ``TypeVarRef``, ``NotARecord``, ``SelfReference``): a front end
never judges, it only reports faithfully.

Every node is a frozen dataclass. Fields named ``origin`` hold the runtime object the
node came from (a class, an enum, a NewType) for the binder to construct values with;
the static side leaves them ``None``, and they never take part in equality.
"""

from __future__ import annotations

import sys
from collections.abc import ItemsView
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union
from typing import Literal as L

from .frozen import quick_init
from .options import DEFAULT_OPTIONS, ToolOptions
from .scalars import ScalarKind  # the rows of the Types table, beside their kinds

if TYPE_CHECKING:
    from .markers import MarkerSpec

__all__ = [
    "ScalarKind",
    "Scalar",
    "EnumType",
    "LiteralType",
    "Nullable",
    "ArrayType",
    "MapType",
    "JsonType",
    "Record",
    "RecordField",
    "UnionType",
    "Annotated",
    "Bound",
    "Constraints",
    "Marker",
    "Unsupported",
    "TypeVarRef",
    "NotARecord",
    "SelfReference",
    "TypeNode",
    "Default",
    "NO_DEFAULT",
    "NONE_DEFAULT",
    "OPAQUE_DEFAULT",
    "UNREADABLE_DEFAULT",
    "ParamKind",
    "Param",
    "ReturnKind",
    "Returns",
    "ToolModel",
    "ClassModel",
]


@quick_init
@dataclass(frozen=True)
class Scalar:
    """A leaf type. ``minimum``/``maximum`` carry a sized integer's range (``Int32``)."""

    kind: ScalarKind
    minimum: int | None = None
    maximum: int | None = None
    #: The sized-integer alias name (``"Int32"``), for messages and nothing else.
    alias: str | None = None
    #: Runtime only: the class the binder builds a string's value with once it is checked
    #: (a pydantic URL type, ``core.foreign``), and how a returned one is recognised; None:
    #: the value is the JSON value. Never part of equality.
    make: object = field(default=None, compare=False, repr=False)


@quick_init
@dataclass(frozen=True)
class EnumType:
    """An ``Enum`` subclass: bound and written by its members' wire forms.

    A string-valued enum (every member's value a ``str``) is written and bound by member
    *value*; every other enum by member *name*.
    """

    name: str
    #: The member names in definition order, aliases left out.
    members: tuple[str, ...]
    #: ``True`` for an ``enum.Flag``, which has no schema (OLT002).
    is_flag: bool = False
    #: The members' string values, in the order of ``members``, for a string-valued enum;
    #: None for an enum written by name.
    values: tuple[str, ...] | None = None
    #: Static only: why the members' values, and so the wire form, cannot be computed from
    #: the source (the OLT014 text); None when they can.
    not_computed: str | None = field(default=None, compare=False)
    origin: object = field(default=None, compare=False, repr=False)

    @property
    def wire(self) -> tuple[str, ...]:
        """What is written for each member (and what the binder accepts), in member order."""
        return self.members if self.values is None else self.values


@quick_init
@dataclass(frozen=True)
class LiteralType:
    """``Literal[...]`` values, in the order written (duplicates removed)."""

    values: tuple[str | int | bool, ...]


@quick_init
@dataclass(frozen=True)
class Nullable:
    """``X | None``."""

    inner: TypeNode


ArrayKind = L["list", "tuple", "set", "frozenset"]


@quick_init
@dataclass(frozen=True)
class ArrayType:
    """A homogeneous sequence or set. ``kind`` is the Python container it binds to."""

    item: TypeNode
    kind: ArrayKind = "list"

    @property
    def unique(self) -> bool:
        return self.kind in ("set", "frozenset")


@quick_init
@dataclass(frozen=True)
class MapType:
    """``dict[str, T]`` and its abstract relatives."""

    value: TypeNode


@quick_init
@dataclass(frozen=True)
class JsonType:
    """``JsonValue`` (any), ``JsonObject``, ``JsonArray``.

    ``own_type``: ``Any`` in a return annotation, read as ``JsonValue`` there; the value
    returned is written by its own type (a ``datetime`` as RFC 3339, a dataclass as an
    object), then checked as any JSON value is.
    """

    kind: L["value", "object", "array"]
    own_type: bool = False


RecordKind = L["dataclass", "namedtuple", "typeddict", "basemodel"]


@quick_init
@dataclass(frozen=True)
class RecordField:
    """One field of a record, with everything needed to describe and bind it."""

    name: str
    type: TypeNode
    required: bool
    default: Default


@quick_init
@dataclass(frozen=True)
class Record:
    """A dataclass, NamedTuple, TypedDict or pydantic ``BaseModel``, with its fields in contract order."""

    name: str
    kind: RecordKind
    fields: tuple[RecordField, ...]
    #: The record's own docstring, then its base records' (depth-first, in base order):
    #: the core looks a field's description up in them in that order.
    docstrings: tuple[str, ...] = ()
    #: Whether instances can go in a set (a non-frozen ``eq`` dataclass cannot).
    hashable: bool = True
    origin: object = field(default=None, compare=False, repr=False)


@quick_init
@dataclass(frozen=True)
class UnionType:
    """A union of two or more non-``None`` members, in the order written.

    The front ends do not judge it: the core accepts it only when every member is a
    record with a usable discriminator (OLT012 otherwise), or when every member is a
    ``Literal`` (merged into one). ``X | None`` is ``Nullable``, never this.
    """

    members: tuple[TypeNode, ...]


#: A number bound as a marker holds it (``Range(0, 1.5)``).
Bound = Union[int, float]


@quick_init
@dataclass(frozen=True)
class Constraints:
    """What markers set, one typed field per schema keyword family (None: not set).

    The schema writer and the binder both read these, so what is written is what is
    enforced. ``min_length``/``max_length`` are ``minLength``/``maxLength`` on a string and
    ``minItems``/``maxItems`` on an array; ``format`` is the ``format`` keyword's value.
    ``json_name`` and ``discriminator`` are not keywords: they rename a record property
    and name a union's discriminator.
    """

    minimum: Bound | None = None
    maximum: Bound | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    format: str | None = None
    description: str | None = None
    json_name: str | None = None
    discriminator: str | None = None

    def items(self) -> ItemsView[str, object]:
        """The fields set, by name, in field order: a node stores only the fields that are
        not at their default (see ``_quick``), so this is the instance's own dictionary."""
        return self.__dict__.items()


@quick_init
@dataclass(frozen=True)
class Marker:
    """One known annotation from ``Annotated[T, ...]``, as read through its row of the
    marker table (``core.markers``): the row, the arguments as written (in the row's
    signature order, for its messages), and the constraints it sets.

    The sized integers and ``Char`` are not markers: the front ends lower them to
    ``Scalar`` directly.
    """

    spec: MarkerSpec
    values: tuple[object, ...]
    constraints: Constraints


@quick_init
@dataclass(frozen=True)
class Annotated:
    """``Annotated[T, ...]`` with the metadata onellm knows, in the order written."""

    inner: TypeNode
    markers: tuple[Marker, ...]


#: How many records deep a parameter's type may nest (each level is one more object a model
#: writes inside another). Deeper nesting is OLT002 on both sides; lowering stops one level
#: beyond it, so no later walk over a type can exhaust the interpreter's stack.
MAX_RECORD_DEPTH = 32

UnsupportedReason = L[
    "any",  # typing.Any
    "object",  # builtins.object
    "missing",  # no annotation at all
    "callable",  # Callable[...] or a function type
    "protocol",  # a Protocol or abstract class (name given)
    "bare",  # list / dict / set ... without type arguments (name given)
    "dict_key",  # a dict whose key is not str
    "fixed_tuple",  # tuple[int, str]
    "flag",  # an enum.Flag (name given)
    "mixed_literal",  # Literal["a", 1]
    "union",  # a union other than X | None and record unions
    "unhashable",  # set[T] with an unhashable T (name given: the item type's)
    "collection",  # some other generic collection type (name given)
    "unresolved",  # an annotation that cannot be resolved (name given)
    "syntax",  # a string annotation that is not a Python expression (its text given, quoted)
    "too_deep",  # records nested deeper than MAX_RECORD_DEPTH (the limit given)
    "secret",  # a pydantic SecretStr / SecretBytes (name given)
    "runtime_object",  # an invoker, a tool, a loop, a logger, a lock ... (name given, core.foreign)
    "none",  # a bare None where a value type is needed
    "other",  # anything else (name given)
]


@quick_init
@dataclass(frozen=True)
class Unsupported:
    """A type that has no schema (OLT002), with the reason and the name to print."""

    reason: UnsupportedReason
    name: str = ""


@quick_init
@dataclass(frozen=True)
class TypeVarRef:
    """A TypeVar or type parameter (OLT004)."""

    name: str


@quick_init
@dataclass(frozen=True)
class NotARecord:
    """A concrete class used where a record is needed, but not a record kind (OLT005).

    ``module`` picks the fix its message names (``str`` for a ``pathlib`` path);
    ``feature`` names what makes a pydantic ``BaseModel`` unfit as a record, a written form
    that differs from its fields (``"computed_field 'total'"``); empty for any other class.
    """

    name: str
    module: str = ""
    feature: str = ""


@quick_init
@dataclass(frozen=True)
class SelfReference:
    """The point where a record type refers back to one of its enclosing records (OLT006)."""

    name: str


TypeNode = Union[
    Scalar,
    EnumType,
    LiteralType,
    Nullable,
    ArrayType,
    MapType,
    JsonType,
    Record,
    UnionType,
    Annotated,
    Unsupported,
    TypeVarRef,
    NotARecord,
    SelfReference,
]


@quick_init
@dataclass(frozen=True)
class Default:
    """A parameter's or field's default, as far as the schema cares.

    ``state`` is ``"none"`` (no default: required), ``"value"`` (a JSON-writable value:
    str, int, float, bool, or an enum member's wire form), ``"null"`` (a ``None`` default:
    nothing written), ``"opaque"`` (some other default: optional, nothing written), or
    ``"unreadable"`` (static only: an expression the source does not let us evaluate;
    OLT014 when the type would have its default written, naming ``expression``).
    """

    state: L["none", "value", "null", "opaque", "unreadable"]
    value: str | int | float | bool | None = None
    #: An unreadable default's expression as written (cut short), which its OLT014 names.
    expression: str | None = field(default=None, compare=False)

    @property
    def present(self) -> bool:
        return self.state != "none"

    @staticmethod
    def of(value: str | int | float | bool) -> Default:
        return Default("value", value)


def writable_number(value: int | float) -> bool:
    """Whether ``json.dumps`` writes ``value`` as a JSON number: a finite float, or an int
    within this interpreter's digit limit (``sys.get_int_max_str_digits``). Only such a
    default is written in a schema; any other still applies at the call (the contract)."""
    if type(value) is float:
        return value - value == 0.0  # not NaN, not an infinity
    n = int(value)
    if n.bit_length() <= 2126:  # at most 640 digits, the lowest limit Python allows
        return True
    get = getattr(sys, "get_int_max_str_digits", None)
    limit = int(get()) if get is not None else 0
    return not limit or abs(n) < 10**limit


NO_DEFAULT = Default("none")
NONE_DEFAULT = Default("null")
OPAQUE_DEFAULT = Default("opaque")
UNREADABLE_DEFAULT = Default("unreadable")


ParamKind = L["normal", "context", "cancellation", "var_positional", "var_keyword"]


@quick_init
@dataclass(frozen=True)
class Param:
    """One parameter of a tool function (``self``/``cls`` are never included).

    ``loc`` is where a static diagnostic about this parameter is reported; the runtime
    leaves it ``None``. It never takes part in equality.
    """

    name: str
    type: TypeNode
    kind: ParamKind = "normal"
    default: Default = NO_DEFAULT
    loc: object = field(default=None, compare=False, repr=False)
    #: Runtime only: for a parameter whose default is a pydantic ``Field(...)``, what the binder
    #: supplies when the argument is left out, ``("value", v)`` or ``("factory", f)`` (the
    #: function would otherwise receive the ``FieldInfo``); None for any other parameter.
    fill: object = field(default=None, compare=False, repr=False)


ReturnKind = L[
    "none",  # -> None
    "parts",  # -> Part / a sequence of parts / ToolResult
    "unannotated",  # no return annotation: converted by the value's own type
    "type",  # anything else, lowered into ``type``; the core tells text, JSON and values apart
]


@quick_init
@dataclass(frozen=True)
class Returns:
    kind: ReturnKind
    #: The return type (``async def`` and ``Awaitable[T]`` unwrapped), for ``kind == "type"``.
    type: TypeNode | None = None
    #: Where a static diagnostic about the return type is reported: the return annotation
    #: (None: the tool's own ``loc``). Never part of equality.
    loc: object = field(default=None, compare=False, repr=False)


@quick_init
@dataclass(frozen=True)
class ToolModel:
    """Everything the shared core needs to check a tool and write its schemas."""

    #: The Python function name (used to derive the tool name).
    function_name: str
    #: The raw docstring, or None; the core parses it with the shared parser.
    docstring: str | None
    params: tuple[Param, ...]
    returns: Returns
    #: What ``@tool(...)`` / ``Tool.create(...)`` was given (most tools: the shared defaults).
    options: ToolOptions = DEFAULT_OPTIONS
    #: Names of the function's own type variables (OLT004).
    type_params: tuple[str, ...] = ()
    #: Names of the enclosing class's type variables (OLT010).
    class_type_params: tuple[str, ...] = ()
    #: What ``@tool`` decorated when it was not a plain function (OLT001):
    #: ``"class"``, ``"property"``, ``"overload"``, ``"staticmethod"``, ``"classmethod"``.
    misapplied_to: str | None = None
    #: A lambda has no usable name (OLT008 unless ``name=`` is given).
    is_lambda: bool = False
    #: Static only: the options given by an expression the source does not let us compute,
    #: as (option, expression as written) pairs (OLT014; ``options`` keeps their defaults).
    not_computed: tuple[tuple[str, str], ...] = ()
    loc: object = field(default=None, compare=False, repr=False)


@quick_init
@dataclass(frozen=True)
class ClassModel:
    """The tools of one class, for the class-level checks (OLT007)."""

    name: str
    tools: tuple[ToolModel, ...]
    #: The tools its bases give it and it does not redefine, as (base class name, tool), in
    #: ``tools_of`` order: a model is offered them beside the class's own.
    inherited: tuple[tuple[str, ToolModel], ...] = ()
