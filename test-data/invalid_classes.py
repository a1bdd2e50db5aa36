"""Faulty tools in classes: OLT007 (duplicate names, also with a base class's tool), OLT010
(generic class), OLT001 (a staticmethod or classmethod applied on top of @tool).

Uses ``from __future__ import annotations``. See README.md for the ``# expect:`` convention.
The runtime raises OLT007 and OLT010 when the class is created, and OLT001 here from
``tools_of``.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from onellm_runtime import tool

T = TypeVar("T")


class SameMethodName:
    @tool
    def search(self, query: str) -> str:
        return query

    @tool(name="search")
    def search_again(self, query: str) -> str:  # expect: OLT007
        return query


class SameDerivedName:
    @tool
    def get_item(self, key: str) -> str:
        return key

    @tool
    async def get_item_async(self, key: str) -> str:  # expect: OLT007
        return key

    @tool
    def GetItem(self, key: str) -> str:  # expect: OLT007
        return key


class GenericBox(Generic[T]):
    @tool
    def put(self, item: str) -> str:  # expect: OLT010
        return item


class StaticOnTop:
    @staticmethod
    @tool
    def version() -> str:  # expect: OLT001
        return "1"


class ClassOnTop:
    @classmethod
    @tool
    def kinds(cls) -> list[str]:  # expect: OLT001
        return []


class Catalog:
    @tool(name="search")
    def find(self, query: str) -> str:
        return query

    @tool
    def describe(self, sku: str) -> str:
        return sku


class ShopCatalog(Catalog):
    """Offers its base's tools too, so a name may not come back."""

    @tool
    def search(self, query: str) -> str:  # expect: OLT007
        return query

    @tool
    def describe(self, sku: str) -> str:  # an override keeps one 'describe'
        return sku.upper()


class TwoUnnamed:
    """Two tools with one invalid name: each is OLT008, and neither is a second tool (OLT007)."""

    @tool(name="read file")
    def read(self, path: str) -> str:  # expect: OLT008
        return path

    @tool(name="read file")
    def read_again(self, path: str) -> str:  # expect: OLT008
        return path
