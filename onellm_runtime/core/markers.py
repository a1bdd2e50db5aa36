"""The marker table: one row per ``Annotated`` metadata class that onellm reads.

A row holds everything about one marker: the class the runtime meets (onellm's own, or a
class of a package that may be missing, by its full name), which is also the full name the
static side resolves a call to; the constructor's signature, by which both sides read the
arguments; the name messages use; the types it fits and what it asks of its values (OLT013);
and the ``Constraints`` it sets, as typed fields. The runtime front end looks a metadata
object up by its class (``read_object``), the static one a call by its full name
(``spec_for_call``, then ``MarkerSpec.reading`` on the arguments it read by ``signature``);
the schema writer, the binder and the diagnostics read only the typed constraints and the
row, so adding a marker is adding a row here. Metadata that is no row's marker (a class
refused by name, anything else onellm does not read, a pydantic ``Field``) is read by
``core.metadata`` and ``core.fields``, which look rows up here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Literal, cast

from .. import annotations as ann
from . import rules
from .caches import BoundedCache
from .model import (
    Annotated,
    ArrayType,
    Bound,
    Constraints,
    JsonType,
    Marker,
    Nullable,
    Scalar,
    ScalarKind,
    TypeNode,
    UnionType,
)
from .patterns import pattern_problem

__all__ = [
    "REQUIRED",
    "Param",
    "Fits",
    "MarkerSpec",
    "TABLE",
    "NO_CONSTRAINTS",
    "read_object",
    "spec_for_call",
    "fits",
    "merged",
    "scalar_constraints",
    "constraints_of",
    "REFUSED",
    "NOT_COMPUTED",
    "refusal",
    "text_marker",
    "TEXT",
    "FIELD_ROWS",
    "INCLUSIVE_FIX",
]


class _Required:
    """The default of a constructor parameter that has none."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED = _Required()


@dataclass(frozen=True)
class Param:
    """One constructor parameter of a marker class: its name (also the attribute the
    runtime reads) and its default (``REQUIRED`` when it has none)."""

    name: str
    default: object = REQUIRED


#: What a marker applies to; the words are those of its OLT013 message ("applies to ...").
#: ``record fields`` is a place rather than a type (``JsonName``: never on a parameter), and
#: a misplaced ``record unions`` marker (``Discriminator``) is OLT012.
Fits = Literal["any", "numbers", "strings", "strings and arrays", "record fields", "record unions"]

#: A row's reader: the arguments in signature order -> what the marker sets, or None when
#: it sets nothing onellm reads (the marker is then left out, as unknown metadata is).
Reader = Callable[..., Constraints | None]


def _no_problem(m: Marker) -> str | None:
    return None


def _any_type(m: Marker, target: TypeNode, shown: str) -> str | None:
    return None


