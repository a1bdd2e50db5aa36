"""The OLT codes: every verdict on a tool, and every message, decided from the model alone.

Both the runtime (``ToolDefinitionError``) and the mypy plugin (errors at a line and
column) print what ``check_tool`` and ``check_class`` return, so the two sides say the
same thing in the same words. Messages name the tool, the parameter and the path inside
it, and end with what to do instead: a user should be able to fix the code from them.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import markers, rules
from .caches import BoundedCache
from .codes import CODES  # the table lives apart: the mypy plugin loads it alone
from .model import (
    MAX_RECORD_DEPTH,
    Annotated,
    ArrayType,
    ClassModel,
    Default,
    EnumType,
    JsonType,
    LiteralType,
    MapType,
    Marker,
    NotARecord,
    Nullable,
    Param,
    Record,
    Scalar,
    SelfReference,
    ToolModel,
    TypeNode,
    TypeVarRef,
    UnionType,
    Unsupported,
)
from .options import OPTION_NAMES

__all__ = [
    "CODES",
    "Diagnostic",
    "Offered",
    "check_tool",
    "check_class",
    "check_offered_together",
    "duplicate_message",
    "IN_A_TOOL_SET",
    "in_module",
    "type_name",
]


@dataclass(frozen=True)
class Diagnostic:
    """One finding. ``loc`` is the ``Param.loc`` or ``ToolModel.loc`` it belongs at."""

    code: str
    message: str
    loc: object = None


def type_name(node: TypeNode) -> str:
    """A short, front-end-neutral name for a type, for messages."""
    if isinstance(node, Scalar):
        return node.alias or node.kind.row.label
    if isinstance(node, (EnumType, Record)):
        return node.name
    if isinstance(node, (NotARecord, SelfReference, TypeVarRef)):
        return node.name
    if isinstance(node, LiteralType):
        return "Literal[" + ", ".join(repr(v) for v in node.values) + "]"
    if isinstance(node, Nullable):
        return type_name(node.inner) + " | None"
    if isinstance(node, Annotated):
        return type_name(node.inner)
    if isinstance(node, ArrayType):
        return f"{node.kind}[{type_name(node.item)}" + (", ...]" if node.kind == "tuple" else "]")
    if isinstance(node, MapType):
        return f"dict[str, {type_name(node.value)}]"
    if isinstance(node, JsonType):
        return {"value": "JsonValue", "object": "JsonObject", "array": "JsonArray"}[node.kind]
    if isinstance(node, UnionType):
        return " | ".join(type_name(m) for m in node.members)
    return node.name or node.reason


_UNSUPPORTED: dict[str, str] = {
    "any": "'Any' has no schema; use a concrete type, or JsonValue to accept any JSON value",
    "object": "'object' has no schema; use a concrete type, or JsonValue to accept any JSON value",
    "missing": "has no type annotation; annotate it (for example 'str' or 'int')",
    "callable": "a callable has no schema (a model can only send JSON data); take a name or a record instead",
    "protocol": "'{name}' is a protocol or abstract class and has no schema; use a concrete dataclass, NamedTuple or TypedDict",
    "bare": "'{name}' needs type arguments (for example 'list[str]' or 'dict[str, int]')",
    "dict_key": "dictionary keys must be 'str' (JSON object keys are strings); use 'dict[str, ...]' or a list of records",
    "fixed_tuple": "a fixed-length tuple has no schema; use 'tuple[T, ...]', 'list[T]' or a NamedTuple",
    "flag": "'{name}' is an enum.Flag, which has no schema; use a plain Enum, or a set of one",
    "mixed_literal": "the Literal mixes JSON types; use values of one type (all strings, all integers or all booleans)",
    "union": "a union has no schema unless it is 'X | None' or a union of records with a discriminator; use one type, or records with a Literal tag field",
    "unhashable": "set items must be hashable and equal by value, and '{name}' is not; use a list instead of the "
    "set, or such items (a frozen dataclass with eq left on, a NamedTuple, tuple[T, ...])",
    "collection": "'{name}' is not a supported collection; use list[T], tuple[T, ...], set[T], frozenset[T] or dict[str, T]",
    "unresolved": "the annotation '{name}' cannot be resolved; import the type at module level (not only under TYPE_CHECKING)",
    "syntax": "the annotation {name} is not a valid Python expression; write a type such as 'list[int]'",
    "too_deep": "records nested more than {name} deep have no schema (each level is one object a model must "
    "write); flatten the structure",
    "none": "'None' alone has no schema; return nothing instead, or use 'X | None'",
    "secret": "'{name}' is a secret, and a secret does not come from the model; take it from "
    "ToolContext.services (ctx.services) and drop the parameter",
    "runtime_object": "'{name}' is a runtime object, which a model cannot send; runtime objects reach a tool "
    "through ToolContext.services: take a ToolContext parameter and read it from ctx.services",
    "other": "type '{name}' has no schema; use a type a model can send as JSON (str, int, float, bool, an Enum, "
    "list[T], dict[str, T], a dataclass ...)",
}


def model_feature_problem(node: NotARecord) -> str:
    """The OLT005 problem of a ``BaseModel`` whose written form differs from its fields."""
    return (
        f"model '{node.name}' uses {node.feature}, so what it writes differs from its fields and no schema "
        "can describe it; remove it, or use a separate model with plain fields"
    )


def invalid_annotation(text: str) -> str:
    """The OLT002 problem for a string annotation that does not parse (both front ends word it so)."""
    return _UNSUPPORTED["syntax"].format(name=repr(text))


#: OLT005: a class that is not a record kind, by what it is (its module picks the row), and
#: whether it is a parameter's type or the return type.
_RECORD_KINDS = "a dataclass, NamedTuple, TypedDict or pydantic BaseModel"
_NOT_A_RECORD: dict[tuple[str, bool], str] = {
    ("path", False): "class '{name}' is a file-system path, which a model sends as text; use str (and "
    "{name}(text) in the tool)",
    ("path", True): "class '{name}' is a file-system path, which is returned as text; use str (return str(path))",
    ("class", False): f"class '{{name}}' is not {_RECORD_KINDS}, so arguments cannot be built into it; "
    f"make it {_RECORD_KINDS}",
    ("class", True): f"class '{{name}}' is not {_RECORD_KINDS}, so its value cannot be written as JSON; "
    f"make it {_RECORD_KINDS}",
}
#: Modules whose classes are file-system paths (``pathlib._local`` on Python 3.13).
_PATH_MODULES = frozenset({"pathlib", "pathlib._local", "pathlib._abc"})


def not_a_record_text(node: NotARecord, returning: bool) -> str:
    """The OLT005 problem for ``node``, with the fix that fits the class."""
    kind = "path" if node.module in _PATH_MODULES else "class"
    return _NOT_A_RECORD[(kind, returning)].format(name=node.name)


@dataclass
class _Walk:
    """Collects (code, path, problem) triples while walking one type."""

    class_type_params: tuple[str, ...]
    found: list[tuple[str, str, str]]
    #: The walk is over the return type (messages say what cannot be written, not built).
    returning: bool = False

    def add(self, code: str, path: str, problem: str) -> None:
        entry = (code, path, problem)
        if entry not in self.found:
            self.found.append(entry)


def _check_annotated(node: Annotated, path: str, w: _Walk, json_name_ok: bool) -> None:
    """Each marker against the type under its wrappers, by its row of the marker table,
    then no keyword set twice."""
    target = rules.strip(node)
    for m in node.markers:
        spec = m.spec
        if spec.fits == "record fields":
            if not json_name_ok:
                where = "tool parameters are never renamed" if path == "" else "it only renames a record field"
                w.add("OLT013", path, f"{spec.display} cannot be used here ({where}); remove it")
        elif not markers.fits(spec, target):
            if spec.fits == "record unions":
                w.add(
                    "OLT012",
                    path,
                    f"{_shown(m)} applies only to a union of records, not to '{type_name(target)}'",
                )
            else:
                w.add(
                    "OLT013", path, f"{spec.display} applies to {spec.fits}, not to '{type_name(target)}'; {spec.fix}"
                )
        else:
            problem = spec.on_type(m, target, type_name(target)) or spec.check(m)
            if problem is not None:
                w.add(spec.code, path, problem)
    if len(node.markers) > 1:
        twice = _set_twice(node.markers)
        if twice is not None:
            w.add("OLT013", path, twice)


def _shown(m: Marker) -> str:
    """A one-argument marker as written: ``Discriminator('kind')``, ``Field(discriminator='kind')``."""
    written = m.spec.written
    if written.endswith("=)"):
        return f"{written[:-1]}{m.values[0]!r})"
    return f"{m.spec.display}({m.values[0]!r})"


#: The keywords a marker may set, each with its name in the "set twice" message (a length
#: is named for strings and arrays alike).
_KEYWORDS: tuple[tuple[str, str], ...] = (
    ("minimum", "the minimum"),
    ("maximum", "the maximum"),
    ("min_length", "the minimum length"),
    ("max_length", "the maximum length"),
    ("pattern", "the pattern"),
    ("format", "the format"),
    ("json_name", "the wire name"),
    ("discriminator", "the discriminator"),
)


def _set_twice(found: tuple[Marker, ...]) -> str | None:
    """The first keyword two markers of one ``Annotated`` both set, named with both
    markers as written; descriptions of different ranks are an order, not a clash."""
    setters: dict[str, Marker] = {}
    for m in found:
        c = m.constraints
        for attr, _ in _KEYWORDS:
            if getattr(c, attr) is not None:
                first = setters.setdefault(attr, m)
                if first is not m:
                    return _twice(dict(_KEYWORDS)[attr], first, m)
        if c.description is not None:
            key = f"description {m.spec.description_rank}"
            first = setters.setdefault(key, m)
            if first is not m:
                return _twice("the description", first, m)
    return None


def _twice(keyword: str, first: Marker, second: Marker) -> str:
    return f"{keyword} is set twice, by {first.spec.written} and {second.spec.written}; keep one"


def _walk(node: TypeNode, path: str, w: _Walk, json_name_ok: bool = False) -> None:
    if isinstance(node, (Scalar, JsonType)):  # the commonest nodes, and leaves with nothing to find
        return
    if isinstance(node, Annotated):
        _check_annotated(node, path, w, json_name_ok)
        target = rules.strip(node)
        disc = rules.discriminator(node)
        if disc is not None and isinstance(target, UnionType) and rules.record_members(target) is not None:
            _walk_union(target, disc, path, w)
        else:
            _walk(node.inner, path, w)
    elif isinstance(node, Nullable):
        _walk(node.inner, path, w, json_name_ok)
    elif isinstance(node, Unsupported):
        if node.reason == "syntax":
            w.add("OLT002", path, invalid_annotation(node.name))
        else:
            w.add("OLT002", path, _UNSUPPORTED[node.reason].format(name=node.name))
    elif isinstance(node, TypeVarRef):
        if node.name not in w.class_type_params:
            w.add("OLT004", "", node.name)  # the problem text is the type variable's name
    elif isinstance(node, NotARecord) and node.feature:
        w.add("OLT005", path, model_feature_problem(node))
    elif isinstance(node, NotARecord):
        w.add("OLT005", path, not_a_record_text(node, w.returning))
    elif isinstance(node, SelfReference):
        w.add(
            "OLT006",
            path,
            f"type '{node.name}' refers to itself, so its schema would never end; "
            "break the cycle (for example refer to another item by an id string)",
        )
    elif isinstance(node, EnumType):
        if node.is_flag:
            w.add("OLT002", path, _UNSUPPORTED["flag"].format(name=node.name))
        elif node.not_computed is not None:
            w.add("OLT014", path, node.not_computed)
    elif isinstance(node, LiteralType):
        if len({rules.literal_json_type(v) for v in node.values}) > 1:
            w.add("OLT002", path, _UNSUPPORTED["mixed_literal"])
    elif isinstance(node, ArrayType):
        _walk(node.item, _join(path, "item"), w)
        if node.unique and not _hashable(node.item):
            w.add("OLT002", path, _UNSUPPORTED["unhashable"].format(name=type_name(node.item)))
    elif isinstance(node, MapType):
        _walk(node.value, _join(path, "value"), w)
    elif isinstance(node, Record):
        if rules.record_depth(node) > MAX_RECORD_DEPTH:  # reported once, at the outermost record
            w.add("OLT002", path, _UNSUPPORTED["too_deep"].format(name=MAX_RECORD_DEPTH))
        elif not _is_clean_record(node):
            _walk_fields(node, path, w)
    else:  # the one kind left: UnionType
        _walk_union(node, None, path, w)


def _walk_fields(node: Record, path: str, w: _Walk) -> None:
    for f in node.fields:
        _walk(f.type, _join(path, f"field '{f.name}'"), w, json_name_ok=True)


#: Whether a record has no finding at all, by identity (each is kept here, so its id cannot
#: be reused). What a record's walk finds never depends on where the record is used, and the
#: runtime front end hands out one ``Record`` per class, so a record that many tools share is
#: walked once instead of once per tool; a record with findings is remembered too, so a chain
#: of nested records is walked once, not once per way down. Bounded, so a long-lived type
#: checker that makes new ``Record`` objects cannot grow it without end.
_CLEAN_RECORDS: BoundedCache[int, tuple[Record, bool]] = BoundedCache()


def _is_clean_record(record: Record) -> bool:
    """Whether walking ``record`` (types and defaults, nested records too) finds nothing."""
    known = _CLEAN_RECORDS.get(id(record))
    if known is not None and known[0] is record:
        return known[1]
    w = _Walk((), [])  # no class type parameters: a record clean here is clean under any
    if rules.record_depth(record) > MAX_RECORD_DEPTH:
        clean = False
    else:
        _walk_fields(record, "", w)
        _record_default_fields(record, "", w, set())
        clean = not w.found
    _CLEAN_RECORDS.put(id(record), (record, clean))
    return clean


def _walk_union(node: UnionType, explicit: str | None, path: str, w: _Walk) -> None:
    literal = rules.merged_literal(node)
    if literal is not None:
        _walk(literal, path, w)
        return
    members = [rules.strip(m) for m in node.members]
    if all(isinstance(m, (Record, NotARecord, SelfReference, TypeVarRef)) for m in members):
        for m in node.members:
            _walk(m, path, w)
        if rules.record_members(node) is None:
            return
        found = rules.find_discriminator(node, explicit)
        if isinstance(found, str):
            names = " | ".join(type_name(m) for m in members)
            if found == "explicit_invalid":
                problem = (
                    f"Discriminator({explicit!r}) must name a field that is, in every member of '{names}', "
                    "a Literal of one string, distinct per member"
                )
            elif found == "ambiguous":
                problem = (
                    f"the union '{names}' has several fields that could be its discriminator; "
                    "name one with Annotated[..., Discriminator('field')]"
                )
            else:
                problem = (
                    f"the union '{names}' has no discriminator: no field is, in every member, a Literal of one "
                    "string (not Optional), distinct per member; add one (for example action: Literal['start']) "
                    "to each member"
                )
            w.add("OLT012", path, problem)
        return
    w.add("OLT002", path, _UNSUPPORTED["union"])


def _hashable(node: TypeNode) -> bool:
    t = rules.strip(node)
    if isinstance(t, ArrayType):
        # a frozenset is hashable (its items are checked where it is declared); a tuple[T, ...]
        # binds as a tuple, hashable when its items are (the contract's Types table)
        return t.kind == "frozenset" or (t.kind == "tuple" and _hashable(t.item))
    if isinstance(t, MapType):
        return False
    if isinstance(t, JsonType):
        return False
    if isinstance(t, Record):
        return t.hashable and all(_hashable(f.type) for f in t.fields)
    return True


def _join(path: str, segment: str) -> str:
    return f"{path} {segment}" if path else segment


def _walk_type(node: TypeNode, w: _Walk) -> None:
    _walk(node, "", w)


def not_computed_text(what: str) -> str:
    """OLT014's problem: ``what`` (which names the expression) cannot be computed, and the fix."""
    return (
        f"{what} cannot be computed from the source, so the static schema could differ from the runtime's; "
        "use a literal or a constant"
    )


