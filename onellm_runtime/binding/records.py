"""Records, parameters and unions: the members of one closed object. ``Body.bind`` is the
generic check, the reference the generated fast paths (``codegen``) must agree with."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..core import rules
from ..errortext import describe
from .codegen import generate, union_many
from .containers import as_object
from .makers import KEYWORDS, Maker
from .models import FieldErrors
from .state import BAD, MISSING, Call, Check, type_of
from .texts import excerpt, expected_text, left_out, name_list, one_of, required_text, suggest

#: The fast pass over an array's items: ``many(items, c)``, each item bound as the item check binds it.
Many = Callable[[list[Any], Call], list[Any]]


class Field(NamedTuple):
    wire: str
    name: str
    check: Check
    required: bool
    nullable: bool
    #: How the generated fast path checks the value inline (see ``codegen._inline``); ``("call",)``
    #: calls ``check``.
    spec: tuple[Any, ...] = ("call",)


def _no_ordered(v: Any, c: Call) -> Any:  # replaced by the generated one
    raise NotImplementedError


class Body:
    """The members of one closed object: a record, a union branch, or the tool's parameters."""

    __slots__ = ("fields", "known", "build", "maker", "label", "owners", "mode", "fast", "ordered", "slow", "many")

    def __init__(
        self,
        fields: list[Field],
        build: Callable[..., Any] | None,
        label: str | None = None,
        owners: Mapping[str, list[str]] | None = None,
        mode: Check | None = None,
        maker: Maker | None = None,
    ) -> None:
        self.fields: tuple[Field, ...] = tuple(fields)
        known = {f.wire for f in fields}
        if mode is not None:
            known.add(rules.INVOCATION_MODE)
        self.known: frozenset[str] = frozenset(known)
        self.build: Callable[..., Any] | None = build
        #: How the generated fast paths construct the record (``build`` is the reference).
        self.maker: Maker = maker or KEYWORDS
        #: For a union branch: its tag, and which other branches own each foreign field.
        self.label: str | None = label
        self.owners: Mapping[str, list[str]] = owners or {}
        self.mode: Check | None = mode
        #: The generated fast paths: they bind the common, valid case and hand anything else to
        #: ``bind``; ``fast`` over a dict, ``ordered`` over a raw object's pairs (see ``generate``).
        self.ordered: Callable[[Any, Call], Any] = _no_ordered
        #: Where ``ordered`` sends a raw object it does not bind itself: ``fast`` over its dict.
        self.slow: Callable[[Any, Call], Any] = _no_ordered
        #: A record's ``many(items, c)``, the fast pass over an array of it (see ``codegen``).
        self.many: Many | None = None
        self.fast: Callable[[dict[Any, Any], Call], Any] = generate(self, None)

    def unknown(self, key: Any, c: Call) -> None:
        """Report ``key``, which is not a member here (with a spelling hint, or the members)."""
        if not isinstance(key, str):
            c.add(f"has a property name that is not a string: {excerpt(key)}.")
            return
        names = [f.wire for f in self.fields] + ([rules.INVOCATION_MODE] if self.mode is not None else [])
        hint = suggest(key, names)
        if self.label is None:
            text = "is not a known property"
        else:
            text = f"is not a field of '{self.label}'"
            owners = self.owners.get(key)
            if owners:
                text += " (it belongs to " + ", ".join(f"'{o}'" for o in owners) + ")"
        if hint is not None:
            text += f" (did you mean '{hint}'?)."
        elif self.label is not None:
            text += f"; '{self.label}' takes: {name_list(names)}."
        else:
            text += f"; known properties: {name_list(names)}." if names else "; this takes no arguments."
        c.add(text, key)

    def bind(self, d: dict[Any, Any], c: Call) -> Any:
        """The generic check of an object's members, and its construction: the reference."""
        ok = True
        if not d.keys() <= self.known:
            for key in d:
                if key not in self.known:
                    ok = False
                    if c.fail():
                        self.unknown(key, c)
        kwargs: dict[str, Any] = {}
        collect = c.collect
        for f in self.fields:
            x = d.get(f.wire, MISSING)
            if x is MISSING:
                if f.required:
                    ok = False
                    if c.fail():
                        c.add(required_text(f.nullable), f.wire)
                continue
            omit = x is None and not f.required and not f.nullable  # a null where leaving out is meant
            if omit and c.openai:
                continue  # OpenAI strict sends null for "not given"
            if collect:
                before = len(c.errors)
                c.path.append(f.wire)
                r = f.check(x, c)
                c.path.pop()
                if r is BAD:
                    ok = False
                    if omit and len(c.errors) > before:
                        path, text = c.errors[before]
                        c.errors[before] = (path, left_out(text))
            else:
                r = f.check(x, c)
            kwargs[f.name] = r
        if self.mode is not None:
            m = d.get(rules.INVOCATION_MODE, MISSING)
            if m is not MISSING and not (m is None and c.openai):
                if collect:
                    c.path.append(rules.INVOCATION_MODE)
                    r = self.mode(m, c)
                    c.path.pop()
                else:
                    r = self.mode(m, c)
                if r is BAD:
                    ok = False
                else:
                    c.mode = r
        if not ok:
            return BAD
        if self.build is None:
            return kwargs
        try:
            return self.build(**kwargs)
        except FieldErrors as e:  # a BaseModel's validators: pydantic's errors, each at its path
            for extra, text in e.errors:
                if c.fail():
                    c.add(f"is not valid: {text}", *extra)
            return BAD
        except BaseException as e:  # a __post_init__ or validator of the user's, whatever it raises
            if c.fail():
                c.add(f"is not valid: {describe(e)}")
            return BAD


