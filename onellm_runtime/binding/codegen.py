"""The generated fast paths.

A record's members are checked by straight-line code generated once per record: no loop
over field descriptors, simple values (plain strings, integers, booleans, floats, enum
names) checked inline, the constructor called with keywords. Whatever is not the plain
valid case (a missing or unknown member, an integer written 5.0, a null, any fault) is
handed to the generic ``Body.bind``, which is the reference: the generated code only
ever accepts what ``bind`` accepts, with the same result.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .checks import BULK_OVER, FAST_NAMES, bulk_for, fast_test
from .containers import duplicates
from .makers import TUPLE_NEW, Maker
from .state import MISSING, Check

if TYPE_CHECKING:
    from .records import Body, Field, Many


def _inline(
    spec: tuple[Any, ...],
    i: int | str,
    ns: dict[str, Any],
    pad: str,
    bail: str = "return generic(d, c)",
    raw: bool = False,
    x: str = "x",
) -> list[str]:
    """Lines that check the value in the variable ``x`` and set ``v<i>`` (``x`` may be ``v<i>``
    itself), or run the statement ``bail`` (it hands the value to the general path); ``raw``:
    the value comes from the reader (see ``checks.fast_test``)."""
    kind = spec[0]
    out: list[str] = []
    if kind == "str":
        out.append(f"{pad}if {fast_test(kind, x, raw)}: {bail}")
    elif kind in ("int", "float"):
        test = fast_test(kind, x, raw)
        lo, hi = spec[1], spec[2]
        if lo is not None:
            ns[f"LO{i}"] = lo
            test += f" or {x} < LO{i}"
        if hi is not None:
            ns[f"HI{i}"] = hi
            test += f" or {x} > HI{i}"
        out.append(f"{pad}if {test}: {bail}")
    elif kind == "bool":
        out.append(f"{pad}if {fast_test(kind, x, raw)}: {bail}")
    elif kind == "table":
        ns[f"T{i}"] = spec[1]
        out.append(f"{pad}{x} = T{i}.get({x}, MISSING) if type({x}) is str else MISSING")
        out.append(f"{pad}if {x} is MISSING: {bail}")
    elif kind == "list":  # a list (or tuple) of plain scalars, checked item by item in place
        item, lo, hi, container, keep = spec[1], spec[2], spec[3], spec[4], spec[5]
        test = fast_test(item, "y", raw)
        if lo is not None:
            ns[f"LO{i}"] = lo
            test += f" or y < LO{i}"
        if hi is not None:
            ns[f"HI{i}"] = hi
            test += f" or y > HI{i}"
        # A long list is checked whole by the array check's bulk test (C-level passes over
        # the items); a short one item by item, where a bulk test's setup would dominate.
        ns[f"B{i}"] = bulk_for(item, lo, hi, keep)
        out.append(f"{pad}if type({x}) is not list: {bail}")
        out.append(f"{pad}if len({x}) > BULK_OVER:")
        out.append(f"{pad}    {x} = B{i}({x}, {raw})")
        out.append(f"{pad}    if {x} is None: {bail}")
        out.append(f"{pad}else:")
        out.append(f"{pad}    for y in {x}:")
        out.append(f"{pad}        if {test}:")
        out.append(f"{pad}            {x} = None")  # ``bail`` may be a ``continue`` of an outer loop
        out.append(f"{pad}            break")
        out.append(f"{pad}    if {x} is None: {bail}")
        if not (raw and keep):  # a copy, unless the reader's list may be the bound value (``checks.kept``)
            out.append(f"{pad}    {x} = {x}[:]")
        if container == "tuple":
            out.append(f"{pad}{x} = tuple({x})")
    else:
        out.append(f"{pad}{x} = C{i}({x}, c)")
    if x != f"v{i}":
        out.append(f"{pad}v{i} = {x}")
    return out


def _build_lines(
    body: Body,
    present: list[int],
    optional: list[int],
    pad: str,
    bail: str,
    ns: dict[str, Any],
    done: str = "return {}",
    at: str = "",
) -> list[str]:
    """Lines that build the value from ``v<at><i>`` (``p<at><i>`` says whether optional ``i`` was
    given) and hand it to the statement ``done`` (``{}`` stands for the value); a constructor
    that raises runs the statement ``bail``. ``at`` tells apart the names of several bodies
    written into one function (the constructor's is ``BUILD<at>``)."""
    import keyword

    names = [f.name for f in body.fields]
    out: list[str] = []
    if body.build is None:
        out.append(pad + "r = {" + ", ".join(f"{names[i]!r}: v{at}{i}" for i in present) + "}")
        out += [f"{pad}if p{at}{i}: r[{names[i]!r}] = v{at}{i}" for i in optional]
        out.append(pad + done.format("r"))
        return out
    maker = body.maker
    if maker.kind in ("stores", "tuple"):
        return _direct_lines(maker, names, optional, pad, bail, ns, at) + [pad + done.format("o")]
    if maker.kind == "mapping":
        ns[f"MAKE{at}"] = maker.make
        keys = maker.order
        out.append(pad + "r = {" + ", ".join(f"{keys[i]!r}: v{at}{i}" for i in present) + "}")
        out += [f"{pad}if p{at}{i}: r[{keys[i]!r}] = v{at}{i}" for i in optional]
        if maker.model is not None:  # ``make``'s body, without its frame (see ``Maker``)
            ns[f"MODEL{at}"] = maker.model
            call = f"MODEL{at}.__pydantic_validator__.validate_python(r)"
        else:
            call = f"MAKE{at}(r)"
    elif not optional and all(names[i].isidentifier() and not keyword.iskeyword(names[i]) for i in present):
        given = {names[i]: f"v{at}{i}" for i in present}
        # Leading parameters by position: the same __init__ runs, without a keyword dict.
        lead = list(itertools.takewhile(given.__contains__, maker.order))
        args = [given[name] for name in lead] + [f"{name}={given[name]}" for name in given if name not in lead]
        call = f"BUILD{at}(" + ", ".join(args) + ")"
    else:
        out.append(pad + "r = {" + ", ".join(f"{names[i]!r}: v{at}{i}" for i in present) + "}")
        out += [f"{pad}if p{at}{i}: r[{names[i]!r}] = v{at}{i}" for i in optional]
        call = f"BUILD{at}(**r)"
    return out + [
        f"{pad}try:",
        f"{pad}    o = {call}",
        f"{pad}except BaseException:",
        f"{pad}    {bail}",
        pad + done.format("o"),
    ]


def _direct_lines(
    maker: Maker, names: list[str], optional: list[int], pad: str, bail: str, ns: dict[str, Any], at: str = ""
) -> list[str]:
    """The body of a record's constructor, written out (see ``maker_for``) into ``o``: the same
    values in the same order, without a call frame and its keyword dict."""
    index = {name: i for i, name in enumerate(names)}
    values: list[str] = []
    for j, attr in enumerate(maker.order):
        i = index.get(attr)
        fill_text = ""
        default = maker.defaults.get(attr)
        if default is not None:
            how, fill = default
            ns[f"D{at}{j}"] = fill
            fill_text = f"D{at}{j}()" if how == "factory" else f"D{at}{j}"
        if i is None:  # not a parameter: a field(init=False) with a default factory
            values.append(fill_text)
        elif i in optional:
            values.append(f"v{at}{i} if p{at}{i} else {fill_text}")
        else:
            values.append(f"v{at}{i}")
    if maker.kind == "tuple":
        body = [f"o = TNEW(BUILD{at}, ({', '.join(values)}{',' if len(values) == 1 else ''}))"]
    else:
        body = [f"o = NEW(BUILD{at})", *(f"o.{attr} = {v}" for attr, v in zip(maker.order, values))]
    return [
        f"{pad}try:",
        *(f"{pad}    {line}" for line in body),
        f"{pad}except BaseException:",
        f"{pad}    {bail}",
    ]


def generate(body: Body, wrong_kind: Check | None) -> Any:
    """The fast paths of ``body``, generated as source and compiled once.

    Always ``fast(d, c)`` over a dict (``body.fast``). With ``wrong_kind`` (a record), the
    returned function is a whole ``check(v, c)``; without it (the parameters), ``body.ordered``
    is set to ``ordered(pairs, c)`` for a raw object. Both raw entries first try the members
    as a model following the schema writes them: in declared order, the optional ones at
    the end possibly left out. Then no dict is built: each pair's key is compared with the
    member expected there, which also rules out unknown and duplicate keys.
    """
    n = len(body.fields)
    ns: dict[str, Any] = {
        "MISSING": MISSING,
        "generic": body.bind,
        "BUILD": body.build,
        "NEW": object.__new__,
        "TNEW": TUPLE_NEW,
        "KNOWN": frozenset(f.wire for f in body.fields),
        "DUPS": duplicates,
        "WRONG": wrong_kind,
        "BULK_OVER": BULK_OVER,
        **FAST_NAMES,
    }
    for i, f in enumerate(body.fields):
        ns[f"C{i}"] = f.check
    # -- over a dict ----------------------------------------------------------------------
    lines = ["def fastd(d, c):"]
    closed = all(f.required for f in body.fields)  # then n keys, all found, leave no room for another
    lines += [
        "    if c.collect: return generic(d, c)",
        f"    if len(d) != {n}: return generic(d, c)"
        if closed
        else f"    if len(d) > {n} or not d.keys() <= KNOWN: return generic(d, c)",
    ]
    optional: list[int] = []
    for i, f in enumerate(body.fields):
        lines.append(f"    x = d.get({f.wire!r}, MISSING)")
        pad = "    "
        if f.required:
            lines.append("    if x is MISSING: return generic(d, c)")
        else:
            optional.append(i)
            cond = "x is not MISSING" if f.nullable else "x is not MISSING and (x is not None or not c.openai)"
            lines.append(f"    p{i} = {cond}")
            lines.append(f"    if p{i}:")
            pad = "        "
        if f.nullable:
            lines.append(f"{pad}if x is None: v{i} = None")
            lines.append(f"{pad}else:")
            pad += "    "
        lines += _inline(f.spec, i, ns, pad)
    required = [i for i in range(n) if i not in optional]
    lines += _build_lines(body, required, optional, "    ", "return generic(d, c)", ns)
    # -- over the raw pairs -------------------------------------------------------------------
    if wrong_kind is not None:
        lines += [
            "def slow(v, c):",
            "    t = type(v)",
            "    if t is dict: return fastd(v, c)",
            "    if t is tuple and c.raw:",
            "        d = dict(v)",
            "        if len(d) != len(v): DUPS(v, c)",
            "        return fastd(d, c)",
            "    return WRONG(v, c)",
        ]
    else:
        lines += [
            "def slow(v, c):",
            "    d = dict(v)",
            "    if len(d) != len(v): DUPS(v, c)",
            "    return fastd(d, c)",
        ]
    # The fewest members an ordered object can have: up to its last required member.
    least = max((i + 1 for i, f in enumerate(body.fields) if f.required), default=0)
    entry = "fast" if wrong_kind is not None else "ordered"
    lines += [f"def {entry}(v, c):"]
    if n == 0:
        lines += ["    return slow(v, c)"]
    else:
        lines.append("    if type(v) is not tuple or not c.raw or c.collect: return slow(v, c)")
        # Every member given (what a strict-mode model always sends): one unpacking.
        lines.append(f"    if len(v) == {n}:")
        lines.append("        " + ", ".join(f"(k{i}, v{i})" for i in range(n)) + (", = v" if n == 1 else " = v"))
        keys = " or ".join(f"k{i} != {f.wire!r}" for i, f in enumerate(body.fields))
        lines.append(f"        if {keys}: return slow(v, c)")
        for i, f in enumerate(body.fields):
            lines += _member_lines(f, i, ns, "        ", f"v{i}")
        lines += _build_lines(body, list(range(n)), [], "        ", "return slow(v, c)", ns)
        if least == n:
            lines.append("    return slow(v, c)")
        else:  # some optional members left out at the end
            lines += ["    m = len(v)", f"    if not {least} <= m < {n}: return slow(v, c)"]
            for i, f in enumerate(body.fields[: n - 1]):
                pad = "    "
                if i >= least:
                    lines.append(f"    if m > {i}:")
                    pad = "        "
                lines += [f"{pad}k, x = v[{i}]", f"{pad}if k != {f.wire!r}: return slow(v, c)"]
                lines += _member_lines(f, i, ns, pad)
            tail = list(range(least, n))
            lines += [f"    p{i} = m > {i}" for i in tail]
            lines += _build_lines(body, list(range(least)), tail, "    ", "return slow(v, c)", ns)
    if wrong_kind is not None and n:
        lines += _many_lines(body, ns)
    exec("\n".join(lines), ns)
    if wrong_kind is None:
        body.ordered = ns["ordered"]
        body.slow = ns["slow"]
    else:
        body.many = ns.get("many")
    return ns["fast"] if wrong_kind is not None else ns["fastd"]


def _many_lines(body: Body, ns: dict[str, Any]) -> list[str]:
    """``many(items, c)``: the items of an array of this record, each bound as ``fast`` binds it.

    The loop holds ``fast``'s first case (a raw object with every member, in order) written
    out, so such an item costs no call. Any other item goes to ``fast``, and one that fails
    on the way to ``slow``, as ``fast`` would send it: the same checks and constructor calls
    run, in the same order, as ``[fast(v, c) for v in items]``. (A raw object of another
    size fails the unpacking, which costs nothing when it succeeds, unlike a ``len`` test.)
    """
    n = len(body.fields)
    bail = "out.append(slow(v, c)); continue"
    unpack = ", ".join(f"(k{i}, v{i})" for i in range(n)) + (", = v" if n == 1 else " = v")
    lines = [
        "def many(items, c):",
        "    if not c.raw or c.collect: return [fast(v, c) for v in items]",
        "    out = []",
        "    for v in items:",
        "        if type(v) is not tuple: out.append(fast(v, c)); continue",
        "        try:",
        f"            {unpack}",
        "        except ValueError:",
        "            out.append(fast(v, c)); continue",
        "        if " + " or ".join(f"k{i} != {f.wire!r}" for i, f in enumerate(body.fields)) + f": {bail}",
    ]
    for i, f in enumerate(body.fields):
        lines += _member_lines(f, i, ns, "        ", f"v{i}", bail)
    lines += _build_lines(body, list(range(n)), [], "        ", bail, ns, "out.append({})")
    return lines + ["    return out"]


def union_many(bodies: Mapping[str, Body], first_wire: str, check: Check) -> Many:
    """``many(items, c)`` of a discriminated union: ``[check(v, c) for v in items]``, with each
    branch's first case written out in one loop, so such an item costs no call.

    ``check`` hands a raw object whose first member is the tag to its branch's ``ordered``;
    here that branch's every-member case is written out, and any other object goes where
    ``ordered`` would send it (``ordered`` itself when the member count differs, ``slow`` when
    a member fails), so the same checks and constructors run, in the same order.
    """
    ns: dict[str, Any] = {"CHECK": check, "FIRST": first_wire, "NEW": object.__new__, "TNEW": TUPLE_NEW}
    ns.update(MISSING=MISSING, BULK_OVER=BULK_OVER, **FAST_NAMES)
    lines = [
        "def many(items, c):",
        "    if not c.raw or c.collect: return [CHECK(v, c) for v in items]",
        "    out = []",
        "    for v in items:",
        "        if type(v) is not tuple or not v: out.append(CHECK(v, c)); continue",
        "        key, tag = v[0]",
        "        if key != FIRST or type(tag) is not str: out.append(CHECK(v, c)); continue",
    ]
    for j, (tag, body) in enumerate(bodies.items()):
        at = f"b{j}_"
        n = len(body.fields)
        ns.update({f"ORDERED{at}": body.ordered, f"SLOW{at}": body.slow, f"BUILD{at}": body.build})
        for i, f in enumerate(body.fields):
            ns[f"C{at}{i}"] = f.check
        bail = f"out.append(SLOW{at}(v, c)); continue"
        unpack = ", ".join(f"(k{at}{i}, v{at}{i})" for i in range(n)) + (", = v" if n == 1 else " = v")
        keys = " or ".join(f"k{at}{i} != {f.wire!r}" for i, f in enumerate(body.fields))
        lines += [
            f"        {'if' if j == 0 else 'elif'} tag == {tag!r}:",
            "            try:",
            f"                {unpack}",
            "            except ValueError:",
            f"                out.append(ORDERED{at}(v, c)); continue",
            f"            if {keys}: {bail}",
        ]
        for i, f in enumerate(body.fields):
            lines += _member_lines(f, f"{at}{i}", ns, "            ", f"v{at}{i}", bail)
        lines += _build_lines(body, list(range(n)), [], "            ", bail, ns, "out.append({})", at)
    lines += ["        else: out.append(CHECK(v, c))", "    return out"]
    exec("\n".join(lines), ns)
    many: Many = ns["many"]
    return many


def _member_lines(
    f: Field, i: int | str, ns: dict[str, Any], pad: str, x: str = "x", bail: str = "return slow(v, c)"
) -> list[str]:
    """Lines of an ordered fast path that check member ``i``'s value, in the variable ``x``, into
    ``v<i>``, or run the statement ``bail``."""
    lines: list[str] = []
    if f.nullable:
        if x == f"v{i}":
            lines.append(f"{pad}if {x} is not None:")
        else:
            lines += [f"{pad}if {x} is None: v{i} = None", f"{pad}else:"]
        return lines + _inline(f.spec, i, ns, pad + "    ", bail, raw=True, x=x)
    if not f.required and f.spec[0] == "call":
        # null may mean "not given": the general path decides (every inline test refuses null)
        lines.append(f"{pad}if {x} is None: {bail}")
    return lines + _inline(f.spec, i, ns, pad, bail, raw=True, x=x)