def _default_findings(node: TypeNode, default: Default, w: _Walk, path: str) -> None:
    if default.state == "unreadable" and rules.is_writable_type(node):
        w.add("OLT014", path, not_computed_text(f"the default value {default.expression or '<expression>'!r}"))


def _record_defaults(node: TypeNode, path: str, w: _Walk, seen: set[int]) -> None:
    t = rules.strip(node)
    if isinstance(t, Record):
        if id(t) in seen:
            return
        seen.add(id(t))
        if not _is_clean_record(t):
            _record_default_fields(t, path, w, seen)
    elif isinstance(t, ArrayType):
        _record_defaults(t.item, _join(path, "item"), w, seen)
    elif isinstance(t, MapType):
        _record_defaults(t.value, _join(path, "value"), w, seen)
    elif isinstance(t, UnionType):
        for m in t.members:
            _record_defaults(m, path, w, seen)


def _record_default_fields(t: Record, path: str, w: _Walk, seen: set[int]) -> None:
    for f in t.fields:
        fpath = _join(path, f"field '{f.name}'")
        _default_findings(f.type, f.default, w, fpath)
        _record_defaults(f.type, fpath, w, seen)


def _plainly_clean(node: TypeNode) -> bool:
    """Whether walking a type (and its records' defaults) surely finds nothing, told
    without a walk: the commonest parameter types (scalars, enums, records already found
    clean, and lists and dicts of those, or None). A shortcut only: every other type is
    walked."""
    if isinstance(node, Nullable):
        node = node.inner
    if isinstance(node, (Scalar, JsonType)):
        return True
    if isinstance(node, EnumType):
        return not node.is_flag and node.not_computed is None
    if isinstance(node, Record):
        return _is_clean_record(node)
    if isinstance(node, ArrayType):
        return _plainly_clean(node.item) and (not node.unique or _hashable(node.item))
    if isinstance(node, MapType):
        return _plainly_clean(node.value)
    return _CLEAN_TYPES.get(id(node)) is node


