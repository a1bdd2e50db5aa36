"""pydantic ``BaseModel`` classes as the static front end reads them: from mypy's MRO and the source.

A class is a model when ``pydantic.main.BaseModel`` is in its MRO (not the class itself).
Its fields are the annotated names of its class bodies, base classes first, in the order
pydantic's ``model_fields`` has them (a redefined field keeps its base's place; ``ClassVar``
and ``_private`` names are no fields). What ``front.models.model_feature`` finds at runtime
is read here from the same places in the source, in the same order.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mypy.nodes import TypeInfo

from . import source as src
from .mypy_front import Frontend
from .names import Scope

__all__ = [
    "BASEMODEL",
    "FIELD_FUNCS",
    "is_basemodel",
    "pydantic_dataclass",
    "model_classes",
    "model_field_names",
    "model_feature",
    "frozen",
]

BASEMODEL = "pydantic.main.BaseModel"
_ROOTMODEL = "pydantic.root_model.RootModel"
#: ``Field`` as mypy names it (``pydantic.Field`` is a re-export).
FIELD_FUNCS = frozenset({"pydantic.fields.Field"})
_CLASSVARS = frozenset({"typing.ClassVar", "typing_extensions.ClassVar"})
_DECORATORS = {
    "pydantic.fields.computed_field": "computed_field",
    "pydantic.functional_serializers.field_serializer": "field_serializer",
    "pydantic.functional_serializers.model_serializer": "model_serializer",
}


def is_basemodel(info: TypeInfo) -> bool:
    return any(c.fullname == BASEMODEL for c in info.mro[1:])


def model_classes(info: TypeInfo) -> list[TypeInfo]:
    """The classes of the model's MRO that may declare fields, base classes first (not pydantic's own)."""
    return [c for c in reversed(info.mro) if is_basemodel(c) and not c.module_name.startswith("pydantic.")]


def pydantic_dataclass(fe: Frontend, info: TypeInfo) -> bool:
    """A dataclass made by ``pydantic.dataclasses.dataclass``, which reads a ``Field`` default itself."""
    found = fe.class_ast(info)
    if found is None:
        return False
    return "pydantic.dataclasses.dataclass" in fe.decorator_names(found[1], Scope(info.module_name))


def _head(expr: ast.expr) -> ast.expr:
    return expr.value if isinstance(expr, ast.Subscript) else expr


def _body_statements(fe: Frontend, info: TypeInfo) -> Iterator[tuple[ast.stmt, Scope]]:
    """The statements of each model class's body (bases first), each with its class's scope."""
    for c in model_classes(info):
        found = fe.class_ast(c)
        if found is None:
            continue
        scope = Scope(c.module_name, c, False, False)
        for stmt in found[1].body:
            yield stmt, scope


def model_field_names(fe: Frontend, info: TypeInfo) -> list[str]:
    """``model_fields``' names, in its order."""
    names: dict[str, None] = {}
    for stmt, scope in _body_statements(fe, info):
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        name = stmt.target.id
        if name.startswith("_") or fe.fullname_of(_head(stmt.annotation), scope) in _CLASSVARS:
            continue
        names.setdefault(name, None)
    return list(names)


def _config(fe: Frontend, info: TypeInfo) -> dict[str, ast.expr]:
    """The model's configuration as written: ``model_config = ConfigDict(...)`` or a dict, and
    the class keywords, over its classes (a subclass's setting wins)."""
    settings: dict[str, ast.expr] = {}
    for c in model_classes(info):
        found = fe.class_ast(c)
        if found is None:
            continue
        for stmt in found[1].body:
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
            targets = (
                stmt.targets
                if isinstance(stmt, ast.Assign)
                else [stmt.target]
                if isinstance(stmt, ast.AnnAssign)
                else []
            )
            if value is None or not any(isinstance(t, ast.Name) and t.id == "model_config" for t in targets):
                continue
            if isinstance(value, ast.Call):
                settings.update({kw.arg: kw.value for kw in value.keywords if kw.arg is not None})
            elif isinstance(value, ast.Dict):
                for key, item in zip(value.keys, value.values):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        settings[key.value] = item
        settings.update({kw.arg: kw.value for kw in found[1].keywords if kw.arg is not None})
    return settings


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def frozen(fe: Frontend, info: TypeInfo) -> bool:
    """``frozen=True`` in the model's configuration (its instances are then hashable)."""
    value = _config(fe, info).get("frozen")
    return isinstance(value, ast.Constant) and value.value is True


def _field_calls(fe: Frontend, stmt: ast.AnnAssign, scope: Scope) -> list[ast.Call]:
    """The ``Field(...)`` calls written for one field: its default, and in its ``Annotated``."""
    calls: list[ast.Call] = []
    exprs: list[ast.expr] = [stmt.value] if stmt.value is not None else []
    annotation = stmt.annotation
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple):
        exprs += annotation.slice.elts[1:]
    for e in exprs:
        if isinstance(e, ast.Call) and fe.fullname_of(e.func, scope) in FIELD_FUNCS:
            calls.append(e)
    return calls


def _serialization_alias(fe: Frontend, info: TypeInfo, names: list[str]) -> str:
    sites: dict[str, tuple[ast.AnnAssign, Scope]] = {}
    for c in model_classes(info):
        found = fe.class_ast(c)
        if found is None:
            continue
        for stmt in found[1].body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                sites[stmt.target.id] = (stmt, Scope(c.module_name, c, False, False))
    for name in names:
        site = sites.get(name)
        if site is None:
            continue
        written: dict[str, object] = {}
        for call in _field_calls(fe, *site):
            for kw in call.keywords:
                if kw.arg in ("alias", "serialization_alias"):
                    written[kw.arg] = src.read_constant(kw.value, fe.resolver(site[1]))
        if "serialization_alias" in written and written["serialization_alias"] != written.get("alias"):
            return f"serialization_alias on field '{name}'"
    return ""


def model_feature(fe: Frontend, info: TypeInfo) -> str:
    """``front.models.model_feature``, read from the source."""
    if any(c.fullname == _ROOTMODEL for c in info.mro):
        return "RootModel"
    generator = _config(fe, info).get("alias_generator")
    if generator is not None and not _is_none(generator):
        return "alias_generator"
    decorated: dict[str, list[str]] = {label: [] for label in _DECORATORS.values()}
    for stmt, scope in _body_statements(fe, info):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for name in fe.decorator_names(stmt, scope):
                label = _DECORATORS.get(name)
                if label is not None:
                    decorated[label].append(stmt.name)
    for label in ("computed_field", "field_serializer", "model_serializer"):
        if decorated[label]:
            return f"{label} '{sorted(decorated[label])[0]}'"
    return _serialization_alias(fe, info, model_field_names(fe, info))
