"""First try: tools as users of openai-agents, pydantic-ai, the MCP Python SDK (FastMCP) and its
reference servers, LangChain and Semantic Kernel write them, with only the decorator swapped for
onellm's ``@tool``. Every item written here either appears in the schema or is reported by both
sides (OLT014: by the static side, while the runtime writes the value); ../README.md lists each
item with its expected outcome. Tools carrying an ``# expect:`` comment are refused; the others
are in ``golden/first_try.json``.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from enum import Enum
from pathlib import Path
from typing import Annotated

import annotated_types as at
from annotated_types import Gt, Lt
from pydantic import AfterValidator, BaseModel, Field

from onellm_runtime import tool

LOCAL_TZ = "Europe/Warsaw"
DICTIONARY = "Oxford English Dictionary"


def _system_tz() -> str:
    return "Europe/Warsaw"


class Unit(str, Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


class Address(BaseModel):
    street: str = Field(description="Street and house number")
    city: str
    postcode: Annotated[str, Field(pattern=r"^\d{2}-\d{3}$")]


class ShippingQuote(BaseModel):
    carrier: str
    price: Annotated[float, Field(ge=0, description="Price in euros")]
    days: int


class SearchArgs(BaseModel):
    query: str = Field(..., description="What to search for")
    top_k: int = Field(default=5, ge=1, le=50, description="How many hits to return")


# openai-agents: a plain-string description, a str enum default.
@tool
def get_weather(city: Annotated[str, "The city to get the weather for"], unit: Unit = Unit.CELSIUS) -> str:
    """Get the current weather for a city."""
    return f"20 degrees {unit.value} in {city}"


# openai-agents: exclusive annotated_types bounds on an integer.
@tool
def refund(order_id: Annotated[str, "The order to refund"], amount: Annotated[int, Gt(0), Lt(100_000)]) -> str:
    """Refund an order, in cents."""
    return f"{amount} back on {order_id}"


# MCP SDK: Field(...) as each parameter's default, with and without a default value.
@tool
def greet_user(
    name: str = Field(description="The name to greet"),
    title: str = Field(description="Optional title like Mr/Ms/Dr", default=""),
    times: int = Field(description="Number of times to repeat the greeting", default=1, ge=1, le=10),
) -> str:
    """Greet a user, optionally with a title."""
    return (f"Hello {title} {name}! " * times).strip()


# MCP memory server: a list parameter whose default is Field(description=...) only.
@tool
def add_observations(
    entity_name: str = Field(description="The entity to add to"),
    contents: list[str] = Field(description="The observations to add"),
) -> str:
    """Add observations to an entity."""
    return f"{len(contents)} added to {entity_name}"


# FastMCP: Field bounds in Annotated on a list.
@tool
def tag_document(doc_id: str, tags: Annotated[list[str], Field(max_length=10, description="At most ten tags")]) -> str:
    """Tag a document."""
    return doc_id


# pydantic-ai: a model as the parameter and a model as the return.
@tool
def quote_shipping(to: Address, weight_kg: Annotated[float, Field(ge=0.1, le=30, description="Parcel weight")]) -> ShippingQuote:
    """Quote the cheapest shipping to an address."""
    return ShippingQuote(carrier="post", price=4.5, days=2)


# pydantic-ai: an exclusive bound on a float (refused: no exact inclusive bound exists).
@tool
def set_thermostat(
    celsius: Annotated[float, Field(gt=-273.15, description="Target temperature")],  # expect: OLT013
) -> str:
    """Set the thermostat."""
    return ""


# MCP time server: an f-string description of a module constant; one of a call's result.
@tool
def get_current_time(
    timezone: str = Field(description=f"IANA timezone name; use '{LOCAL_TZ}' if the user gives none"),
    fallback: str = Field(default="UTC", description=f"Zone used when '{_system_tz()}' is unknown"),  # expect-static: OLT014
) -> str:
    """Get the current time in a timezone."""
    return timezone


# pydantic-ai / FastMCP: a multiple_of argument and a validator (both refused).
@tool
def split_bill(
    total_cents: Annotated[int, Field(multiple_of=5, description="Total, in cents")],  # expect: OLT013
    payer: Annotated[str, AfterValidator(str.strip)],  # expect: OLT013
) -> str:
    """Split a bill between friends."""
    return ""


# Semantic Kernel: a plugin that is a BaseModel subclass, descriptions as plain strings.
class OrdersPlugin(BaseModel):
    store: str = "main"

    @tool(description="Get the status of an order")
    def order_status(self, order_id: Annotated[str, "The order id"]) -> Annotated[int, "Days until it arrives"]:
        return 2


# Semantic Kernel / LangChain: a pathlib.Path parameter (refused: the fix is str).
@tool
def read_notes(
    path: Path,  # expect: OLT005
) -> str:
    """Read a notes file."""
    return ""


# LangChain: the args_schema model, Field(...) for a required field, as the one parameter.
@tool
def search(args: SearchArgs) -> list[str]:
    """Search the knowledge base."""
    return [args.query][: args.top_k]


# Any peer: computed values (arithmetic in a bound, string + in a @tool option).
@tool(description="Look up a word in the " + DICTIONARY + ".")
def define(word: Annotated[str, "The word"], minutes: Annotated[int, "Time budget", at.Ge(0), at.Le(24 * 60)] = 5) -> str:
    return word


# Blender MCP server: a bulleted parameter list under "Parameters:", usage notes after it.
@tool
def get_object_info(object_name: str, detail: int = 1) -> str:
    """
    Get detailed information about a specific object in the scene.

    Parameters:
    - object_name: The name of the object to get information about
    - detail: How much to tell, from 1 to 3;
      3 lists every vertex group.

    Usage notes:
    - call get_scene_info first to learn the names
    """
    return object_name


# pydantic-ai / LangChain: Google Args, then Returns and Raises.
@tool
def lookup_invoice(number: str) -> str:
    """Look up an invoice by its number.

    Args:
        number: The invoice number, such as ``INV-7``.

    Returns:
        The invoice as text.

    Raises:
        KeyError: When no invoice has that number.
    """
    return number


# LangChain: Sphinx fields.
@tool
def search_wiki(query: str, lang: str = "en") -> str:
    """Search the wiki.

    :param query: Words to search for.
    :param lang: Language edition, as a
        two-letter code.
    :returns: The best page's summary.
    """
    return query