#: Parameter and return types whose walk found nothing, by identity (each kept, so its id
#: cannot be reused): the runtime front end hands out one node per annotation object it
#: has seen (``Optional[int]``, ``Literal[...]``, an ``Annotated`` alias), so a type that
#: many tools share is walked once. What a walk finds depends on the type alone (a type
#: clean under no class type parameters is clean under any). Bounded.
_CLEAN_TYPES: BoundedCache[int, TypeNode] = BoundedCache()


def _remember_clean(node: TypeNode) -> None:
    _CLEAN_TYPES.put(id(node), node)


def _plain_param(p: Param) -> bool:
    """Whether a parameter's own checks (type, default, kind) surely find nothing, told without a walk."""
    return p.kind == "normal" and p.default.state != "unreadable" and _plainly_clean(p.type)


def _plain_return(tool: ToolModel) -> bool:
    """Whether the return type's walk surely finds nothing (no annotation, None, or a plainly clean type)."""
    returns = tool.returns
    return returns.kind != "type" or returns.type is None or _plainly_clean(returns.type)


def _clashes_with_invocation_mode(tool: ToolModel, p: Param) -> bool:
    """OLT015: the parameter has the name of the control that ``invocation_mode='model_choice'`` adds."""
    return p.name == rules.INVOCATION_MODE and tool.options.invocation_mode == "model_choice"


