"""The functions every implementation is measured on, and the argument documents.

Every peer gets the very same function objects and JSON bytes. The shapes are written
so that each library reads them the same way:

* enums have values equal to their names, because onellm binds an ``Enum`` by member
  name while pydantic and msgspec bind it by value; the same document suits all three;
* numeric bounds use ``annotated_types`` markers (``Ge``/``Le``), which onellm and
  pydantic both enforce (when that package is missing, onellm's own ``Range`` is used and
  the peers simply ignore it).

A *fresh* function per iteration (``fresh_function``) is its ``def`` statement executed
again, as if a module defined many tools: a new function object with new annotation
objects, its own name and its own docstring text, so no per-function, per-annotation-object
or per-docstring cache can help any implementation. Record classes are shared on purpose:
onellm lowers a record once per class, and building many tools over the same records is
the common case. ``fresh_records`` makes new classes for the "cold" variant, where
nothing can be cached.
"""

import __future__

import dataclasses
import enum
import functools
import inspect
import json
import sys
import textwrap
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, NamedTuple, Optional

from typing_extensions import Annotated, NotRequired, Required, TypedDict

try:
    from annotated_types import Ge, Le

    LIMIT_BOUNDS: tuple[object, ...] = (Ge(1), Le(50))
    QTY_BOUNDS: tuple[object, ...] = (Ge(1), Le(1000))
except ImportError:  # pragma: no cover - annotated-types ships with the dev extra and pydantic
    from onellm_runtime import Range

    LIMIT_BOUNDS = (Range(1, 50),)
    QTY_BOUNDS = (Range(1, 1000),)

Limit = Annotated[int, LIMIT_BOUNDS[0], LIMIT_BOUNDS[-1]]
Quantity = Annotated[int, QTY_BOUNDS[0], QTY_BOUNDS[-1]]


class Priority(enum.Enum):
    LOW = "LOW"
    NORMAL = "NORMAL"
    HIGH = "HIGH"


@dataclass
class Address:
    """A postal address.

    Attributes:
        street: Street and number.
        city: The city.
        zip_code: The postal code, when there is one.
    """

    street: str
    city: str
    zip_code: Optional[str] = None


@dataclass
class Customer:
    """A customer.

    Attributes:
        name: Full name.
        address: Where they live.
        tags: Free-form labels.
    """

    name: str
    address: Address
    tags: list[str] = field(default_factory=list)


@dataclass
class LineItem:
    """One line of an order.

    Attributes:
        sku: The stock-keeping unit.
        quantity: How many.
        unit_price: Price of one, in the order currency.
        gift: Whether to gift-wrap it.
    """

    sku: str
    quantity: Quantity
    unit_price: float
    gift: bool = False


class Leg(NamedTuple):
    origin: str
    destination: str
    nights: int


class Traveller(TypedDict):
    name: Required[str]
    loyalty_id: NotRequired[str]


# --- the tool functions (sync: schema build and binding) --------------------------------


def create_ticket(
    customer: Customer, title: str, priority: Priority, due_days: Optional[int], notify: bool = True
) -> str:
    """Open a support ticket for a customer.

    Args:
        customer: The customer the ticket is for.
        title: A one-line summary.
        priority: How urgent it is.
        due_days: Days until it is due, or null for none.
        notify: Whether to e-mail the customer.
    """
    return title


def search_docs(
    query: str, limit: Limit = 10, kind: Literal["article", "faq"] = "article", tags: Optional[list[str]] = None
) -> str:
    """Search the help centre.

    Args:
        query: Words to look for.
        limit: How many hits to return.
        kind: Which kind of page.
        tags: Only pages with all of these tags.
    """
    return query


def get_time(timezone: str) -> str:
    """The current time in a time zone.

    Args:
        timezone: An IANA zone name such as Europe/Paris.
    """
    return timezone


def place_order(customer: Customer, items: list[LineItem], note: Optional[str] = None, express: bool = False) -> str:
    """Place an order.

    Args:
        customer: Who orders.
        items: What is ordered.
        note: A note for the warehouse.
        express: Ship by express.
    """
    return "ok"


def _build_shapes() -> list[tuple[str, Callable[..., Any]]]:
    from .shapes_postponed import plan_trip

    return [
        ("ticket: record+enum+Optional, 5 params", create_ticket),
        ("search: Literal, bounds, list, 4 params", search_docs),
        ("trip: TypedDict+NamedTuple, string annotations", plan_trip),
        ("time: one str param", get_time),
    ]


#: The schema-build shapes: (label, function). The first is the main shape (the one the cold table and the docstring target use).
BUILD_SHAPES = _build_shapes()


# --- the same tools as coroutines (invoke: no worker thread in anyone's path) -----------


async def search_docs_async(
    query: str, limit: Limit = 10, kind: Literal["article", "faq"] = "article", tags: Optional[list[str]] = None
) -> str:
    """Search the help centre.

    Args:
        query: Words to look for.
        limit: How many hits to return.
        kind: Which kind of page.
        tags: Only pages with all of these tags.
    """
    return query