@dataclass(frozen=True, eq=False)
class MarkerSpec:
    """One row of the marker table (compared by identity: each row is one object)."""

    #: The marker's name in messages. An ``annotated_types`` marker is named as the onellm
    #: marker it reads as (``Ge`` -> ``Range``).
    display: str
    #: The classes read: onellm's own class objects (instances of subclasses too), or the
    #: full names of classes in packages that may be missing (that very class). The static
    #: side reads a call of the same full names (``static_names``).
    runtime: tuple[type | str, ...]
    #: The constructor's parameters, in order: both sides read the arguments by these.
    signature: tuple[Param, ...]
    fits: Fits
    #: The constraints set by the arguments, given in signature order.
    read: Reader
    #: What is wrong with the values written, once the marker fits its type (OLT013 text).
    check: Callable[[Marker], str | None] = _no_problem
    #: The fix an OLT013 misfit message names after "...not to 'T'; ".
    fix: str = "remove the annotation or change the type"
    #: Which description wins when one ``Annotated`` sets several (lower wins; equal: the
    #: last written): ``Description`` over ``Doc``.
    description_rank: int = 0
    #: The code a problem found by ``check`` is reported with.
    code: Literal["OLT013", "OLT014"] = "OLT013"
    #: What is wrong with the values on this very type, once the marker fits it (OLT013
    #: text): an exclusive bound is exact only on an integer type.
    #: Called with the marker, the type and the type's name as messages write it.
    on_type: Callable[[Marker, TypeNode, str], str | None] = _any_type
    #: The marker as its user wrote it, for messages that name what was written (a keyword
    #: set twice, an exclusive bound): ``Ge``, ``Field(ge=)``. Empty: ``display``.
    written: str = ""
    #: Reads the arguments back from an instance: its attributes named as the parameters.
    values_of: Callable[[object], tuple[object, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values_of", _attributes(tuple(p.name for p in self.signature)))
        if not self.written:
            object.__setattr__(self, "written", self.display)

    def __repr__(self) -> str:
        return f"MarkerSpec({self.static_names[0]!r})"

    def __reduce__(self) -> tuple[Callable[[int], MarkerSpec], tuple[int]]:
        return (_row, (_ROWS.index(self),))  # a copy is the row itself: rows compare by identity

    @property
    def static_names(self) -> tuple[str, ...]:
        """The full names the static side resolves a call of this marker to."""
        return tuple(r if isinstance(r, str) else f"{r.__module__}.{r.__qualname__}" for r in self.runtime)

    def reading(self, values: tuple[object, ...]) -> Marker | None:
        """The marker written with these arguments (in signature order), or None when it
        sets nothing onellm reads."""
        constraints = self.read(*values)
        return None if constraints is None else Marker(self, values, constraints)


NO_CONSTRAINTS = Constraints()


def _attributes(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """A function reading these attributes of an object into a tuple (at C speed)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return cast("Callable[[object], tuple[object, ...]]", attrgetter(*names))


# -- readers: what each marker sets. Values are passed on as written (a wrong type is not
# -- judged here; the checks below judge what they need to).


def _bound(value: object) -> Bound | None:
    return cast("Bound | None", value)


def _size(value: object) -> int | None:
    return cast("int | None", value)


def _description(text: object) -> Constraints:
    return Constraints(description=str(text))


def _range(lo: object, hi: object) -> Constraints:
    return Constraints(minimum=_bound(lo), maximum=_bound(hi))


def _string_length(longest: object, shortest: object) -> Constraints:
    # A 0 minimum is left out (the contract's one exception to "written as given").
    return Constraints(min_length=_size(shortest) if shortest else None, max_length=_size(longest))


def _min_length(n: object) -> Constraints:
    return Constraints(min_length=_size(n))


def _max_length(n: object) -> Constraints:
    return Constraints(max_length=_size(n))


def _length(lo: object, hi: object) -> Constraints:
    return Constraints(min_length=_size(lo), max_length=_size(hi))


def _pattern(pattern: object) -> Constraints:
    return Constraints(pattern=cast(str, pattern))


def _email() -> Constraints:
    return Constraints(format="email")


def _url() -> Constraints:
    return Constraints(format="uri")


def _json_name(name: object) -> Constraints:
    return Constraints(json_name=str(name))


def _discriminator(name: object) -> Constraints:
    return Constraints(discriminator=str(name))


def _ge(ge: object) -> Constraints:
    return _range(ge, None)


def _le(le: object) -> Constraints:
    return _range(None, le)


def _is_integer(value: object) -> bool:
    """An integer bound (``True`` is no bound)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _gt(gt: object) -> Constraints:
    # Exact on an integer type only; anything else is refused by the row's ``on_type``.
    return Constraints(minimum=cast(int, gt) + 1) if _is_integer(gt) else NO_CONSTRAINTS


def _lt(lt: object) -> Constraints:
    return Constraints(maximum=cast(int, lt) - 1) if _is_integer(lt) else NO_CONSTRAINTS


def _interval(gt: object, ge: object, lt: object, le: object) -> Constraints:
    lo = cast(int, gt) + 1 if _is_integer(gt) else ge
    hi = cast(int, lt) - 1 if _is_integer(lt) else le
    return _range(lo, hi)


def _text(text: object) -> Constraints:
    return Constraints(description=cast(str, text))


def _string_constraints(
    strip_whitespace: object,
    to_upper: object,
    to_lower: object,
    strict: object,
    shortest: object,
    longest: object,
    pattern: object,
    ascii_only: object,
) -> Constraints:
    return Constraints(min_length=_size(shortest), max_length=_size(longest), pattern=cast("str | None", pattern))


# -- checks: what each marker asks of its values (run once it fits its type).


def _bounds_in_order(m: Marker) -> str | None:
    lo, hi = m.constraints.minimum, m.constraints.maximum
    if lo is not None and hi is not None and lo > hi:
        return f"{m.spec.display}({lo}, {hi}) has its minimum above its maximum; swap the bounds"
    return None


def _pattern_readable(m: Marker) -> str | None:
    problem = pattern_problem(str(m.values[0]))
    if problem is not None:
        return f"{m.spec.display}({m.values[0]!r}) cannot be used: {problem}"  # the problem says what to change
    return None


def _string_length_valid(m: Marker) -> str | None:
    longest, shortest = m.values
    if isinstance(longest, int) and isinstance(shortest, int) and (longest < 0 or shortest > longest):
        return f"{m.spec.display}({longest}, min_length={shortest}) needs 0 <= min_length <= max; fix the bounds"
    return None


def _sizes_valid(m: Marker) -> str | None:
    if any(isinstance(v, int) and v < 0 for v in m.values):
        return f"{m.spec.display} needs lengths of 0 or more; fix the bounds"
    return None


def _sizes_in_order(m: Marker) -> str | None:
    problem = _sizes_valid(m)
    if problem is not None:
        return problem
    lo, hi = m.values
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        return f"{m.spec.display}({lo}, {hi}) has its minimum above its maximum; swap the bounds"
    return None


def _interval_valid(m: Marker) -> str | None:
    gt, ge, lt, le = m.values
    if gt is not None and ge is not None:
        return "the minimum is set twice, by Interval(gt=) and Interval(ge=); keep one"
    if lt is not None and le is not None:
        return "the maximum is set twice, by Interval(lt=) and Interval(le=); keep one"
    return _bounds_in_order(m)


def _is_integer_type(target: TypeNode) -> bool:
    return isinstance(target, Scalar) and target.kind == ScalarKind.INT


def _exclusive(*slots: tuple[int, str]) -> Callable[[Marker, TypeNode, str], str | None]:
    """The ``on_type`` check of a marker with exclusive bounds: at ``index`` of its values,
    written as ``form`` (``Gt(``, ``Interval(gt=``). ``minimum: n+1`` says ``> n`` exactly
    only of an integer ``n`` on an integer type, so anything else is refused."""

    def check(m: Marker, target: TypeNode, type_shown: str) -> str | None:
        for index, form in slots:
            value = m.values[index]
            if value is None:
                continue
            written = f"{form}{value!r})"
            if not _is_integer_type(target):
                return (
                    f"{written} is an exclusive bound, which is exact only on an integer type, "
                    f"not on '{type_shown}'; {INCLUSIVE_FIX}"
                )
            if not _is_integer(value):
                return (
                    f"{written} on '{type_shown}' needs an integer bound (an exclusive bound is exact only as one); "
                    f"{INCLUSIVE_FIX}"
                )
        return None

    return check


#: The fix every refused exclusive bound names.
INCLUSIVE_FIX = "write an inclusive bound with Ge/Le or Range"

_STRING_CONSTRAINTS_READ = frozenset({"min_length", "max_length", "pattern", "strict"})
_STRING_CONSTRAINTS_ARGS = (
    "strip_whitespace",
    "to_upper",
    "to_lower",
    "strict",
    "min_length",
    "max_length",
    "pattern",
    "ascii_only",
)


def _string_constraints_valid(m: Marker) -> str | None:
    unread = [
        n for n, v in zip(_STRING_CONSTRAINTS_ARGS, m.values) if v is not None and n not in _STRING_CONSTRAINTS_READ
    ]
    if unread:
        named = ", ".join(f"{n}=" for n in unread)
        return (
            f"StringConstraints({named}) is not read by onellm (the binder never changes a value); "
            "remove it, and transform the text in the tool body"
        )
    pattern = m.values[6]
    if pattern is not None and not isinstance(pattern, str):
        return "StringConstraints(pattern=) must be a string; write the pattern as a string"
    if pattern is not None:
        problem = pattern_problem(pattern)
        if problem is not None:
            return f"StringConstraints(pattern={pattern!r}) cannot be used: {problem}"
    shortest, longest = m.values[4], m.values[5]
    if any(isinstance(v, int) and v < 0 for v in (shortest, longest)):
        return "StringConstraints needs lengths of 0 or more; fix the bounds"
    if isinstance(shortest, int) and isinstance(longest, int) and shortest > longest:
        return f"StringConstraints(min_length={shortest}, max_length={longest}) has its minimum above its maximum; swap the bounds"
    return None


_AT = "annotated_types"

#: The marker table, in the contract's order of the Annotations table. Columns: the name in
#: messages, the classes read, the constructor's signature, the types it fits, the reader,
#: the check of its values (then any keyword: ``fix``, ``description_rank``).
TABLE: tuple[MarkerSpec, ...] = (
    MarkerSpec("Description", (ann.Description,), (Param("text"),), "any", _description),
    MarkerSpec(
        "Doc",
        ("typing_extensions.Doc", "typing.Doc"),
        (Param("documentation"),),
        "any",
        _description,
        description_rank=1,
    ),
    MarkerSpec("Range", (ann.Range,), (Param("min", None), Param("max", None)), "numbers", _range, _bounds_in_order),
    MarkerSpec(
        "StringLength",
        (ann.StringLength,),
        (Param("max"), Param("min_length", 0)),
        "strings",
        _string_length,
        _string_length_valid,
    ),
    MarkerSpec("MinLength", (ann.MinLength,), (Param("n"),), "strings and arrays", _min_length, _sizes_valid),
    MarkerSpec("MaxLength", (ann.MaxLength,), (Param("n"),), "strings and arrays", _max_length, _sizes_valid),
    MarkerSpec("Length", (ann.Length,), (Param("min"), Param("max")), "strings and arrays", _length, _sizes_in_order),
    MarkerSpec("Pattern", (ann.Pattern,), (Param("pattern"),), "strings", _pattern, _pattern_readable),
    MarkerSpec("Email", (ann.Email,), (), "strings", _email),
    MarkerSpec("Url", (ann.Url,), (), "strings", _url),
    MarkerSpec("JsonName", (ann.JsonName,), (Param("name"),), "record fields", _json_name),
    MarkerSpec("Discriminator", (ann.Discriminator,), (Param("field"),), "record unions", _discriminator),
    MarkerSpec("Range", (f"{_AT}.Ge",), (Param("ge"),), "numbers", _ge, written="Ge"),
    MarkerSpec("Range", (f"{_AT}.Le",), (Param("le"),), "numbers", _le, written="Le"),
    MarkerSpec(
        "Range",
        (f"{_AT}.Interval",),
        (Param("gt", None), Param("ge", None), Param("lt", None), Param("le", None)),
        "numbers",
        _interval,
        _interval_valid,
        on_type=_exclusive((0, "Interval(gt="), (2, "Interval(lt=")),
        written="Interval",
    ),
    MarkerSpec(
        "MinLength",
        (f"{_AT}.MinLen",),
        (Param("min_length"),),
        "strings and arrays",
        _min_length,
        _sizes_valid,
        written="MinLen",
    ),
    MarkerSpec(
        "MaxLength",
        (f"{_AT}.MaxLen",),
        (Param("max_length"),),
        "strings and arrays",
        _max_length,
        _sizes_valid,
        written="MaxLen",
    ),
    MarkerSpec(
        "Length",
        (f"{_AT}.Len",),
        (Param("min_length", 0), Param("max_length", None)),
        "strings and arrays",
        _length,
        _sizes_in_order,
        written="Len",
    ),
    MarkerSpec("Gt", (f"{_AT}.Gt",), (Param("gt"),), "numbers", _gt, on_type=_exclusive((0, "Gt("))),
    MarkerSpec("Lt", (f"{_AT}.Lt",), (Param("lt"),), "numbers", _lt, on_type=_exclusive((0, "Lt("))),
    MarkerSpec(
        "StringConstraints",
        ("pydantic.types.StringConstraints",),
        tuple(Param(n, None) for n in _STRING_CONSTRAINTS_ARGS),
        "strings",
        _string_constraints,
        _string_constraints_valid,
    ),
)


def _field_pattern_readable(m: Marker) -> str | None:
    pattern = m.values[0]
    if not isinstance(pattern, str):
        return "Field(pattern=) must be a string; write the pattern as a string"
    problem = pattern_problem(pattern)
    return None if problem is None else f"Field(pattern={pattern!r}) cannot be used: {problem}"


def _refused_value(value: object) -> Constraints:
    return NO_CONSTRAINTS


def _plain_string(name: str) -> Callable[[Marker], str | None]:
    def check(m: Marker) -> str | None:
        return None if isinstance(m.values[0], str) else f"{name} must be a plain string; write it as a string"

    return check


#: The rows of pydantic ``Field`` arguments that set a keyword (``core.fields`` maps each
#: argument to its row), never looked up by class: ``Field(ge=1)`` is read as ``Range(1)``
#: is, named as written in every message.
FIELD_GE = MarkerSpec("Field(ge=)", (), (Param("ge"),), "numbers", _ge)
FIELD_LE = MarkerSpec("Field(le=)", (), (Param("le"),), "numbers", _le)
FIELD_GT = MarkerSpec("Field(gt=)", (), (Param("gt"),), "numbers", _gt, on_type=_exclusive((0, "Field(gt=")))
FIELD_LT = MarkerSpec("Field(lt=)", (), (Param("lt"),), "numbers", _lt, on_type=_exclusive((0, "Field(lt=")))
FIELD_MIN_LENGTH = MarkerSpec(
    "Field(min_length=)", (), (Param("min_length"),), "strings and arrays", _min_length, _sizes_valid
)
FIELD_MAX_LENGTH = MarkerSpec(
    "Field(max_length=)", (), (Param("max_length"),), "strings and arrays", _max_length, _sizes_valid
)
FIELD_PATTERN = MarkerSpec("Field(pattern=)", (), (Param("pattern"),), "strings", _pattern, _field_pattern_readable)
FIELD_DESCRIPTION = MarkerSpec(
    "Field(description=)",
    (),
    (Param("description"),),
    "any",
    _text,
    _plain_string("Field(description=)"),
    description_rank=2,
)
FIELD_ALIAS = MarkerSpec(
    "Field(alias=)", (), (Param("alias"),), "record fields", _json_name, _plain_string("Field(alias=)")
)
FIELD_DISCRIMINATOR = MarkerSpec(
    "Field(discriminator=)",
    (),
    (Param("discriminator"),),
    "record unions",
    _discriminator,
    _plain_string("Field(discriminator=)"),
)


def _default_in_annotated(m: Marker) -> str | None:
    return (
        f"{m.spec.display} inside Annotated is not read by onellm; give the default after the annotation "
        "(= value, or = Field(default_factory=...))"
    )


#: A ``Field``'s default inside ``Annotated`` (not a constraint: the lowering does not read
#: it from there, so it is refused). Made by ``field_default_marker``.
FIELD_DEFAULT = MarkerSpec("Field(default=)", (), (Param("default"),), "any", _refused_value, _default_in_annotated)
FIELD_DEFAULT_FACTORY = MarkerSpec(
    "Field(default_factory=)", (), (Param("default_factory"),), "any", _refused_value, _default_in_annotated
)
FIELD_ROWS: tuple[MarkerSpec, ...] = (
    FIELD_DEFAULT,
    FIELD_DEFAULT_FACTORY,
    FIELD_GE,
    FIELD_LE,
    FIELD_GT,
    FIELD_LT,
    FIELD_MIN_LENGTH,
    FIELD_MAX_LENGTH,
    FIELD_PATTERN,
    FIELD_DESCRIPTION,
    FIELD_ALIAS,
    FIELD_DISCRIMINATOR,
)

#: A plain string in ``Annotated[T, "text"]``: a description, after ``Description``, ``Doc``
#: and ``Field(description=)``, before the docstring's entry. Made by ``text_marker``.
TEXT = MarkerSpec("a plain string", (), (Param("text"),), "any", _text, description_rank=3)


def text_marker(text: str) -> Marker:
    """The marker a plain string in ``Annotated`` metadata is."""
    return Marker(TEXT, (text,), Constraints(description=text))


def _refused(message: object) -> Constraints:
    return NO_CONSTRAINTS


def _message(m: Marker) -> str | None:
    return str(m.values[0])


#: Metadata both sides refuse (an object onellm does not read, an argument with no meaning
#: on the wire): a marker that sets nothing and whose check is its message, so the walk that
#: judges every marker reports it (OLT013) at its path. Made by ``refusal``, never looked up.
REFUSED = MarkerSpec("refused", (), (Param("message"),), "any", _refused, _message)
#: A marker, default or option whose value the static side cannot compute from the source
#: (OLT014, static only: the runtime has the value).
NOT_COMPUTED = MarkerSpec("not computed", (), (Param("message"),), "any", _refused, _message, code="OLT014")

_ROWS: tuple[MarkerSpec, ...] = (*TABLE, *FIELD_ROWS, TEXT, REFUSED, NOT_COMPUTED)


def refusal(message: str, spec: MarkerSpec = REFUSED) -> Marker:
    """A metadata item reported with ``message`` (the text after ``Parameter 'x': ``)."""
    return Marker(spec, (message,), NO_CONSTRAINTS)


def _row(index: int) -> MarkerSpec:
    return _ROWS[index]


_BY_NAME: dict[str, MarkerSpec] = {name: spec for spec in TABLE for name in spec.static_names}
#: onellm's own classes, read in subclasses too (as ``isinstance`` reads them).
_CLASSES: tuple[tuple[type, MarkerSpec], ...] = tuple(
    (r, spec) for spec in TABLE for r in spec.runtime if not isinstance(r, str)
)


def spec_for_call(fullname: str) -> MarkerSpec | None:
    """The row of a marker class, by the full name a call resolves to (None: not a marker)."""
    return _BY_NAME.get(fullname)


def _spec_for_class(cls: type) -> MarkerSpec | None:
    for base, spec in _CLASSES:
        if issubclass(cls, base):
            return spec
    return _BY_NAME.get(f"{cls.__module__}.{cls.__qualname__}")


#: Each metadata class met, with its row (None: not a marker). Bounded.
_BY_CLASS: BoundedCache[type, MarkerSpec | None] = BoundedCache(1024)


def read_object(meta: object) -> Marker | None:
    """The marker an ``Annotated`` metadata object is, read through its row; None for
    metadata that is not a marker, or sets nothing onellm reads."""
    cls = type(meta)
    try:
        spec = _BY_CLASS[cls]
    except KeyError:
        spec = _spec_for_class(cls)
        _BY_CLASS.put(cls, spec)
    if spec is None:
        return None
    try:
        values = spec.values_of(meta)
    except AttributeError:  # an instance that lacks an attribute reads it as None
        values = tuple(getattr(meta, p.name, None) for p in spec.signature)
    constraints = spec.read(*values)  # spec.reading(values), one call fewer
    return None if constraints is None else Marker(spec, values, constraints)


# -- what a marker fits


_NUMBERS = frozenset({ScalarKind.INT, ScalarKind.FLOAT, ScalarKind.DECIMAL})
_STRINGS = frozenset({ScalarKind.STR, ScalarKind.CHAR})


def _is_string(target: TypeNode) -> bool:
    return isinstance(target, Scalar) and target.kind in _STRINGS


def _is_array(target: TypeNode) -> bool:
    return isinstance(target, ArrayType) or (isinstance(target, JsonType) and target.kind == "array")


def _is_record_union(target: TypeNode) -> bool:
    return isinstance(target, UnionType) and rules.record_members(target) is not None


_FITS: dict[Fits, Callable[[TypeNode], bool]] = {
    "any": lambda target: True,
    "numbers": lambda target: isinstance(target, Scalar) and target.kind in _NUMBERS,
    "strings": _is_string,
    "strings and arrays": lambda target: _is_string(target) or _is_array(target),
    "record fields": lambda target: True,
    "record unions": _is_record_union,
}


def fits(spec: MarkerSpec, target: TypeNode) -> bool:
    """Whether the marker applies to ``target`` (the type under its wrappers)."""
    return _FITS[spec.fits](target)


# -- merging


def merged(markers: tuple[Marker, ...]) -> Constraints:
    """What the markers of one ``Annotated`` set together: for each field, the last marker
    that sets it wins, but a description goes by its row's rank first."""
    if len(markers) == 1:
        return markers[0].constraints
    minimum = maximum = None
    min_length = max_length = None
    pattern = form = description = json_name = discriminator = None
    rank = 0
    for m in markers:
        c = m.constraints
        if c.minimum is not None:
            minimum = c.minimum
        if c.maximum is not None:
            maximum = c.maximum
        if c.min_length is not None:
            min_length = c.min_length
        if c.max_length is not None:
            max_length = c.max_length
        if c.pattern is not None:
            pattern = c.pattern
        if c.format is not None:
            form = c.format
        if c.description is not None and (description is None or m.spec.description_rank <= rank):
            description, rank = c.description, m.spec.description_rank
        if c.json_name is not None:
            json_name = c.json_name
        if c.discriminator is not None:
            discriminator = c.discriminator
    return Constraints(minimum, maximum, min_length, max_length, pattern, form, description, json_name, discriminator)


def _over(inner: Constraints, outer: Constraints) -> Constraints:
    """``outer``'s fields where it sets them, else ``inner``'s (an outer layer wins)."""
    if inner is NO_CONSTRAINTS:
        return outer
    return Constraints(
        outer.minimum if outer.minimum is not None else inner.minimum,
        outer.maximum if outer.maximum is not None else inner.maximum,
        outer.min_length if outer.min_length is not None else inner.min_length,
        outer.max_length if outer.max_length is not None else inner.max_length,
        outer.pattern if outer.pattern is not None else inner.pattern,
        outer.format if outer.format is not None else inner.format,
        outer.description if outer.description is not None else inner.description,
        outer.json_name if outer.json_name is not None else inner.json_name,
        outer.discriminator if outer.discriminator is not None else inner.discriminator,
    )


def scalar_constraints(node: Scalar) -> Constraints:
    """The bounds a scalar type has of its own (a sized integer's range, a ``Char``'s one
    code point), as its schema fragment writes them."""
    if node.minimum is not None:
        return Constraints(minimum=node.minimum, maximum=node.maximum)
    if node.kind == ScalarKind.CHAR:
        return _CHAR
    return NO_CONSTRAINTS


_CHAR = Constraints(min_length=1, max_length=1)


def constraints_of(node: TypeNode) -> Constraints:
    """Every bound on ``node`` as its schema writes it, for the binder to enforce: a
    scalar's own (``scalar_constraints``), then what the markers on each ``Annotated``
    around it set, each layer over the ones inside it (through ``Nullable``)."""
    layers: list[tuple[Marker, ...]] = []
    while isinstance(node, (Annotated, Nullable)):
        if isinstance(node, Annotated):
            layers.append(node.markers)
        node = node.inner
    out = scalar_constraints(node) if isinstance(node, Scalar) else NO_CONSTRAINTS
    for layer in reversed(layers):
        out = _over(out, merged(layer))
    return out