def _param_findings(tool: ToolModel, p: Param) -> list[tuple[str, str, str]]:
    if _plain_param(p):
        return []
    w = _Walk(tool.class_type_params, [])
    if p.kind in ("context", "cancellation"):
        return w.found
    if p.kind in ("var_positional", "var_keyword"):
        stars = "*" if p.kind == "var_positional" else "**"
        w.add(
            "OLT002",
            "",
            f"{stars}{p.name} has no schema; declare each argument as a named parameter"
            + (", or take a 'dict[str, T]' parameter" if stars == "**" else ", or take a 'list[T]' parameter"),
        )
        return w.found
    _walk_type(p.type, w)
    _default_findings(p.type, p.default, w, "")
    _record_defaults(p.type, "", w, set())
    if not w.found and not tool.class_type_params:  # (a type variable of the class finds nothing there)
        _remember_clean(p.type)
    return w.found


def _function_findings(tool: ToolModel, name: str) -> list[tuple[str, str]]:
    """The findings on the def itself that need no walk (OLT001 alone, else OLT008, OLT011,
    OLT010), as (code, text) in report order."""
    if tool.misapplied_to is not None:
        what = tool.misapplied_to
        # Decorators apply bottom-up: "@tool above @staticmethod" is tool(staticmethod(f)), the allowed order.
        text = {
            "class": "@tool must decorate a function, not a class; decorate the class's methods instead",
            "property": "@tool cannot decorate a property; make it a plain method and decorate that",
            "overload": "@tool cannot decorate an @overload stub; decorate the implementation (the def without "
            "@overload) instead",
            "staticmethod": "@staticmethod is applied on top of @tool, which hides the tool from its class; "
            "write @tool above @staticmethod instead",
            "classmethod": "@classmethod is applied on top of @tool, which hides the tool from its class; "
            "write @tool above @classmethod instead",
            "name": "@tool takes the tool's name as a keyword, not as its first argument; "
            f"write @tool(name={tool.options.name!r})"
            if isinstance(tool.options.name, str)
            else "@tool takes the tool's name as a keyword, not as its first argument; write @tool(name=...)",
        }.get(what, f"@tool must decorate a function directly, not a '{what}' object; decorate a plain function")
        return [("OLT001", text)]

    found: list[tuple[str, str]] = []
    if tool.is_lambda and tool.options.name is None:
        found.append(("OLT008", "a lambda has no usable tool name; pass name=... (1-64 letters, digits, '_' or '-')"))
    elif not rules.is_valid_tool_name(name):
        found.append(
            (
                "OLT008",
                f"the tool name {name!r} is not 1-64 ASCII letters, digits, '_' or '-'; "
                "pass name=... with a valid name",
            )
        )
    if tool.options.naming not in (None, "camelCase"):
        found.append(
            ("OLT011", f"naming={tool.options.naming!r} is not supported; use naming='camelCase' or leave it out")
        )
    for option, expression in tool.not_computed:
        found.append(("OLT014", _option_not_computed(option, expression)))
    if tool.class_type_params:
        found.append(
            (
                "OLT010",
                f"the containing class is generic (type variable '{tool.class_type_params[0]}'); "
                "tools must live in a concrete class; move the tool to a non-generic class",
            )
        )
    return found