def record_check(body: Body, expect: str) -> Check:
    """A record's whole check: its generated fast path, which refuses a value of another kind."""

    def wrong_kind(v: Any, c: Call) -> Any:
        if c.fail():
            c.add(expected_text(expect, v, c))
        return BAD

    check: Check = generate(body, wrong_kind)
    return check


def union_check(bodies: dict[str, Body], wires: tuple[str, ...], expect: str, nullable: bool) -> tuple[Check, Many]:
    """A discriminated union's check (the tag picks the branch's body), and its fast pass over
    an array's items."""

    tags = list(bodies)
    first_wire = wires[0]
    ordered = {tag: body.ordered for tag, body in bodies.items()}

    def check(v: Any, c: Call) -> Any:
        # A raw object whose first member is the tag (as the schema orders a branch's members):
        # the branch's ordered fast path reads the pairs as they are, without a dict. Anything
        # else it does not bind itself it hands to the same dict path as below.
        kind = type_of(v)
        if kind is tuple and v and c.raw and not c.collect:
            key, tag = v[0]
            if key == first_wire and type(tag) is str:
                branch = ordered.get(tag)
                if branch is not None:
                    return branch(v, c)
        d = as_object(v, c)
        if d is None or d is BAD:
            if d is None and c.fail():
                c.add(expected_text(expect, v, c))
            return BAD
        wire = wires[0]
        tag = d.get(wire, MISSING)
        if tag is MISSING and len(wires) > 1:
            for other in wires[1:]:
                if other in d:
                    wire, tag = other, d[other]
                    break
        if type(tag) is str:
            body = bodies.get(tag)
            if body is not None:
                return body.fast(d, c)
        if c.fail():
            if tag is MISSING:
                c.add(f"is required; it must be one of: {name_list(tags)}.", wire)
            elif type(tag) is str and not tag.strip():
                c.add(f"must be one of: {name_list(tags)}; got a blank string.", wire)
            else:
                c.add(one_of(tag, tags, False), wire)
        return BAD

    return check, union_many(bodies, first_wire, check)
