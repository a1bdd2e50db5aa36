"""pydantic models and ``Field`` defaults that onellm refuses.

A model whose written form differs from its fields (``computed_field``, a field or model
serializer, ``alias_generator``, ``serialization_alias``, a ``RootModel``) is OLT005, naming the
feature, as a parameter, a field or a return; a ``Field(...)`` as the default of a stdlib
dataclass or NamedTuple field is OLT013 (the class would store the ``FieldInfo``); a
``Field(...)`` parameter default with an argument onellm does not read is OLT013.
Uses ``from __future__ import annotations``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    computed_field,
    field_serializer,
    model_serializer,
)
from pydantic.alias_generators import to_camel

from onellm_runtime import tool


class Cart(BaseModel):
    price: int
    count: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total(self) -> int:
        return self.price * self.count


class Money(BaseModel):
    cents: int

    @field_serializer("cents")
    def as_text(self, cents: int) -> str:
        return f"{cents / 100:.2f}"


class Point(BaseModel):
    x: int
    y: int

    @model_serializer
    def as_pair(self) -> dict[str, Any]:
        return {"xy": [self.x, self.y]}


class Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel)

    first_name: str


class Renamed(BaseModel):
    count: int = Field(serialization_alias="totalCount")


class Tags(RootModel[list[str]]):
    pass


class Holder(BaseModel):
    cart: Cart


@tool
def checkout(
    cart: Cart,  # expect: OLT005
    money: Money,  # expect: OLT005
    point: Point,  # expect: OLT005
) -> str:
    return ""


@tool
def greet(
    person: Camel,  # expect: OLT005
    renamed: Renamed,  # expect: OLT005
    tags: Tags,  # expect: OLT005
    holder: Holder,  # expect: OLT005
) -> str:
    return ""


@tool
def price_of(
    sku: str,
) -> Cart:  # expect: OLT005
    return Cart(price=1, count=1)


@dataclass
class Box:
    size: int = Field(default=3, ge=1)


class Pair(NamedTuple):
    label: str = Field(description="A label")


@tool
def pack(
    box: Box,  # expect: OLT013
    pair: Pair,  # expect: OLT013
) -> str:
    return ""


@tool
def search(
    query: str = Field(alias="q"),  # expect: OLT013
    limit: int = Field(10, title="Limit"),  # expect: OLT013
) -> str:
    return query