def _option_not_computed(option: str, expression: str) -> str:
    """OLT014 for a ``@tool(...)``/``Tool.create(...)`` option (``option`` is empty for ``*args``/``**kwargs``)."""
    if not option:
        return (
            f"the options {expression!r} cannot be computed from the source, so the static schema could differ "
            "from the runtime's; pass each option by its keyword, with a literal or a constant"
        )
    return not_computed_text(f"option '{option}': the value {expression!r}")


def _plainly_fine(tool: ToolModel) -> bool:
    """Whether the parameter and return checks of ``check_tool`` surely find nothing, told
    without building their findings: it asks the very tests those checks start with. Most
    tools pass; the full checks decide every other one."""
    if tool.type_params or tool.options.invocation_mode == "model_choice":  # OLT004; OLT015 is checked in full
        return False
    for p in tool.params:  # (a context or token parameter is not plain: OLT009 is checked in full)
        if not _plain_param(p):
            return False
    return _plain_return(tool)


#: Options other libraries' tool decorators take, and what to write instead (OLT001).
_FOREIGN_OPTIONS: dict[str, str] = {
    "args_schema": "declare the schema's fields as the function's parameters, or take the model as one parameter",
    "return_direct": "write ends_loop=True",
    "name_override": "write name=...",
    "description_override": "write description=...",
    "parse_docstring": "remove it: the docstring is always read",
    "docstring_style": "remove it: the docstring's style is recognised",
    "use_docstring_info": "remove it: the docstring is always read",
    "strict_mode": "remove it: the binder is always strict",
    "strict": "remove it: the binder is always strict",
}


