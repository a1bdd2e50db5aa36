"""The compiler: a tool's type model to one specialised check per node."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, cast

from ..core import markers, rules
from ..core.model import (
    Annotated,
    ArrayType,
    Constraints,
    EnumType,
    JsonType,
    LiteralType,
    MapType,
    Nullable,
    Record,
    Scalar,
    ScalarKind,
    ToolModel,
    TypeNode,
    UnionType,
)
from .checks import (
    Bulk,
    bool_check,
    bulk_for,
    decimal_check,
    enum_check,
    enum_table,
    float_check,
    int_check,
    literal_check,
    parsed_check,
    string_check,
)
from .containers import array_check, json_check, map_check, or_null
from .makers import KEYWORDS, maker_for
from .models import made_check, model_builder
from .records import Body, Field, Many, record_check, union_check
from .state import Check


def _nullable(node: TypeNode) -> bool:
    while isinstance(node, (Annotated, Nullable)):
        if isinstance(node, Nullable):
            return True
        node = node.inner
    return False


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None


class Compiler:
    """Compiles one tool's nodes; ``uses_decimal``: some check needs numbers read exactly."""

    def __init__(self, naming: str | None) -> None:
        self.naming: str | None = naming
        self.uses_decimal: bool = False
        #: How many records the node being compiled is inside. Outside any, a checked list (of
        #: scalars, or in a JSON value) is the reader's own list, unchanged: no code of the
        #: user's sees it before binding ends. Inside one, a constructor or validator could
        #: change it before a second pass reads the same document again, so each bound list
        #: is a copy.
        self._records = 0

    def node(self, node: TypeNode) -> Check:
        nullable = _nullable(node)
        check = self._base(node, rules.strip(node), nullable)
        return or_null(check) if nullable else check

    def _base(self, node: TypeNode, base: TypeNode, nullable: bool) -> Check:
        or_null = " or null" if nullable else ""
        if isinstance(base, Scalar):
            check = self._scalar(base, markers.constraints_of(node), or_null)
            return check if base.make is None else made_check(check, cast("Callable[[str], Any]", base.make))
        if isinstance(base, EnumType):
            return enum_check(base, nullable)
        if isinstance(base, LiteralType):
            return literal_check(base, nullable)
        if isinstance(base, UnionType):
            literal = rules.merged_literal(base)
            if literal is not None:
                return literal_check(literal, nullable)
            return self._union(base, rules.discriminator(node), nullable)[0]
        if isinstance(base, ArrayType):
            c = markers.constraints_of(node)
            item, many = self._item(base.item)
            bulk = None if rules.strip(base.item) is not base.item else self._bulk(base.item, not self._records)
            return array_check(
                item,
                base.kind,
                _int_or_none(c.min_length),
                _int_or_none(c.max_length),
                "an array" + or_null,
                bulk,
                many,
            )
        if isinstance(base, MapType):
            return map_check(self.node(base.value), "an object" + or_null)
        if isinstance(base, JsonType):
            c = markers.constraints_of(node)
            return json_check(
                base.kind, _int_or_none(c.min_length), _int_or_none(c.max_length), nullable, not self._records
            )
        if isinstance(base, Record):
            return record_check(self._body(base, None), "an object" + or_null)
        raise TypeError(f"no binder for {base!r}; check the tool with diagnostics.check_tool first")

    def _scalar(self, base: Scalar, c: Constraints, or_null: str) -> Check:
        """The check of the kind's row: its reader for a string form, else the check of its JSON values."""
        row = base.kind.row
        expect = row.expect + or_null
        if row.read is not None:
            return parsed_check(expect, row.read, row.hint or "")
        lo, hi = c.minimum, c.maximum
        python = row.python
        if python is bool:
            return bool_check(expect)
        if python is int:
            return int_check(lo, hi, expect)
        if python is float:
            return float_check(lo, hi, expect)
        if python is Decimal:
            self.uses_decimal = True
            return decimal_check(lo, hi, expect)
        if python is str:
            return string_check(
                expect,
                _int_or_none(c.min_length),
                _int_or_none(c.max_length),
                c.pattern,
                c.format if c.format in ("email", "uri") else None,
            )
        raise TypeError(f"no check for the JSON values of {row.key!r}: give its row a reader")

    def _item(self, item: TypeNode) -> tuple[Check, Many | None]:
        """An array item's check, and for a plain record or discriminated union its fast pass
        over the whole array (``Many``)."""
        if isinstance(item, Record):
            body = self._body(item, None)
            return record_check(body, "an object"), body.many
        if isinstance(item, UnionType) and rules.merged_literal(item) is None:
            return self._union(item, rules.discriminator(item), False)
        return self.node(item), None

    def _bulk(self, item: TypeNode, keep: bool) -> Bulk | None:
        if not isinstance(item, Scalar):
            return None
        kind = {ScalarKind.STR: "str", ScalarKind.INT: "int", ScalarKind.FLOAT: "float", ScalarKind.BOOL: "bool"}
        name = kind.get(item.kind)
        if name is None:
            return None
        c = markers.scalar_constraints(item)
        return bulk_for(name, c.minimum, c.maximum, keep)

    def _fields(self, record: Record, tag: tuple[str, str] | None) -> list[Field]:
        out: list[Field] = []
        self._records += 1
        try:
            for f in record.fields:
                wire = rules.wire_name(f, self.naming)
                required = f.required or (tag is not None and f.name == tag[0])
                out.append(Field(wire, f.name, self.node(f.type), required, _nullable(f.type), self._spec(f.type)))
        finally:
            self._records -= 1
        return out

    def _spec(self, node: TypeNode) -> tuple[Any, ...]:
        """How a generated fast path may check a value of ``node`` inline (see ``codegen._inline``)."""
        base = rules.strip(node)
        if isinstance(base, Scalar):
            if base.make is not None:
                return ("call",)  # built into a class after its check
            c = markers.constraints_of(node)
            if base.kind == ScalarKind.STR:
                plain = c.min_length is None and c.max_length is None and c.pattern is None and c.format is None
                return ("str",) if plain else ("call",)
            if base.kind in (ScalarKind.INT, ScalarKind.FLOAT):
                return (base.kind.value, c.minimum, c.maximum)
            if base.kind == ScalarKind.BOOL:
                return ("bool",)
        if isinstance(base, ArrayType) and base.kind in ("list", "tuple") and isinstance(base.item, Scalar):
            c = markers.constraints_of(node)
            item = self._spec(base.item)
            if c.min_length is None and c.max_length is None and item[0] in ("str", "int", "float", "bool"):
                bounds = item[1:3] if item[0] in ("int", "float") else (None, None)
                return ("list", item[0], bounds[0], bounds[1], base.kind, not self._records)
        if isinstance(base, EnumType) and base.origin is not None:
            return ("table", enum_table(base))
        if isinstance(base, LiteralType) and rules.literal_json_type(base.values[0]) == "string":
            return ("table", {v: v for v in base.values})
        return ("call",)

    def _body(
        self,
        record: Record,
        tag: tuple[str, str] | None,
        owners: Mapping[str, list[str]] | None = None,
    ) -> Body:
        build: Callable[..., Any] | None = None
        maker = KEYWORDS
        if record.kind == "basemodel":
            build, maker = model_builder(record, self.naming)
        elif record.kind != "typeddict":
            build = record.origin if callable(record.origin) else None
            if build is None:
                build = _plain_dict
            else:
                maker = maker_for(record)
        return Body(self._fields(record, tag), build, None if tag is None else tag[1], owners, maker=maker)

    def _union(self, node: UnionType, explicit: str | None, nullable: bool) -> tuple[Check, Many]:
        found = rules.find_discriminator(node, explicit)
        if isinstance(found, str):
            raise TypeError(f"union {node!r} has no discriminator; check the tool first")
        wires: list[str] = []
        fields_of: dict[str, list[str]] = {}
        for member, tag in zip(found.members, found.tags):
            for f in member.fields:
                wire = rules.wire_name(f, self.naming)
                if f.name == found.field:
                    if wire not in wires:
                        wires.append(wire)
                else:
                    fields_of.setdefault(wire, []).append(tag)
        bodies: dict[str, Body] = {}
        for member, tag in zip(found.members, found.tags):
            own = {rules.wire_name(f, self.naming) for f in member.fields}
            owners = {w: [t for t in tags if t != tag] for w, tags in fields_of.items() if w not in own}
            bodies[tag] = self._body(member, (found.field, tag), owners)
        return union_check(bodies, tuple(wires), "an object" + (" or null" if nullable else ""), nullable)

    def top(self, tool: ToolModel) -> Body:
        """The body of the tool's parameters."""
        params = rules.model_params(tool)
        fields = [
            Field(p.name, p.name, self.node(p.type), not p.default.present, _nullable(p.type), self._spec(p.type))
            for p in params
        ]
        chosen = tool.options.invocation_mode == "model_choice"
        mode = literal_check(LiteralType(("wait", "background")), False) if chosen else None
        fills = {p.name: p.fill for p in params if p.fill is not None}
        return Body(fields, _filled(cast("dict[str, tuple[str, Any]]", fills)) if fills else None, None, None, mode)


def _plain_dict(**kwargs: Any) -> dict[str, Any]:
    return kwargs


def _filled(fills: dict[str, tuple[str, Any]]) -> Callable[..., dict[str, Any]]:
    """The keyword arguments with what a pydantic ``Field`` default supplies for each parameter
    left out: its ``default``, or a fresh call of its ``default_factory`` (never the ``FieldInfo``)."""

    def build(**kwargs: Any) -> dict[str, Any]:
        for name, (how, value) in fills.items():
            if name not in kwargs:
                kwargs[name] = value() if how == "factory" else value
        return kwargs

    return build