async def create_ticket_async(
    customer: Customer, title: str, priority: Priority, due_days: Optional[int], notify: bool = True
) -> str:
    """Open a support ticket for a customer.

    Args:
        customer: The customer the ticket is for.
        title: A one-line summary.
        priority: How urgent it is.
        due_days: Days until it is due, or null for none.
        notify: Whether to e-mail the customer.
    """
    return title


async def place_order_async(
    customer: Customer, items: list[LineItem], note: Optional[str] = None, express: bool = False
) -> str:
    """Place an order.

    Args:
        customer: Who orders.
        items: What is ordered.
        note: A note for the warehouse.
        express: Ship by express.
    """
    return "ok"


# --- argument documents -----------------------------------------------------------------

_CUSTOMER = {
    "name": "Ada Lovelace",
    "address": {"street": "12 St James's Square", "city": "London", "zip_code": None},
    "tags": ["vip", "eu"],
}

SMALL_DOC = json.dumps({"query": "refund policy", "limit": 5, "kind": "faq"})
MEDIUM_DOC = json.dumps(
    {"customer": _CUSTOMER, "title": "Printer on fire", "priority": "HIGH", "due_days": 3, "notify": False}
)
LARGE_DOC = json.dumps(
    {
        "customer": _CUSTOMER,
        "items": [
            {"sku": f"SKU-{i:05d}", "quantity": 1 + i % 7, "unit_price": 9.5 + i, "gift": i % 10 == 0}
            for i in range(100)
        ],
        "note": "Leave at the door",
        "express": True,
    }
)

#: The binding documents: (label, sync function, async function, raw JSON).
BIND_DOCS: list[tuple[str, Callable[..., Any], Callable[..., Any], str]] = [
    ("small: 3 scalars", search_docs, search_docs_async, SMALL_DOC),
    ("medium: nested records, enum, null", create_ticket, create_ticket_async, MEDIUM_DOC),
    ("large: 100 record items", place_order, place_order_async, LARGE_DOC),
]


# --- fresh objects ----------------------------------------------------------------------


@functools.cache
def _definition(fn: Callable[..., Any]) -> types.CodeType:
    """``fn``'s ``def`` statement, compiled once (under its module's ``__future__`` flags)."""
    module = sys.modules[fn.__module__]
    flags = (
        __future__.annotations.compiler_flag if getattr(module, "annotations", None) is __future__.annotations else 0
    )
    source = textwrap.dedent(inspect.getsource(fn))
    code: types.CodeType = compile(source, inspect.getfile(fn), "exec", flags=flags, dont_inherit=True)
    return code


def fresh_function(fn: Callable[..., Any], i: int, names: dict[str, Any] | None = None) -> Callable[..., Any]:
    """``fn`` defined anew, as if it were the i-th tool of a module: its ``def`` statement is
    executed again, so the function object and its annotation objects are new (``list[str]``
    is a new object each time; what ``typing`` caches itself, such as ``Optional[int]``, is
    shared, as it is between the functions of a real module). It gets its own name, and
    ``(variant i)`` in its docstring's summary, so no cache keyed by a function or by
    docstring text (onellm parses each distinct docstring once) can serve a later iteration.
    ``names`` overrides module globals it refers to (new record classes, see ``fresh_records``).
    """
    module = sys.modules[fn.__module__]
    scope = module.__dict__ if names is None else {**module.__dict__, **names}
    defined: dict[str, Any] = {}
    exec(_definition(fn), scope, defined)
    new: Callable[..., Any] = defined[fn.__name__]
    doc = fn.__doc__ or ""
    first, _, rest = doc.partition("\n")
    new.__doc__ = f"{first.rstrip('.')} (variant {i}).\n{rest}"
    new.__name__ = new.__qualname__ = f"{fn.__name__}_{i}"
    return new


def fresh_records(i: int) -> dict[str, Any]:
    """New ``Priority``, ``Address`` and ``Customer`` classes, for ``fresh_function(create_ticket, i, ...)``:
    with them nothing that onellm (or a peer) caches per class can apply."""
    prio = enum.Enum(f"Priority{i}", [("LOW", "LOW"), ("NORMAL", "NORMAL"), ("HIGH", "HIGH")])  # type: ignore[misc]
    address = dataclasses.make_dataclass(
        f"Address{i}",
        [("street", str), ("city", str), ("zip_code", Optional[str], dataclasses.field(default=None))],
    )
    address.__doc__ = Address.__doc__
    customer = dataclasses.make_dataclass(
        f"Customer{i}",
        [("name", str), ("address", address), ("tags", list[str], dataclasses.field(default_factory=list))],
    )
    customer.__doc__ = Customer.__doc__
    return {"Customer": customer, "Address": address, "Priority": prio}


def args_typeddict(fn: Callable[..., Any]) -> Any:
    """A TypedDict of ``fn``'s parameters (required unless defaulted): what a strict
    validator of the *arguments alone* is given, for the peers that have no such notion."""
    hints = typing.get_type_hints(fn, include_extras=True)
    code = fn.__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    n_defaults = len(fn.__defaults__ or ())
    optional = set(names[len(names) - n_defaults :]) if n_defaults else set()
    optional |= set(fn.__kwdefaults__ or {})
    fields = {n: (NotRequired[hints[n]] if n in optional else Required[hints[n]]) for n in names}
    return TypedDict(f"{fn.__name__}_args", fields)  # type: ignore[operator]