def unknown_options(tool_name: str, names: list[str]) -> list[tuple[str, str]]:
    """OLT001 for each ``@tool(...)`` keyword that is not one of its options, in the order written:
    the replacement for another library's option, a close spelling, or the options there are."""
    import difflib

    out: list[tuple[str, str]] = []
    for name in names:
        fix = _FOREIGN_OPTIONS.get(name)
        if fix is None:
            close = difflib.get_close_matches(name, list(OPTION_NAMES), n=1, cutoff=0.75)
            fix = f"did you mean {close[0]}?" if close else "its options are " + ", ".join(OPTION_NAMES)
        out.append(("OLT001", f"Tool '{tool_name}': @tool has no option {name!r}; {fix}"))
    return out


def check_tool(tool: ToolModel) -> list[Diagnostic]:
    """Every finding on one tool, in source order: function-level first, then per parameter."""
    name = rules.tool_name(tool)
    function_level = _function_findings(tool, name)
    if not function_level and _plainly_fine(tool):
        return []
    prefix = f"Tool '{name}': "
    out = [Diagnostic(code, prefix + text, tool.loc) for code, text in function_level]
    if tool.misapplied_to is not None:
        return out

    def at_def(code: str, text: str) -> None:
        out.append(Diagnostic(code, prefix + text, tool.loc))

    per_param: list[tuple[Param, list[tuple[str, str, str]]]] = []
    generic = bool(tool.type_params)
    typevar = tool.type_params[0] if tool.type_params else ""
    typevar_at = ""  # where the first type variable is used, for OLT004's message
    for p in tool.params:
        findings = _param_findings(tool, p)
        if findings:
            for code, _, name in findings:
                if code == "OLT004" and not typevar_at:
                    generic, typevar, typevar_at = True, name, f" in parameter '{p.name}'"
            findings = [f for f in findings if f[0] != "OLT004"]
        per_param.append((p, findings))

    return_findings: list[tuple[str, str, str]] = []
    returned = tool.returns.type
    if returned is not None and not _plain_return(tool):
        w = _Walk(tool.class_type_params, [], returning=True)
        _walk_type(returned, w)
        for code, path, problem in w.found:
            if code == "OLT004":
                if not typevar_at:
                    generic, typevar, typevar_at = True, problem, " in the return type"
            else:
                return_findings.append(("OLT003" if code == "OLT002" else code, path, problem))

    if generic:
        at_def(
            "OLT004",
            f"the function is generic (type variable '{typevar}'{typevar_at}); a tool needs concrete types: "
            f"replace '{typevar}' with a concrete type such as 'str' or a dataclass",
        )
    return_loc = tool.returns.loc if tool.returns.loc is not None else tool.loc
    for code, path, problem in return_findings:
        where = "Return type" + (f" {path}" if path else "")
        out.append(Diagnostic(code, f"{prefix}{where}: {problem}", return_loc))

    seen_kinds: dict[str, str] = {}
    for p, findings in per_param:
        if p.kind in ("context", "cancellation"):
            what = "ToolContext" if p.kind == "context" else "CancellationToken"
            if p.kind in seen_kinds:
                out.append(
                    Diagnostic(
                        "OLT009",
                        prefix + f"Parameter '{p.name}': a tool takes at most one {what} parameter "
                        f"('{seen_kinds[p.kind]}' is one already); remove '{p.name}'",
                        p.loc,
                    )
                )
            else:
                seen_kinds[p.kind] = p.name
            continue
        if _clashes_with_invocation_mode(tool, p):
            out.append(
                Diagnostic(
                    "OLT015",
                    prefix + f"Parameter '{p.name}' clashes with the framework control that "
                    "invocation_mode='model_choice' adds; rename the parameter",
                    p.loc,
                )
            )
        for code, path, problem in findings:
            where = f"Parameter '{p.name}'" + (f" {path}" if path else "")
            sep = " " if problem.startswith("has no") else ": "
            out.append(Diagnostic(code, prefix + where + sep + problem, p.loc))
    return out


def check_class(cls: ClassModel) -> list[Diagnostic]:
    """OLT007: two tools of one class with the same name, reported on the second; a tool named
    as one its class inherits, reported on the class's own."""
    out: list[Diagnostic] = []
    inherited = {rules.tool_name(t): (base, t) for base, t in reversed(cls.inherited)}
    first: dict[str, ToolModel] = {}
    for t in cls.tools:
        name = rules.tool_name(t)
        if not rules.is_valid_tool_name(name):
            continue  # no name at all (OLT008, from check_tool): it cannot be a second one
        if name in inherited:
            base, other = inherited[name]
            out.append(
                Diagnostic(
                    "OLT007",
                    f"Tool '{name}': method '{t.function_name}' of class '{cls.name}' has the same tool name as "
                    f"method '{other.function_name}' of its base class '{base}'; give one of them another name "
                    "with @tool(name=...)",
                    t.loc,
                )
            )
        elif name in first:
            out.append(
                Diagnostic(
                    "OLT007",
                    f"Tool '{name}': method '{t.function_name}' of class '{cls.name}' has the same tool name as "
                    f"method '{first[name].function_name}'; give one of them another name with @tool(name=...)",
                    t.loc,
                )
            )
        else:
            first[name] = t
    return out


#: Where two tools offered together meet, in OLT007's words: a ``ToolSet`` (``in_module``: a module).
IN_A_TOOL_SET = "one tool set"


def in_module(module: str) -> str:
    """Where two module-level tools of ``module`` meet, in OLT007's words."""
    return f"module '{module}'"


def duplicate_message(name: str, first: str, second: str, within: str) -> str:
    """OLT007's text for two tools offered together under one name, each named by where it is
    defined (``module.qualname``), the later one first since that is where it is reported."""
    return (
        f"Tool '{name}': '{second}' has the same tool name as '{first}' in {within}; "
        "give one of them another name with @tool(name=...)"
    )


@dataclass(frozen=True)
class Offered:
    """A tool as a set or a module offers it: its tool name, its definition's
    ``module.qualname``, and where a finding about it belongs."""

    name: str
    where: str
    loc: object = None


def check_offered_together(tools: list[Offered], within: str) -> list[Diagnostic]:
    """OLT007 for each tool whose name an earlier one has, at the later one; a tool named
    against the rules (OLT008 on its own) has no name to repeat."""
    first: dict[str, Offered] = {}
    out: list[Diagnostic] = []
    for t in tools:
        if not rules.is_valid_tool_name(t.name):
            continue
        held = first.setdefault(t.name, t)
        if held is not t:
            out.append(Diagnostic("OLT007", duplicate_message(t.name, held.where, t.where, within), t.loc))
    return out
