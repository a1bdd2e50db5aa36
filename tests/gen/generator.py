"""Random but well-formed tool modules, each tool with the verdict the contract gives it.

Hand-written corpora miss combinations. This writes pairs of modules from the contract's
type grammar: a *types* module (enums, records of the three kinds, aliases, NewTypes,
constants) and a *tools* module that imports from it and defines ``@tool`` functions and
methods. Every type is built together with the schema fragment ``CONTRACT.md`` gives it
(written here from the contract's tables, never by calling the code under test), so each
generated tool carries its expected manifest entry, and each deliberate fault its OLT code,
also written as a ``# expect:`` comment on the line where the static side reports it
(``test-data/README.md``), so a failing module can be copied into ``test-data`` as it is.

Everything is drawn from one ``random.Random`` seeded by ``(seed, index)``: the same
arguments give the same modules, byte for byte.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

__all__ = [
    "KEYWORD_ORDER",
    "ExpectedTool",
    "GeneratedModule",
    "generate_pair",
    "ordered",
]

Frag = dict[str, Any]
Naming = Optional[str]

#: Return annotations with ``Any`` in them, and their output schemas (None: none written).
ANY_RETURNS: list[tuple[str, Optional[Frag]]] = [
    ("Any", None),
    ("Optional[Any]", None),
    ("dict[str, Any]", {"type": "object", "additionalProperties": {}}),
    ("list[Any]", {"type": "array", "items": {}}),
    ("Optional[dict[str, Any]]", {"type": ["object", "null"], "additionalProperties": {}}),
    ("list[dict[str, Any]]", {"type": "array", "items": {"type": "object", "additionalProperties": {}}}),
    ("dict[str, list[Any]]", {"type": "object", "additionalProperties": {"type": "array", "items": {}}}),
]

#: The contract's fixed keyword order ("Types").
KEYWORD_ORDER = (
    "type",
    "format",
    "description",
    "anyOf",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "contentEncoding",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "default",
)

TIMEDELTA_PATTERN = r"^-?(\d+\.)?\d{2}:\d{2}:\d{2}(\.\d{1,6})?$"

SIZED = {
    "Int8": (-(2**7), 2**7 - 1),
    "UInt8": (0, 2**8 - 1),
    "Int16": (-(2**15), 2**15 - 1),
    "UInt16": (0, 2**16 - 1),
    "Int32": (-(2**31), 2**31 - 1),
    "UInt32": (0, 2**32 - 1),
    "Int64": (-(2**63), 2**63 - 1),
    "UInt64": (0, 2**64 - 1),
}

WORDS = (
    "alpha bravo cedar delta ember frost grove harbor island jasper kettle lumen meadow north "
    "opal prism quartz river summit timber umber violet willow xenon yonder zephyr amber basil "
    "copper dune echo fable garnet hollow indigo juniper"
).split()
VERBS = "get set find list make read send open close move copy sort tag scan load save".split()
NOUNS = "docket ticket order user file note record item queue event report batch entry".split()
PARAMS = (
    "query limit items mode flag target when payload note tags count data path size label level owner "
    "scope ratio page order status amount user_name retry delay region color old_text new_text max_items "
    "start_at"
).split()
#: Patterns that strings of any length from 3 up can match (so lengths 0-5 to 5-40 leave room).
PATTERNS = (r"^[a-z]+$", r"^[A-Z][a-z]*$", r"[0-9]", r"^[a-f0-9]+$", r"ab|cd", r"^x*y$", r"^[a-z]+-[0-9]+$", r"\d")
#: Patterns a one-character string can match (for Char).
CHAR_PATTERNS = (r"^[a-z]$", r"[0-9]", r"^[A-Z]$", r"\w", r"x|y")
BAD_PATTERNS = (r"(?<=a)b", r"(?P<n>a)", r"a\Z", r"\Aa")

#: Marks a default the runtime does not write (a non-finite float).
NOT_WRITTEN = object()


def ordered(frag: Frag) -> Frag:
    """``frag`` with its keys in the contract's keyword order."""
    unknown = set(frag) - set(KEYWORD_ORDER)
    assert not unknown, unknown
    return {k: frag[k] for k in KEYWORD_ORDER if k in frag}


def nullable(frag: Frag) -> Frag:
    """The contract's ``X | None`` row."""
    out = dict(frag)
    if "anyOf" in out:
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]
    elif "type" in out:
        t = out["type"]
        if isinstance(t, list):
            if "null" not in t:
                out["type"] = [*t, "null"]
        else:
            out["type"] = [t, "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


def camel(name: str) -> str:
    """``old_text`` -> ``oldText`` (names here never start with an underscore)."""
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


# --- the pieces of a module -------------------------------------------------------------


class Mod:
    """A module being written: its definitions and tools, as blocks of source."""

    def __init__(self, name: str, role: str, future: bool, other: Mod | None) -> None:
        self.name = name
        self.role = role  # "types" or "tools"
        self.future = future
        self.other = other  # the types module a tools module imports from
        self.consts: list[str] = []
        self.blocks: list[str] = []
        self.late_blocks: list[str] = []  # records placed after the tools (string annotations only)
        self.tools: list[str] = []
        self.imports: set[str] = set()
        self.enums: list[Ty] = []
        self.records: list[RecSpec] = []
        self.aliases: list[Ty] = []
        self.allow_late = True


@dataclass(frozen=True)
class Dflt:
    """A default: its source text and what each side makes of it.

    ``state`` is what the contract's static reading gives: ``value`` (readable and written),
    ``null`` (None), ``opaque`` (not written; either side may call it unreadable since the type
    is not writable) or ``unreadable`` (OLT014, static only; the runtime writes ``value``
    unless it is ``NOT_WRITTEN``).
    """

    src: str
    state: str
    value: Any = None

    @property
    def runtime_written(self) -> bool:
        return self.state == "value" or (self.state == "unreadable" and self.value is not NOT_WRITTEN)


@dataclass
class Ty:
    """One type expression and everything the contract says about it."""

    ref: Callable[[Mod], str]
    frag: Callable[[Naming], Frag]
    shape: str
    writable: bool = False
    hashable: bool = True
    nullable: bool = False
    defaults: Callable[[Mod], list[Dflt]] = field(default=lambda m: [])
    opaque: Callable[[Mod], list[Dflt]] = field(default=lambda m: [])
    codes: tuple[str, ...] = ()
    tag: str | None = None  # a single-string Literal: usable as a discriminator
    record: RecSpec | None = None
    #: For an ``Annotated`` type (or an alias of one): its last Description and Doc texts.
    #: Directly nested Annotated flattens (typing does it), so an outer Doc does not beat an inner Description.
    annot: tuple[str | None, str | None] | None = None
    #: The marker families its ``Annotated`` layers set (``marker_family``): a flattened outer
    #: layer must not set one again (a keyword set twice is OLT013).
    families: frozenset[str] = frozenset()


#: The description markers each choice of ``Gen.annotated`` writes.
_DESCRIBED_BY: dict[str, set[str]] = {"Description": {"Description"}, "Doc": {"Doc"}, "both": {"Description", "Doc"}}


#: The family a pydantic ``Field`` argument's keyword belongs to.
_FIELD_FAMILIES = {"ge": "range", "le": "range", "gt": "range", "lt": "range", "min_length": "length"}
_FIELD_FAMILIES.update({"max_length": "length", "pattern": "text format"})


def marker_family(src: str) -> str:
    """The keywords a marker (as written) sets, as one family: two of a family in one flattened
    ``Annotated`` would set a keyword twice (or, for the text formats, never match)."""
    kind = src.split("(")[0].replace("at.", "")
    if kind == "Field":  # the generator's Field rows set keywords of one family each
        first = src[len("Field(") :].split("=")[0]
        return _FIELD_FAMILIES[first]
    if kind in ("Range", "Ge", "Le", "Gt", "Lt", "Interval"):
        return "range"
    if "Len" in kind:
        return "length"
    if kind in ("Email", "Url", "Pattern"):
        return "text format"
    return kind


@dataclass
class FieldSpec:
    name: str
    ty: Ty
    default: Dflt | None = None
    factory: str | None = None
    json_name: str | None = None
    required: bool = True
    td_qual: str | None = None
    init: bool = True


@dataclass
class RecSpec:
    name: str
    kind: str  # dataclass, namedtuple, typeddict
    home: Mod
    fields: list[FieldSpec]
    base: RecSpec | None = None
    hashable: bool = True
    decorator: str = "@dataclass"
    td_flavor: str = "TypedDict"
    total: bool = True
    docs: dict[str, str] = field(default_factory=dict)
    doc_src: str = ""
    extra_lines: list[str] = field(default_factory=list)  # ClassVar / init=False members
    late: bool = False  # defined after the tools (string annotations): never in a runtime expression

    def all_fields(self) -> list[FieldSpec]:
        own = [f for f in self.fields if f.init]
        return (self.base.all_fields() if self.base else []) + own

    def doc_chain(self) -> list[dict[str, str]]:
        return [self.docs] + (self.base.doc_chain() if self.base else [])


@dataclass
class ParamSpec:
    name: str
    ann: str | None
    ty: Ty | None = None
    kind: str = "normal"  # normal, context, token, args, kwargs
    default: Dflt | None = None
    doc: str | None = None
    static: list[str] = field(default_factory=list)
    runtime: list[str] = field(default_factory=list)


@dataclass
class ExpectedTool:
    """One generated tool: where it is and what both sides must say about it."""

    module: str
    qualname: str
    static: list[str]
    runtime: list[str]
    #: The manifest entry the runtime must print (None when the runtime refuses the tool).
    entry: dict[str, Any] | None

    @property
    def static_valid(self) -> bool:
        return not self.static

    @property
    def runtime_valid(self) -> bool:
        return not self.runtime


@dataclass
class GeneratedModule:
    name: str
    source: str
    tools: list[ExpectedTool]


# --- the generator ----------------------------------------------------------------------


class Gen:
    """Draws one pair of modules."""

    def __init__(self, seed: int, index: int, fault_rate: float = 0.35) -> None:
        self.rng = random.Random(f"onellm-gen:{seed}:{index}")
        self.n = 0
        self.fault_rate = fault_rate
        prefix = f"gen_s{seed}_m{index:05d}"
        self.types = Mod(prefix + "_types", "types", self.rng.random() < 0.5, None)
        self.tools = Mod(prefix + "_tools", "tools", self.rng.random() < 0.5, self.types)
        self.expected: list[ExpectedTool] = []
        self.used_fnames: set[str] = set()
        self.in_alias = 0
        #: Literal value sets drawn so far: drawn again, in another order (typing's caches take
        #: Literal["b", "a"] for Literal["a", "b"]; the runtime must read the order written)
        self.literal_sets: list[list[Any]] = []
        #: Each enum's member names (by the id of its Ty), in definition order, aliases left out.
        self.enum_names: dict[int, list[str]] = {}

    # -- small helpers

    def uid(self) -> int:
        self.n += 1
        return self.n

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq: Any) -> Any:
        return self.rng.choice(list(seq))

    def words(self, lo: int, hi: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(lo, hi)))

    def entity_ref(self, home: Mod, name: str) -> Callable[[Mod], str]:
        def ref(m: Mod) -> str:
            if m is home:
                return name
            if self.chance(0.5):
                m.imports.add(name)
                return name
            return f"tb.{name}"

        return ref

    def home_for(self, m: Mod) -> Mod:
        """Where a new entity used from ``m`` is defined: ``m`` or (for tools) the types module."""
        if m.other is not None and self.chance(0.5):
            return m.other
        return m

    def visible(self, m: Mod) -> list[Mod]:
        return [m] if m.other is None else [m, m.other]

    # -- scalars

    def scalar(self, m: Mod) -> Ty:
        kind = self.pick(
            [
                "bool",
                "int",
                "int",
                "float",
                "decimal",
                "str",
                "str",
                "str",
                "char",
                "uuid",
                "datetime",
                "date",
                "time",
                "timedelta",
                "bytes",
                "ipv4",
                "ipv6",
                "sized",
                "newtype",
            ]
        )
        if kind == "newtype":
            return self.newtype(m)
        return self.scalar_of(kind)

    def scalar_of(self, kind: str) -> Ty:
        rng = self.rng
        if kind == "bool":
            return Ty(
                lambda m: "bool",
                lambda n: {"type": "boolean"},
                "bool",
                writable=True,
                defaults=lambda m: [Dflt(v, "value", v == "True") for v in ("True", "False")],
            )
        if kind == "int":
            return Ty(
                lambda m: "int",
                lambda n: {"type": "integer"},
                "int",
                writable=True,
                defaults=lambda m: self.int_defaults(m),
            )
        if kind == "float":
            return Ty(
                lambda m: "float",
                lambda n: {"type": "number"},
                "float",
                writable=True,
                defaults=lambda m: (
                    [
                        Dflt("2.5", "value", 2.5),
                        Dflt("-0.5", "value", -0.5),
                        Dflt("3", "value", 3),
                        Dflt("1e3", "value", 1000.0),
                    ]
                    + self.const_defaults(m, "float")
                ),
            )
        if kind == "decimal":
            src = self.pick(["Decimal", "decimal.Decimal"])
            return Ty(
                lambda m: src,
                lambda n: {"type": "number"},
                "decimal",
                opaque=lambda m: [Dflt('Decimal("1.5")', "opaque")],
            )
        if kind == "str":
            return Ty(
                lambda m: "str",
                lambda n: {"type": "string"},
                "str",
                writable=True,
                defaults=lambda m: self.str_defaults(m),
            )
        if kind == "char":
            return Ty(
                lambda m: "Char",
                lambda n: {"type": "string", "minLength": 1, "maxLength": 1},
                "char",
                writable=True,
                defaults=lambda m: [Dflt('"x"', "value", "x"), Dflt('"\\u00e9"', "value", "\u00e9")],
            )
        if kind == "uuid":
            src = self.pick(["uuid.UUID", "UUID"])
            return Ty(lambda m: src, lambda n: {"type": "string", "format": "uuid"}, "uuid")
        if kind in ("datetime", "date", "time"):
            fmt = {"datetime": "date-time", "date": "date", "time": "time"}[kind]
            opaque = {
                "date": "datetime.date(2020, 1, 2)",
                "time": "datetime.time(12, 30)",
                "datetime": "datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone.utc)",
            }[kind]
            return Ty(
                lambda m: f"datetime.{kind}",
                lambda n: {"type": "string", "format": fmt},
                kind,
                opaque=lambda m: [Dflt(opaque, "opaque")],
            )
        if kind == "timedelta":
            return Ty(
                lambda m: "datetime.timedelta",
                lambda n: {"type": "string", "pattern": TIMEDELTA_PATTERN},
                "timedelta",
                opaque=lambda m: [Dflt("datetime.timedelta(seconds=5)", "opaque")],
            )
        if kind == "bytes":
            return Ty(
                lambda m: "bytes",
                lambda n: {"type": "string", "contentEncoding": "base64"},
                "bytes",
                opaque=lambda m: [Dflt('b"ab"', "opaque")],
            )
        if kind in ("ipv4", "ipv6"):
            name = {"ipv4": "IPv4Address", "ipv6": "IPv6Address"}[kind]
            src = self.pick([f"ipaddress.{name}", name])
            return Ty(
                lambda m: src,
                lambda n: {"type": "string", "format": kind},
                kind,
                opaque=lambda m: [Dflt(f'ipaddress.{name}("{"192.0.2.1" if kind == "ipv4" else "::1"}")', "opaque")],
            )
        if kind == "sized":
            alias = rng.choice(sorted(SIZED))
            lo, hi = SIZED[alias]
            return Ty(
                lambda m: alias,
                lambda n: {"type": "integer", "minimum": lo, "maximum": hi},
                "int",
                writable=True,
                defaults=lambda m: [Dflt("7", "value", 7), Dflt("0", "value", 0)],
            )
        raise AssertionError(kind)

    def int_defaults(self, m: Mod) -> list[Dflt]:
        return (
            [Dflt("5", "value", 5), Dflt("-3", "value", -3), Dflt("0", "value", 0)]
            + self.const_defaults(m, "int")
            + self.computed_defaults(m, "int")
        )

    def computed_defaults(self, m: Mod, shape: str) -> list[Dflt]:
        """Defaults both sides compute: arithmetic, string ``+`` and f-strings, of literals and of a
        module constant (the contract's "Values in markers, defaults, options and enum members")."""
        if not self.chance(0.3):
            return []
        name = f"{shape.upper()}_BASE_{self.uid()}"
        if shape == "int":
            base = self.rng.randint(-20, 20)
            m.consts.append(f"{name} = {base} * 3")
            a, b = self.rng.randint(1, 9), self.rng.randint(1, 9)
            return [
                Dflt(f"{name} // {a} - {b}", "value", base * 3 // a - b),
                Dflt(f"-{name} % {a} + {b} * 2", "value", -(base * 3) % a + b * 2),
            ]
        word = self.pick(WORDS)
        m.consts.append(f'{name} = "{word}" + "-"')
        n = self.rng.randint(0, 999)
        return [
            Dflt(f'{name} + "x"', "value", f"{word}-x"),
            Dflt(f'f"{{{name}!r}}:{{{n}:>5}}"', "value", f"{word + '-'!r}:{n:>5}"),
        ]

    def computed_text(self, m: Mod | None, text: str) -> str:
        """An expression whose value is ``text`` (plain words): ``+`` of literals, an f-string with
        a format spec, or (given the module that will hold it) ``+`` and f-strings of a constant."""
        head, _, tail = text.partition(" ")
        which = self.pick(["plus", "fstring", "const_plus"])
        if which == "plus" or not tail:
            return f'"{head}" + "{" " + tail if tail else ""}"'
        if m is None:
            return f'f"{{{head!r}:<{len(head)}}} {tail}"'
        name = f"TEXT_{self.uid()}"
        m.consts.append(f'{name} = "{head}"')
        if which == "fstring":
            return f'f"{{{name}:<{len(head)}}} {tail}"'
        return f'{name} + " " + "{tail}"'

    def str_defaults(self, m: Mod) -> list[Dflt]:
        return (
            [
                Dflt('"hello"', "value", "hello"),
                Dflt('""', "value", ""),
                Dflt("'a \"b\" c'", "value", 'a "b" c'),
                Dflt('"line\\nbreak"', "value", "line\nbreak"),
                Dflt('"caf\\u00e9"', "value", "caf\u00e9"),
            ]
            + self.const_defaults(m, "str")
            + self.computed_defaults(m, "str")
        )

    def const_defaults(self, m: Mod, shape: str) -> list[Dflt]:
        """Module constants of this shape, visible from ``m`` (made on demand)."""
        if not self.chance(0.3):
            return []
        values: dict[str, tuple[str, Any]] = {
            "int": ("12", 12),
            "float": ("0.25", 0.25),
            "str": ('"preset"', "preset"),
            "bool": ("True", True),
        }
        src, value = values[shape]
        home = m if m.other is None or self.chance(0.7) else m.other
        name = f"{shape.upper()}_DEFAULT_{self.uid()}"
        form = self.pick(["plain", "final", "final_typed"])
        typed = {"int": "int", "float": "float", "str": "str", "bool": "bool"}[shape]
        home.consts.append(
            {
                "plain": f"{name} = {src}",
                "final": f"{name}: Final = {src}",
                "final_typed": f"{name}: Final[{typed}] = {src}",
            }[form]
        )
        ref = self.entity_ref(home, name)
        return [Dflt(ref(m), "value", value)]

    def newtype(self, m: Mod) -> Ty:
        base = self.scalar_of(self.pick(["int", "str", "float", "bool", "uuid", "date"]))
        home = self.home_for(m)
        name = f"NT{self.uid()}"
        home.blocks.append(f'{name} = NewType("{name}", {base.ref(home)})')
        ty = Ty(
            self.entity_ref(home, name),
            base.frag,
            base.shape,
            base.writable,
            base.hashable,
            defaults=base.defaults,
            opaque=base.opaque,
        )
        return ty

    # -- enums and literals

    def enum(self, m: Mod) -> Ty:
        pool = [e for mod in self.visible(m) for e in mod.enums]
        if pool and self.chance(0.4):
            return self.rng.choice(pool)
        home = self.home_for(m)
        name = f"Color{self.uid()}"
        members = self.rng.sample(
            ["RED", "GREEN", "BLUE", "CYAN", "MAGENTA", "AMBER", "Teal", "dark_gray"], self.rng.randint(1, 4)
        )
        bases = ["enum.Enum", "str, enum.Enum", "enum.IntEnum"]
        if sys.version_info >= (3, 11):
            bases.append("enum.StrEnum")
        base = self.pick(bases)
        lines = [f"class {name}({base}):"]
        #: each member's value as the enum holds it (a str mixin turns an int into its digits)
        held: list[object] = []
        for i, mem in enumerate(members):
            value, v = self.enum_value(home, base, mem, i)
            lines.append(f"    {mem} = {value}")
            held.append(v)
        alias: str | None = None
        if self.chance(0.3):
            alias = "ALIAS_OF_" + members[0].upper()
            # the first member's value written again (for auto() under StrEnum: its lower-cased name)
            first_value = lines[1].split(" = ", 1)[1] if base != "enum.StrEnum" else repr(members[0].lower())
            lines.append(f"    {alias} = {first_value}")
        home.blocks.append("\n".join(lines))
        ref = self.entity_ref(home, name)
        # the contract's two Enum rows: every value a string -> by value, else by name
        wire = [str(v) for v in held] if all(isinstance(v, str) for v in held) else list(members)
        wire_of = dict(zip(members, wire))

        def defaults(mm: Mod) -> list[Dflt]:
            found = [Dflt(f"{ref(mm)}.{mem}", "value", wire_of[mem]) for mem in members[:2]]
            if alias is not None:
                found.append(Dflt(f"{ref(mm)}.{alias}", "value", wire_of[members[0]]))
            return found

        ty = Ty(ref, lambda n: {"type": "string", "enum": list(wire)}, "enum", writable=True, defaults=defaults)
        self.enum_names[id(ty)] = list(members)
        home.enums.append(ty)
        return ty

    def enum_value(self, home: Mod, base: str, member: str, index: int) -> tuple[str, object]:
        """One member's value: its source text, and the value the enum holds."""
        number = index + 1
        if base == "enum.IntEnum":
            return str(number), number
        if base == "enum.StrEnum":
            if self.chance(0.7):
                return "enum.auto()", member.lower()
            return repr(member.lower()), member.lower()
        if base == "str, enum.Enum":
            if self.chance(0.15):  # the str mixin makes it a string
                return str(number), str(number)
        elif self.chance(0.3):  # a plain Enum: an integer makes the whole enum go by name
            return str(number), number
        if self.chance(0.2):  # a string value given by a module constant
            const = f"{member.upper()}_VALUE_{self.uid()}"
            home.consts.append(f"{const} = {member.lower()!r}")
            return const, member.lower()
        return repr(member.lower()), member.lower()

    def literal_values(self, pool: list[Any], lo: int, hi: int) -> list[Any]:
        """Values from ``pool`` in any order; often a set drawn before, reordered."""
        fits = [v for v in COMMON_LITERALS if set(map(repr, v)) <= set(map(repr, pool)) and lo <= len(v) <= hi]
        if fits and self.chance(0.3):  # the same set in other modules of the batch, as likely in another order
            values = list(self.pick(fits))
            self.rng.shuffle(values)
            self.literal_sets.append(values)
            return values
        seen = [v for v in self.literal_sets if set(map(repr, v)) <= set(map(repr, pool)) and lo <= len(v) <= hi]
        if seen and self.chance(0.4):
            values = list(self.pick(seen))
            self.rng.shuffle(values)
        else:
            values = self.rng.sample(pool, self.rng.randint(lo, hi))
        self.literal_sets.append(values)
        return values

    def literal(self) -> Ty:
        kind = self.pick(["str", "str", "int", "bool"])
        if kind == "str":
            values: list[Any] = self.literal_values(["a", "b", "on", "off", "x y", "\u00fc", "1"], 1, 3)
        elif kind == "int":
            values = self.literal_values([0, 1, 2, -4, 10], 1, 3)
        else:
            values = self.literal_values([True, False], 1, 2)
        jtype = {"str": "string", "int": "integer", "bool": "boolean"}[kind]
        src = "Literal[" + ", ".join(_py(v) for v in values) + "]"
        tag = values[0] if kind == "str" and len(values) == 1 else None
        return Ty(
            lambda m: src,
            lambda n: {"type": jtype, "enum": list(values)},
            "literal",
            writable=True,
            defaults=lambda m: [Dflt(_py(values[0]), "value", values[0])],
            tag=tag,
        )

    def literal_union(self) -> Ty:
        values = self.literal_values(["p", "q", "r", "s", "t"], 2, 4)
        cut = self.rng.randint(1, len(values) - 1)
        left, right = values[:cut], values[cut:]
        src = "Literal[" + ", ".join(map(_py, left)) + "] | Literal[" + ", ".join(map(_py, right)) + "]"
        if self.chance(0.3):
            src = "Union[Literal[" + ", ".join(map(_py, left)) + "], Literal[" + ", ".join(map(_py, right)) + "]]"
        return Ty(
            lambda m: src,
            lambda n: {"type": "string", "enum": list(values)},
            "literal",
            writable=True,
            defaults=lambda m: [Dflt(_py(values[-1]), "value", values[-1])],
        )

    # -- containers

    def optional(self, inner: Ty, m: Mod) -> Ty:
        form = self.pick(["pipe", "pipe", "optional", "union", "none_first"])
        if form == "union" and inner.shape == "union":
            form = "optional"

        def ref(mm: Mod) -> str:
            s = inner.ref(mm)
            return {
                "pipe": f"{s} | None",
                "optional": f"Optional[{s}]",
                "union": f"Union[{s}, None]",
                "none_first": f"None | {s}",
            }[form]

        return Ty(
            ref,
            lambda n: nullable(inner.frag(n)),
            inner.shape,
            inner.writable,
            inner.hashable,
            True,
            defaults=lambda mm: [Dflt("None", "null")] + inner.defaults(mm),
            opaque=lambda mm: [Dflt("None", "null")],
            codes=inner.codes,
            record=inner.record,
        )

    def array(self, m: Mod, depth: int) -> Ty:
        kind = self.pick(
            [
                "list",
                "list",
                "Sequence",
                "typing.Sequence",
                "MutableSequence",
                "Iterable",
                "Collection",
                "tuple",
                "typing.List",
                "collections.abc.Sequence",
            ]
        )
        item = self.valid(m, depth - 1)

        def ref(mm: Mod) -> str:
            s = item.ref(mm)
            return f"tuple[{s}, ...]" if kind == "tuple" else f"{kind}[{s}]"

        opaque_src = {"list": "[]", "typing.List": "[]", "MutableSequence": "[]", "tuple": "()"}.get(kind, "()")
        return Ty(
            ref,
            lambda n: {"type": "array", "items": item.frag(n)},
            "array",
            hashable=kind == "tuple" and item.hashable,
            opaque=lambda mm: [Dflt(opaque_src, "opaque")],
        )

    def set_(self, m: Mod, depth: int) -> Ty:
        kind = self.pick(["set", "frozenset", "AbstractSet", "MutableSet", "typing.FrozenSet"])
        item = self.valid(m, depth - 1, need_hashable=True)

        def ref(mm: Mod) -> str:
            return f"{kind}[{item.ref(mm)}]"

        opaque_src = "frozenset()" if kind in ("frozenset", "typing.FrozenSet", "AbstractSet") else "set()"
        return Ty(
            ref,
            lambda n: {"type": "array", "items": item.frag(n), "uniqueItems": True},
            "set",
            hashable=kind in ("frozenset", "typing.FrozenSet"),
            opaque=lambda mm: [Dflt(opaque_src, "opaque")],
        )

    def map_(self, m: Mod, depth: int) -> Ty:
        kind = self.pick(["dict", "Mapping", "MutableMapping", "typing.Dict"])
        value = self.valid(m, depth - 1)

        def ref(mm: Mod) -> str:
            return f"{kind}[str, {value.ref(mm)}]"

        return Ty(
            ref,
            lambda n: {"type": "object", "additionalProperties": value.frag(n)},
            "map",
            hashable=False,
            opaque=lambda mm: [Dflt("{}", "opaque")],
        )

    def json(self) -> Ty:
        kind = self.pick(["JsonValue", "JsonObject", "JsonArray"])
        frag: Frag = {"JsonValue": {}, "JsonObject": {"type": "object"}, "JsonArray": {"type": "array"}}[kind]
        shape = {"JsonValue": "json_value", "JsonObject": "json_object", "JsonArray": "json_array"}[kind]
        return Ty(
            lambda m: kind,
            lambda n: dict(frag),
            shape,
            hashable=False,
            opaque=lambda m: [Dflt("None", "null")] if kind == "JsonValue" else [],
        )

    # -- Annotated

    def markers_for(self, inner: Ty) -> list[tuple[str, Callable[[Frag], None]]]:
        """Markers that fit ``inner`` (contract, "Annotations"), each with its effect on the fragment."""
        s = inner.shape
        out: list[tuple[str, Callable[[Frag], None]]] = []
        is_array = s in ("array", "set", "json_array")

        def put(**kw: Any) -> Callable[[Frag], None]:
            def apply(f: Frag) -> None:
                f.update(kw)

            return apply

        if s == "str":
            n = self.rng.randint(0, 5)
            hi = self.rng.randint(5, 40)
            out += [
                (f"MaxLength({hi})", put(maxLength=hi)),
                (f"MinLength({n})", put(minLength=n)),
                (f"Length({n}, {hi})", put(minLength=n, maxLength=hi)),
                (f"StringLength({hi})", put(maxLength=hi)),
                (f"StringLength({hi}, min_length={n})", put(maxLength=hi, **({"minLength": n} if n else {}))),
                (f"at.MinLen({n})", put(minLength=n)),
                (f"at.MaxLen({hi})", put(maxLength=hi)),
                (f"at.Len({n}, {hi})", put(minLength=n, maxLength=hi)),
                ("Email()", put(format="email")),
                ("Url()", put(format="uri")),
            ]
            out += [  # the same through pydantic's Field
                (f"Field(max_length={hi})", put(maxLength=hi)),
                (f"Field(min_length={n}, max_length={hi})", put(minLength=n, maxLength=hi)),
            ]
        if s in ("str", "char"):
            p = self.pick(PATTERNS if s == "str" else CHAR_PATTERNS)
            out.append((f"Pattern({p!r})", put(pattern=p)))
            out.append((f"Field(pattern={p!r})", put(pattern=p)))
        if s in ("int", "float", "decimal"):
            lo = self.rng.randint(-5, 5)
            hi = max(lo, 0) + self.rng.randint(0, 50)
            out += [
                (f"Range({lo}, {hi})", put(minimum=lo, maximum=hi)),
                (f"Range(min={lo})", put(minimum=lo)),
                (f"Range(max={hi})", put(maximum=hi)),
                (f"Range(None, {hi})", put(maximum=hi)),
                (f"at.Ge({lo})", put(minimum=lo)),
                (f"at.Le({hi})", put(maximum=hi)),
                (f"at.Interval(ge={lo}, le={hi})", put(minimum=lo, maximum=hi)),
            ]
            out.append((f"Field(ge={lo}, le={hi})", put(minimum=lo, maximum=hi)))
            if s == "int":  # exclusive bounds, exact on integers (contract, rule zero)
                out += [
                    (f"at.Gt({lo - 1})", put(minimum=lo)),
                    (f"at.Lt({hi + 1})", put(maximum=hi)),
                    (f"at.Interval(gt={lo - 1}, lt={hi + 1})", put(minimum=lo, maximum=hi)),
                    (f"Field(gt={lo - 1}, lt={hi + 1})", put(minimum=lo, maximum=hi)),
                ]
            if s != "int":
                out.append(("Range(0.5, 2.5)", put(minimum=0.5, maximum=2.5)))
            out.append(self.computed_range(lo, hi, put))
        if is_array:
            # a set of a two-member enum cannot have 3 distinct items: keep sets' minimum at 1
            n = self.rng.randint(0, 1 if s == "set" else 3)
            hi = self.rng.randint(3, 8)
            out += [
                (f"MinLength({n})", put(minItems=n)),
                (f"MaxLength({hi})", put(maxItems=hi)),
                (f"Length({n}, {hi})", put(minItems=n, maxItems=hi)),
                (f"at.MinLen({n})", put(minItems=n)),
                (f"at.Len({n}, {hi})", put(minItems=n, maxItems=hi)),
                (f"Field(max_length={hi})", put(maxItems=hi)),
            ]
        return out

    def computed_range(
        self, lo: int, hi: int, put: Callable[..., Callable[[Frag], None]]
    ) -> tuple[str, Callable[[Frag], None]]:
        """``Range`` with bounds given by arithmetic (``Range(0, 10*100)`` in the peers' examples)."""
        k = self.rng.randint(2, 9)
        return (f"Range({lo} * {k} // {k}, ({hi} - 1) + 1)", put(minimum=lo, maximum=hi))

    def annotated(self, inner: Ty, m: Mod, allow_description: bool = True) -> Ty:
        """``Annotated[inner, ...]`` with markers that fit, maybe a description, maybe unknown metadata."""
        fits = self.markers_for(inner)
        chosen: list[tuple[str, Callable[[Frag], None]]] = []
        families: set[str] = set(inner.families)
        for src, apply in self.rng.sample(fits, min(len(fits), self.rng.randint(0, 2))):
            family = marker_family(src)
            if family in families:
                continue  # a keyword set twice is OLT013; an email matching ^[a-z]+$ cannot exist
            families.add(family)
            chosen.append((src, apply))
        metas = [src for src, _ in chosen]
        desc: str | None = None
        doc: str | None = None
        if allow_description and self.chance(0.4):
            which = self.pick(
                [w for w in ("Description", "Doc", "both") if not families & _DESCRIBED_BY[w]] or ["none"]
            )
            text = self.words(1, 4).capitalize() + "."
            if which == "Description":
                written = self.computed_text(None, text) if self.chance(0.3) else f'"{text}"'
                metas.append(f"Description({written})")
                desc = text
                families.add("Description")
            elif which == "Doc":
                metas.append(f'Doc("{text}")')
                doc = text
                families.add("Doc")
            elif which == "both":
                families |= {"Description", "Doc"}
                other = self.words(1, 3)
                metas += (
                    [f'Doc("{other}")', f'Description("{text}")']
                    if self.chance(0.5)
                    else [f'Description("{text}")', f'Doc("{other}")']
                )
                desc, doc = text, other
        plain: str | None = None
        if self.chance(0.15) and "plain string" not in families:
            # a plain string is a description, after Description and Doc (of any layer)
            plain = self.words(1, 3)
            metas.insert(self.rng.randint(0, len(metas)), f'"{plain}"')
            families.add("plain string")
        if not metas:
            if "Description" in families:
                return inner
            desc = self.words(1, 2)
            metas.append(f'Description("{desc}")')
            families.add("Description")
        if inner.annot is not None:  # Annotated[Annotated[T, a], b] is Annotated[T, a, b]
            desc = desc if desc is not None else inner.annot[0]
            doc = doc if doc is not None else inner.annot[1]
        if plain is not None and doc is None:
            doc = plain  # ranks like Doc against the docstring, and loses to any Doc written
        description = desc if desc is not None else doc
        inside_null = inner.nullable
        applies = [a for _, a in chosen]

        def frag(n: Naming) -> Frag:
            base = inner.frag(n)
            if inside_null:
                # contract: annotations inside Annotated[X | None, ...] apply to X
                base = _denull(base)
            f = dict(base)
            for a in applies:
                a(f)
            if description is not None:
                f["description"] = description
            f = ordered(f)
            return nullable(f) if inside_null else f

        def ref(mm: Mod) -> str:
            return f"Annotated[{inner.ref(mm)}, {', '.join(metas)}]"

        return Ty(
            ref,
            frag,
            inner.shape,
            inner.writable,
            inner.hashable,
            inner.nullable,
            defaults=inner.defaults,
            opaque=inner.opaque,
            tag=inner.tag if not chosen else None,
            record=inner.record,
            annot=(desc, doc),
            families=frozenset(families),
        )

    def alias(self, m: Mod, depth: int) -> Ty:
        pool = [a for mod in self.visible(m) for a in mod.aliases]
        if pool and self.chance(0.3):
            return self.rng.choice(pool)
        home = self.home_for(m)
        self.in_alias += 1
        try:
            inner = self.valid(home, depth - 1)
        finally:
            self.in_alias -= 1
        if self.chance(0.5) and not inner.nullable and inner.shape in ("str", "int", "float", "array", "set", "char"):
            inner = self.annotated(inner, home)
        name = f"Alias{self.uid()}"
        form = self.pick(["plain", "typealias"])
        home.blocks.append(
            f"{name} = {inner.ref(home)}" if form == "plain" else f"{name}: TypeAlias = {inner.ref(home)}"
        )
        ty = Ty(
            self.entity_ref(home, name),
            inner.frag,
            inner.shape,
            inner.writable,
            inner.hashable,
            inner.nullable,
            defaults=inner.defaults,
            opaque=inner.opaque,
            record=inner.record,
            annot=inner.annot,
            tag=inner.tag,
            families=inner.families,
        )
        home.aliases.append(ty)
        return ty

    # -- records

    def record_ty(self, rec: RecSpec) -> Ty:
        return Ty(
            self.entity_ref(rec.home, rec.name),
            lambda n: record_frag(rec, n),
            "record",
            hashable=record_hashable(rec),
            record=rec,
        )

    def record(self, m: Mod, depth: int, need_hashable: bool = False) -> Ty:
        pool = [
            r
            for mod in self.visible(m)
            for r in mod.records
            if (not need_hashable or record_hashable(r)) and not (r.late and self.in_alias)
        ]
        if pool and self.chance(0.35):
            return self.record_ty(self.pick(pool))
        home = self.home_for(m)
        rec = self.new_record(home, depth, need_hashable=need_hashable)
        return self.record_ty(rec)

    def new_record(
        self,
        home: Mod,
        depth: int,
        *,
        need_hashable: bool = False,
        kind: str | None = None,
        tag_fields: list[tuple[str, str]] = (),  # type: ignore[assignment]
        n_fields: int | None = None,
        extra: list[FieldSpec] | None = None,
        register: bool = True,
        decorator: str | None = None,
    ) -> RecSpec:
        kinds = ["dataclass", "dataclass", "namedtuple", "typeddict"]
        if need_hashable:
            kinds = ["dataclass", "namedtuple"]
        kind = kind or self.pick(kinds)
        if kind == "dataclass" and not need_hashable and not tag_fields and not extra and self.chance(0.35):
            kind = "basemodel"  # a pydantic model (contract, rule zero: a fourth record kind)
        name = f"Rec{self.uid()}"
        base: RecSpec | None = None
        if kind in ("dataclass", "typeddict") and not tag_fields and not extra and register and self.chance(0.25):
            bases = [
                r
                for mod in ([home] if home.other is None else [home, home.other])
                for r in mod.records
                if r.kind == kind and not r.late and not any(f.td_qual == "tag" for f in r.all_fields())
            ]
            if need_hashable:
                bases = [b for b in bases if b.hashable]
            if bases:
                base = self.pick(bases)
        rec = RecSpec(name, kind, home, [], base)
        if kind == "dataclass":
            if base is not None:
                rec.decorator = base.decorator
            elif decorator is not None:
                rec.decorator = decorator
            else:
                rec.decorator = self.pick(
                    [
                        "@dataclass",
                        "@dataclass(frozen=True)",
                        "@dataclasses.dataclass(unsafe_hash=True)",
                        "@dataclass(frozen=True)",
                        "@dataclass(eq=False)",
                    ]
                    if not need_hashable
                    else ["@dataclass(frozen=True)", "@dataclasses.dataclass(unsafe_hash=True)"]
                )
            # eq=False: instances equal only themselves, so no set item (OLT002, CONTRACT "Types")
            rec.hashable = rec.decorator not in ("@dataclass", "@dataclass(eq=False)")
        elif kind == "namedtuple":
            rec.hashable = True
        elif kind == "basemodel":
            rec.hashable = False  # a model's instances hash by identity unless it is frozen
        else:
            rec.hashable = False
            rec.td_flavor = base.td_flavor if base else self.pick(["TypedDict", "typing.TypedDict"])
            rec.total = not self.chance(0.3)
        taken = {f.name for f in rec.all_fields()}
        fields: list[FieldSpec] = []
        for fname, tag in tag_fields:
            lit = Ty(
                _const(f"Literal[{_py(tag)}]"),
                _frag({"type": "string", "enum": [tag]}),
                "literal",
                writable=True,
                tag=tag,
            )
            f = FieldSpec(fname, lit, td_qual="tag")
            if kind == "dataclass" and self.chance(0.3):
                f.default = Dflt(_py(tag), "value", tag)
            if self.chance(0.15):
                f.json_name = fname + "Tag"
            fields.append(f)
            taken.add(fname)
        for f in extra or []:
            fields.append(f)
            taken.add(f.name)
        count = n_fields if n_fields is not None else self.rng.randint(1, 4)
        for _ in range(count):
            fname = self.pick(
                [p for p in PARAMS if p not in taken and not (kind == "namedtuple" and p in ("count", "index"))]
                or ["spare"]
            )
            if fname in taken:
                break
            taken.add(fname)
            if kind == "basemodel":
                # scalars, maybe optional: the field types pydantic builds a schema for as onellm
                # reads them (a typing.TypedDict field, for one, pydantic refuses before 3.12)
                ty = self.scalar(home)
                if self.chance(0.25):
                    ty = self.optional(ty, home)
            else:
                ty = self.valid(home, depth - 1, need_hashable=need_hashable and rec.hashable)
            if self.chance(0.25 if kind != "basemodel" else 0.4):
                ty = self.annotated(ty, home)
            fields.append(FieldSpec(fname, ty))
        for f in fields:
            if self.chance(0.12) and f.td_qual != "tag" and f.ty.shape != "fault":
                f.json_name = "wire" + f.name.replace("_", "").capitalize()
        # defaults and requiredness
        if kind in ("dataclass", "namedtuple", "basemodel"):
            base_has_default = any(not f.required for f in rec.all_fields())
            for f in fields:
                if f.default is None and f.td_qual != "tag" and (base_has_default or self.chance(0.35)):
                    self.field_default(f, kind, home)
            # no-default fields first (their order among themselves kept)
            if base_has_default:
                # after a base field with a default, every field needs one
                for f in fields:
                    if f.default is None and f.factory is None and f.ty.nullable:
                        f.default = Dflt("None", "null")
                fields = [f for f in fields if f.default is not None or f.factory is not None]
            fields.sort(key=lambda f: f.default is not None or f.factory is not None)
            for f in fields:
                f.required = f.default is None and f.factory is None
        else:
            for f in fields:
                if f.td_qual == "tag":
                    f.required = rec.total
                    continue
                q = self.pick([None, None, "Required", "NotRequired"])
                f.td_qual = q
                f.required = rec.total if q is None else q == "Required"
        rec.fields = fields
        if kind == "dataclass" and self.chance(0.2):
            rec.extra_lines.append(f"LIMIT_{self.uid()}: ClassVar[int] = 3")
        if kind == "dataclass" and self.chance(0.15):
            rec.extra_lines.append(f"hidden_{self.uid()}: int = field(default=0, init=False)")
        self.record_docs(rec)
        self.emit_record(rec)
        if register:
            home.records.append(rec)
        return rec

    def field_default(self, f: FieldSpec, kind: str, home: Mod) -> None:
        ty = f.ty
        choices = ty.defaults(home) if ty.writable else []
        if choices and self.chance(0.8):
            d = self.pick(choices)
            f.default = d
            if kind == "dataclass" and self.chance(0.3) and d.state == "value":
                f.default = Dflt(f"field(default={d.src})", d.state, d.value)
            elif kind == "basemodel" and self.chance(0.4) and d.state == "value":
                f.default = Dflt(f"Field(default={d.src})", d.state, d.value)  # the MCP SDK habit
            return
        if kind == "dataclass" and ty.shape in ("array", "map") and not ty.nullable and self.chance(0.7):
            # a factory of the declared type: `list` would fill a tuple[...] field with a list,
            # which no set of such records could hash (the binder rightly refuses it)
            f.factory = (
                "dict" if ty.shape == "map" else ("list" if "[]" in (d.src for d in ty.opaque(home)) else "tuple")
            )
            return
        if ty.nullable:
            f.default = Dflt("None", "null")

    def record_docs(self, rec: RecSpec) -> None:
        style = self.pick(
            [
                "none",
                "google_attr",
                "google_args",
                "bullets_attr",
                "bullets_args",
                "numpy_attr",
                "numpy_params",
                "sphinx_ivar",
                "sphinx_param",
            ]
        )
        summary = self.words(2, 6).capitalize() + "."
        entries: dict[str, str] = {}
        names = [f.name for f in rec.fields]
        if rec.base is not None and self.chance(0.3):
            names += [f.name for f in rec.base.all_fields()][:1]
        for n in names:
            if self.chance(0.6):
                entries[n] = self.words(1, 5)
        if style == "none" or not entries:
            rec.doc_src = f'"""{summary}"""' if self.chance(0.5) else ""
            rec.docs = {}
            return
        lines = [summary, ""]
        if style.startswith("google"):
            lines.append("Attributes:" if style == "google_attr" else "Args:")
            for n, d in entries.items():
                first, _, rest = d.partition(" ")
                lines.append(f"    {n}: {first}")
                if rest:
                    lines.append(f"        {rest}")
        elif style.startswith("bullets"):
            lines.append("Attributes:" if style == "bullets_attr" else "Parameters:")
            for n, d in entries.items():
                first, _, rest = d.partition(" ")
                lines.append(f"- **{n}**: {first}" if self.chance(0.3) else f"- {n}: {first}")
                if rest:
                    lines.append(f"  {rest}")
        elif style.startswith("numpy"):
            head = "Attributes" if style == "numpy_attr" else "Parameters"
            lines += [head, "-" * len(head)]
            for n, d in entries.items():
                lines.append(f"{n} : object")
                lines.append(f"    {d}")
        else:
            role = "ivar" if style == "sphinx_ivar" else "param"
            for n, d in entries.items():
                lines.append(f":{role} {n}: {d}")
        rec.docs = entries
        rec.doc_src = '"""' + "\n".join(lines) + '\n"""'

    def emit_record(self, rec: RecSpec) -> None:
        m = rec.home
        lines: list[str] = []
        base_ref = None
        if rec.base is not None:
            base_ref = self.entity_ref(rec.base.home, rec.base.name)(m)
        if rec.kind == "dataclass":
            lines.append(rec.decorator)
            lines.append(f"class {rec.name}({base_ref}):" if base_ref else f"class {rec.name}:")
        elif rec.kind == "namedtuple":
            lines.append(f"class {rec.name}(NamedTuple):")
        elif rec.kind == "basemodel":
            lines.append(f"class {rec.name}(BaseModel):")
        else:
            parent = base_ref or rec.td_flavor
            total = "" if rec.total else ", total=False"
            lines.append(f"class {rec.name}({parent}{total}):")
        body: list[str] = []
        if rec.doc_src:
            body += rec.doc_src.split("\n")
        for f in rec.fields:
            ann = f.ty.ref(m)
            if f.json_name is not None and rec.kind == "basemodel":
                ann = f'Annotated[{ann}, Field(alias="{f.json_name}")]'  # a model's wire name
            elif f.json_name is not None:
                ann = f'Annotated[{ann}, JsonName("{f.json_name}")]'
            if f.td_qual in ("Required", "NotRequired"):
                ann = f"{f.td_qual}[{ann}]"
            line = f"{f.name}: {ann}"
            if f.factory is not None:
                line += f" = field(default_factory={f.factory})"
            elif f.default is not None:
                line += f" = {f.default.src}"
            body.append(line)
        body += rec.extra_lines
        if not body:
            body.append("pass")
        lines += ["    " + b if b else "" for b in body]
        block = "\n".join(lines)
        if (
            m.future
            and m.allow_late
            and not self.in_alias
            and not rec.extra_lines
            and self.chance(0.25)
            and rec.base is None
        ):
            rec.late = True
            # string annotations: a record may come after the tools that use it
            m.late_blocks.append(block)
        else:
            m.blocks.append(block)

    def union(self, m: Mod, depth: int) -> Ty:
        """A discriminated union of 2-3 fresh records (implicit or explicit discriminator)."""
        home = self.home_for(m)
        field_name = self.pick(["kind", "action", "op_kind", "type_"])
        tags = self.rng.sample(
            ["start", "stop", "read", "write", "Alpha", "alpha", "x-y", "go"], self.rng.randint(2, 3)
        )
        second = self.chance(0.25)
        tags2 = self.rng.sample(["p1", "p2", "p3", "p4"], len(tags)) if second else []
        members: list[RecSpec] = []
        for i, tag in enumerate(tags):
            tf = [(field_name, tag)]
            if second:
                tf.append(("variant", tags2[i]))
            members.append(
                self.new_record(
                    # the draw stays: it keeps every seed's later draws as they were
                    home if self.chance(0.7) else home,  # noqa: RUF034
                    depth - 1,
                    tag_fields=tf,
                    n_fields=self.rng.randint(0, 2),
                )
            )
        if len(candidate_tags(members)) > 1:
            second = True  # random extra fields made another candidate: name the discriminator
        explicit = second or self.chance(0.3)
        form = self.pick(["pipe", "Union"])
        refs = [self.entity_ref(r.home, r.name) for r in members]

        def inner(mm: Mod) -> str:
            parts = [r(mm) for r in refs]
            return " | ".join(parts) if form == "pipe" else f"Union[{', '.join(parts)}]"

        description = self.words(1, 3) if explicit and self.chance(0.3) else None

        def ref(mm: Mod) -> str:
            if explicit:
                extra = f', Description("{description}")' if description else ""
                return f'Annotated[{inner(mm)}, Discriminator("{field_name}"){extra}]'
            return inner(mm)

        def frag(n: Naming) -> Frag:
            f: Frag = {"anyOf": [record_frag(r, n, (field_name, t)) for r, t in zip(members, tags)]}
            if description:
                f["description"] = description
            return ordered(f)

        return Ty(
            ref,
            frag,
            "union",
            hashable=all(record_hashable(r) for r in members),
            annot=(description, None) if explicit else None,
            families=frozenset(
                ({"Discriminator"} if explicit else set()) | ({"Description"} if description else set())
            ),
        )

    # -- the grammar

    def valid(self, m: Mod, depth: int, need_hashable: bool = False) -> Ty:
        """A type the contract accepts, written in module ``m``."""
        for _ in range(50):
            ty = self._valid(m, depth, need_hashable)
            if not need_hashable or ty.hashable:
                return ty
        return self.scalar_of("int")

    def _valid(self, m: Mod, depth: int, need_hashable: bool) -> Ty:
        if depth <= 0:
            choice = self.pick(["scalar"] * 6 + ["enum", "literal", "json"])
        else:
            table = {
                "scalar": 20,
                "enum": 6,
                "literal": 6,
                "optional": 10,
                "array": 9,
                "set": 4,
                "map": 5,
                "json": 3,
                "annotated": 12,
                "alias": 4,
                "record": 12,
                "union": 5,
                "literal_union": 2,
            }
            if need_hashable:
                for k in ("map", "json", "union"):
                    table[k] = 0
            names = list(table)
            choice = self.rng.choices(names, weights=[table[k] for k in names])[0]
        if choice == "scalar":
            return self.scalar(m)
        if choice == "enum":
            return self.enum(m)
        if choice == "literal":
            return self.literal()
        if choice == "json":
            return self.json()
        if choice == "optional":
            inner = self.valid(m, depth - 1, need_hashable)
            if inner.nullable or inner.codes:
                return inner
            return self.optional(inner, m)
        if choice == "array":
            return self.array(m, depth)
        if choice == "set":
            return self.set_(m, depth)
        if choice == "map":
            return self.map_(m, depth)
        if choice == "annotated":
            inner = self.valid(m, depth - 1, need_hashable)
            if inner.shape == "union" and inner.nullable:
                return inner
            return self.annotated(inner, m)
        if choice == "alias":
            return self.alias(m, depth)
        if choice == "record":
            return self.record(m, depth, need_hashable)
        if choice == "union":
            return self.union(m, depth)
        return self.literal_union()

    # -- faults in a parameter's type (each with the codes the contract gives it)

    def fault_type(self, m: Mod, code: str) -> tuple[Ty | None, str]:
        """A faulty annotation for a parameter; returns (type, special) where special is
        ``missing``, ``args`` or ``kwargs`` for faults that are not a type."""
        rng = self.rng
        codes = (code,)
        if code == "OLT002":
            which = self.pick(
                [
                    "any",
                    "object",
                    "callable",
                    "protocol",
                    "abstract",
                    "bare",
                    "dict_key",
                    "fixed_tuple",
                    "mixed_literal",
                    "flag",
                    "union",
                    "unhashable",
                    "unhashable_rec",
                    "identity_rec",
                    "deque",
                    "rec_or_str",
                    "missing",
                    "args",
                    "kwargs",
                    "context_in_list",
                    "json_in_set",
                ]
            )
            if which in ("missing", "args", "kwargs"):
                return None, which
            src = {
                "any": "Any",
                "object": "object",
                "callable": "Callable[[int], str]",
                "bare": self.pick(["list", "dict", "set", "typing.List"]),
                "dict_key": "dict[int, str]",
                "fixed_tuple": "tuple[int, str]",
                "mixed_literal": 'Literal["a", 1]',
                "union": self.pick(["int | str", "Union[int, str]", "str | bytes | None"]),
                "unhashable": "set[list[int]]",
                "deque": "collections.deque[int]",
                "context_in_list": "list[ToolContext]",
                "json_in_set": "set[JsonObject]",
            }.get(which)
            if which == "protocol":
                name = f"Proto{self.uid()}"
                m.blocks.append(f"class {name}(Protocol):\n    def run(self) -> int: ...")
                src = name
            elif which == "abstract":
                name = f"Abstract{self.uid()}"
                m.blocks.append(f"class {name}(abc.ABC):\n    @abc.abstractmethod\n    def run(self) -> int: ...")
                src = name
            elif which == "flag":
                name = f"Perm{self.uid()}"
                m.blocks.append(f"class {name}(enum.Flag):\n    READ = 1\n    WRITE = 2")
                src = name
            elif which == "unhashable_rec":
                rec = self.new_record(m, 1, kind="dataclass", register=False)
                rec_h = record_hashable(rec)
                if rec_h:
                    return self.fault_type(m, code)
                src = f"set[{rec.name}]"
            elif which == "identity_rec":  # hashable by identity only: JSON-equal items would not collapse
                rec = self.new_record(m, 1, kind="dataclass", register=False, decorator="@dataclass(eq=False)")
                src = self.pick([f"set[{rec.name}]", f"frozenset[{rec.name}]", f"AbstractSet[{rec.name}]"])
            elif which == "rec_or_str":
                rec = self.new_record(m, 1, register=False)
                src = f"{rec.name} | str"
            assert src is not None
            ty = Ty(_const(src), _frag({}), "fault", codes=codes)
            return self.wrap_fault(ty, m), ""
        if code == "OLT005":
            name = f"Plain{self.uid()}"
            m.blocks.append(
                self.pick(
                    [
                        f"class {name}:\n    x: int",
                        f"class {name}:\n    def __init__(self, x: int) -> None:\n        self.x = x",
                    ]
                )
            )
            ty = Ty(lambda mm: name, lambda n: {}, "fault", codes=codes)
            if self.chance(0.3):
                rec = self.new_record(
                    m,
                    0,
                    kind=self.pick(["dataclass", "namedtuple", "typeddict"]),
                    register=False,
                    extra=[FieldSpec("inner", ty)],
                    n_fields=0,
                )
                ty = Ty(lambda mm: rec.name, lambda n: {}, "fault", codes=codes)
            return self.wrap_fault(ty, m), ""
        if code == "OLT006":
            name = f"Node{self.uid()}"
            kind = self.pick(["dataclass", "typeddict", "namedtuple", "mutual"])
            q = "" if m.future else '"'
            if kind == "dataclass":
                m.blocks.append(f"@dataclass\nclass {name}:\n    label: str\n    children: list[{q}{name}{q}]")
            elif kind == "typeddict":
                m.blocks.append(f"class {name}(TypedDict):\n    label: str\n    parent: Optional[{q}{name}{q}]")
            elif kind == "namedtuple":
                m.blocks.append(f"class {name}(NamedTuple):\n    label: str\n    rest: tuple[{q}{name}{q}, ...]")
            else:
                other = f"Link{self.uid()}"
                m.blocks.append(f"@dataclass\nclass {name}:\n    link: {q}{other}{q}")
                m.blocks.append(f"@dataclass\nclass {other}:\n    back: Optional[{name}]\n    size: int = 0")
            ty = Ty(lambda mm: name, lambda n: {}, "fault", codes=codes)
            return self.wrap_fault(ty, m), ""
        if code == "OLT012":
            which = self.pick(["untagged", "duplicate", "ambiguous", "explicit_missing", "on_str", "nullable_tag"])
            if which == "on_str":
                src = 'Annotated[str, Discriminator("kind")]'
            else:
                recs = []
                for i in range(2):
                    if which == "untagged":
                        tf: list[tuple[str, str]] = []
                    elif which == "duplicate":
                        tf = [("kind", "same")]
                    elif which in ("ambiguous",):
                        tf = [("kind", f"k{i}"), ("mode", f"m{i}")]
                    else:
                        tf = [("kind", f"k{i}")]
                    recs.append(
                        self.new_record(
                            m,
                            0,
                            kind=self.pick(["dataclass", "typeddict"]),
                            tag_fields=tf,
                            register=False,
                            n_fields=rng.randint(0 if tf else 1, 1),
                        )
                    )
                if which in ("untagged", "duplicate") and candidate_tags(recs):
                    return self.fault_type(m, code)
                if which == "nullable_tag":
                    name = f"Loose{self.uid()}"
                    m.blocks.append(f'@dataclass\nclass {name}:\n    kind: Optional[Literal["k9"]]')
                    union = f"{recs[0].name} | {name}"
                else:
                    union = f"{recs[0].name} | {recs[1].name}"
                src = union
                if which == "explicit_missing":
                    src = f'Annotated[{union}, Discriminator("nope")]'
            ty = Ty(_const(src), _frag({}), "fault", codes=codes)
            return self.wrap_fault(ty, m, containers=("list", "optional")), ""
        if code == "OLT013":
            src = self.pick(
                [
                    "Annotated[int, Pattern('^a')]",
                    "Annotated[str, Range(1, 5)]",
                    "Annotated[int, MaxLength(3)]",
                    "Annotated[bool, Email()]",
                    "Annotated[int, Url()]",
                    "Annotated[int, Range(10, 1)]",
                    "Annotated[str, MinLength(-1)]",
                    "Annotated[list[int], StringLength(4)]",
                    "Annotated[str, at.Ge(0)]",
                    "Annotated[dict[str, int], MaxLength(2)]",
                    f"Annotated[str, Pattern({self.pick(BAD_PATTERNS)!r})]",
                    "Annotated[float, Length(1, 2)]",
                ]
            )
            ty = Ty(_const(src), _frag({}), "fault", codes=codes)
            return self.wrap_fault(ty, m), ""
        raise AssertionError(code)

    def wrap_fault(
        self, ty: Ty, m: Mod, containers: tuple[str, ...] = ("list", "dict", "optional", "field", "none")
    ) -> Ty:
        """Put a faulty type somewhere the walk still reaches it once."""
        how = self.pick(containers)
        inner = ty.ref
        if how == "list":
            return Ty(lambda mm: f"list[{inner(mm)}]", ty.frag, "fault", codes=ty.codes)
        if how == "dict":
            return Ty(lambda mm: f"dict[str, {inner(mm)}]", ty.frag, "fault", codes=ty.codes)
        if how == "optional":
            return Ty(lambda mm: f"Optional[{inner(mm)}]", ty.frag, "fault", codes=ty.codes)
        if how == "field":
            rec = self.new_record(
                m,
                0,
                kind=self.pick(["dataclass", "typeddict", "namedtuple"]),
                register=False,
                extra=[FieldSpec("bad", ty)],
                n_fields=self.rng.randint(0, 1),
            )
            return Ty(lambda mm: rec.name, ty.frag, "fault", codes=ty.codes)
        return ty

    # -- tools

    def tool_name(self) -> tuple[str, str]:
        """(function name, the tool name the contract derives from it)."""
        while True:
            words = [self.pick(VERBS), self.pick(NOUNS), self.pick(WORDS)[:5]]
            style = self.pick(["snake", "snake", "pascal", "camel", "acronym", "async"])
            expected = "_".join(words)
            if style == "snake":
                fname = expected
            elif style == "pascal":
                fname = "".join(w.capitalize() for w in words)
            elif style == "camel":
                fname = words[0] + "".join(w.capitalize() for w in words[1:])
            elif style == "acronym":
                fname = words[0] + words[1].upper() + words[2].capitalize()
            else:
                fname = self.pick(["_".join(words) + "_async", "".join(w.capitalize() for w in words) + "Async"])
            if fname not in self.used_fnames and expected not in self.used_fnames:
                self.used_fnames.update((fname, expected))
                return fname, expected

    def docstring(self, params: list[ParamSpec], indent: str) -> tuple[str, str]:
        """(docstring source, the tool description the contract gives it); fills ``doc`` of
        some params.

        Styles: Google, a bulleted list (``-``/``*``, backticked or bold names) under a
        parameters heading, NumPy, Sphinx. Around the entries: paragraphs, an entry naming
        no parameter, text after the section, a ``Returns`` section, a markdown list. The
        description is built here piece by piece (see ``_Piece``) by the contract's layout
        rules, not by the parser.
        """
        style = self.pick(["none", "summary", "google", "numpy", "sphinx", "bullets", "google", "bullets"])
        if style == "none":
            return "", ""
        summary_words = self.words(2, 8).capitalize()
        flat = summary_words
        extra = ""
        r = self.rng.random()
        if r < 0.15:
            extra = " uses ``code_name`` here"
            flat += " uses code_name here"
        elif r < 0.3:
            extra = " returns a :class:`~pkg.mod.Thing`"
            flat += " returns a Thing"
        body = [summary_words + extra + "."]
        flat += "."
        if self.chance(0.3):  # the paragraph goes on for a line
            more = self.words(1, 4)
            body.append(more + ".")
            flat += " " + more + "."
        pieces = [_Piece(flat)]
        if self.chance(0.3):
            more = self.words(2, 5)
            body += ["", more + "."]
            pieces.append(_Piece(more + ".", blank=True))
        if style != "summary":
            ends_with_entry = self.doc_section(style, params, body, pieces)
            if self.chance(0.3):  # text after the section: a line at the heading's column ends it
                tail = self.words(2, 5).capitalize() + "."
                blank = not (ends_with_entry and style == "bullets") or self.chance(0.5)
                body += ["", tail] if blank else [tail]
                pieces.append(_Piece(tail, blank=blank))
            if self.chance(0.3):  # a markdown list: each item on its own line
                items = [(self.pick("-*+"), self.words(1, 3)) for _ in range(self.rng.randint(1, 3))]
                body += ["", "Usage:"] + [f"{b} {w}" for b, w in items]
                pieces.append(_Piece("Usage:", blank=True))
                pieces += [_Piece(f"{b} {w}") for b, w in items]
        described = _described(pieces)
        if len(body) == 1:
            return f'{indent}"""{body[0]}"""', described
        text = '"""' + body[0] + "\n" + "\n".join((indent + b) if b else "" for b in body[1:]) + "\n" + indent + '"""'
        return indent + text, described

    def doc_section(self, style: str, params: list[ParamSpec], body: list[str], pieces: list[_Piece]) -> bool:
        """The parameter entries of one style and maybe a returns section, into ``body``
        (source lines) and ``pieces`` (the description's); whether an entry came last."""
        documented: list[tuple[str, ParamSpec | None]] = [
            (p.name, p) for p in params if p.kind == "normal" and self.chance(0.6)
        ]
        if self.chance(0.2):  # an entry naming no parameter: it stays in the description
            documented.insert(self.rng.randint(0, len(documented)), ("zz_" + self.pick(WORDS), None))
        body.append("")
        heading = ""
        if documented and style != "sphinx":  # a heading with no entry at all would be text
            if style == "google":
                heading = self.pick(
                    ["Args:", "Arguments:", "Parameters:", "Params:", "args:", "ARGS:", "Keyword Args:"]
                )
            elif style == "bullets":
                heading = self.pick(["Parameters:", "Args:", "Arguments:"])
            else:
                heading = "Parameters"
            body += [heading, "-" * len(heading)] if style == "numpy" else [heading]
            pieces.append(_Piece(heading, blank=True, role="heading"))
        column = self.pick(["", "    "]) if style == "bullets" else ""
        bullet, wrap = self.pick("-*"), self.pick(["", "", "`", "**"])
        for n, (name, p) in enumerate(documented):
            d1, d2 = self.words(1, 3), self.words(0, 3)
            if style == "google":
                typ = " (int)" if self.chance(0.2) else ""
                body.append(f"    {name}{typ}: {d1}")
                written = f"{name}{typ}: {d1}"
            elif style == "bullets":
                body.append(f"{column}{bullet} {wrap}{name}{wrap}: {d1}")
                written = f"{bullet} {name if wrap == '`' else wrap + name + wrap}: {d1}"  # `x` keeps its text
            elif style == "numpy":
                typed = self.chance(0.6)
                body += [f"{name} : object" if typed else name, f"    {d1}"]
                written, d2 = (f"{name} : object" if typed else name) + f" {d1}", ""
            else:
                body.append(f":param {name}: {d1}")
                written = f":param {name}: {d1}"
            if d2:
                body.append((column + "  " if style == "bullets" else "        " if style == "google" else "    ") + d2)
                written += " " + d2
            if p is not None:
                p.doc = (d1 + " " + d2).strip()
            blank = style == "sphinx" and n == 0  # the blank line before the first field
            pieces.append(_Piece(written, blank=blank, role="entry", gone=p is not None))
        if self.chance(0.5):
            words = self.words(1, 3)
            if style in ("google", "bullets"):
                body += ["", "Returns:", "    " + words]
                pieces += [_Piece("Returns:", blank=True), _Piece(words)]
            elif style == "numpy":
                body += ["", "Returns", "-------", "object", "    " + words]
                pieces += [_Piece("Returns", blank=True), _Piece("object " + words)]
            else:
                body.append(":returns: " + words)
                pieces.append(_Piece(":returns: " + words, blank=not documented))
            return False
        return bool(documented)

    def returns(self, m: Mod) -> tuple[str | None, Callable[[Naming], Frag | None], bool]:
        """(annotation or None, output schema, is_async)."""
        is_async = self.chance(0.2)
        kind = self.pick(
            ["none", "str", "str", "unannotated", "parts", "json", "any", "value", "value", "value", "awaitable"]
        )
        if kind == "none":
            return "None", lambda n: None, is_async
        if kind == "str":
            return self.pick(["str", "str | None", "Optional[str]"]), lambda n: None, is_async
        if kind == "unannotated":
            return None, lambda n: None, is_async
        if kind == "parts":
            return (
                self.pick(["TextPart", "ToolResult", "list[TextPart]", "Part", "list[Part]"]),
                lambda n: None,
                is_async,
            )
        if kind == "json":
            return self.pick(["JsonValue", "JsonObject", "JsonArray"]), lambda n: None, is_async
        if kind == "any":  # Any in a return annotation reads as JsonValue there (the contract's Results table)
            src, written = self.pick(ANY_RETURNS)
            return src, lambda n: copy.deepcopy(written), is_async
        ty = self.valid(m, 2)
        src = ty.ref(m)
        if ty.shape in ("str", "char", "json_value", "json_object", "json_array"):
            # text (str, str | None, Char, an annotated, aliased or NewType str) and JSON values: no output schema
            return src, lambda n: None, is_async
        if kind == "awaitable" and not is_async:
            dotted = self.chance(0.5)
            return f"{'collections.abc' if dotted else 'typing'}.Awaitable[{src}]", ty.frag, False
        return src, ty.frag, is_async

    def make_tool(self, m: Mod, owner: ClassSpec | None = None) -> None:
        """One tool: its source block, and its expectation."""
        fname, derived = self.tool_name()
        indent = "    " if owner else ""
        opts: dict[str, Any] = {}
        decorator_args: list[str] = []
        explicit_name: str | None = None
        if self.chance(0.15):
            suffix = f"_{self.uid()}"
            explicit_name = self.pick(["custom-name", "Custom_Tool", "x", "a" * 64])[: 64 - len(suffix)] + suffix
            decorator_args.append(f'name="{explicit_name}"')
        explicit_desc: str | None = None
        if self.chance(0.15):
            explicit_desc = self.words(2, 5)
            written = self.computed_text(m, explicit_desc) if self.chance(0.4) else f'"{explicit_desc}"'
            decorator_args.append(f"description={written}")
        naming: str | None = None
        if self.chance(0.25):
            naming = "camelCase"
            decorator_args.append('naming="camelCase"')
        mode = "wait"
        if self.chance(0.12):
            mode = "model_choice"
            decorator_args.append('invocation_mode="model_choice"')
        elif self.chance(0.05):
            decorator_args.append('invocation_mode="wait"')
        for key, val, prob in (
            ("ends_loop", True, 0.1),
            ("requires_approval", True, 0.1),
            ("parallel_safe", False, 0.1),
        ):
            if self.chance(prob):
                opts[key] = val
                decorator_args.append(f"{key}={val}")
        timeout: Any = 0
        if self.chance(0.1):
            timeout = self.pick([5, 30, 2.5])
            decorator_args.append(f"timeout_seconds={timeout}")

        def_static: list[str] = []
        def_runtime: list[str] = []
        faulty = self.chance(self.fault_rate)
        fault_kind = None
        olt009: str | None = None
        if faulty:
            fault_kind = self.pick(
                ["param"] * 6
                + ["OLT003", "OLT004", "OLT008", "OLT009", "OLT011", "OLT014", "OLT015", "OLT013_jsonname"]
            )
        # parameters
        params: list[ParamSpec] = []
        n = self.rng.randint(0, 5)
        names = self.rng.sample(PARAMS, n)
        for name in names:
            ty = self.valid(m, self.rng.randint(0, 3))
            if self.chance(0.2) and not ty.codes:
                ty = self.annotated(ty, m)
            params.append(ParamSpec(name, None, ty))
        if self.chance(0.25):
            params.insert(
                self.rng.randint(0, len(params)),
                ParamSpec(self.pick(["ctx", "context"]), "ToolContext", kind="context"),
            )
        if self.chance(0.15):
            params.insert(self.rng.randint(0, len(params)), ParamSpec("cancel", "CancellationToken", kind="token"))
        if mode == "wait" and self.chance(0.05):
            params.append(ParamSpec("invocationMode", None, self.scalar_of("str")))
        if fault_kind == "param":
            for _ in range(self.rng.randint(1, 2)):
                code = self.pick(["OLT002", "OLT002", "OLT005", "OLT006", "OLT012", "OLT013"])
                fty, special = self.fault_type(m, code)
                used = {p.name for p in params}
                pname = self.pick([p for p in PARAMS if p not in used])
                if special == "missing":
                    params.append(ParamSpec(pname, None, None, static=["OLT002"], runtime=["OLT002"]))
                elif special in ("args", "kwargs"):
                    if any(p.kind == special for p in params):
                        continue
                    params.append(ParamSpec(pname, "int", None, kind=special, static=["OLT002"], runtime=["OLT002"]))
                else:
                    assert fty is not None
                    params.append(ParamSpec(pname, None, fty, static=list(fty.codes), runtime=list(fty.codes)))
        elif fault_kind == "OLT009":
            kind = self.pick(["context", "token"])
            ann = "ToolContext" if kind == "context" else "CancellationToken"
            first = [p for p in params if p.kind == kind]
            if not first:
                params.insert(0, ParamSpec(f"first_{kind}", ann, kind=kind))
            params.append(ParamSpec(f"second_{kind}", ann, kind=kind))
            olt009 = kind
        elif fault_kind == "OLT015":
            if mode != "model_choice":
                mode = "model_choice"
                decorator_args = [a for a in decorator_args if not a.startswith("invocation_mode=")]
                decorator_args.append('invocation_mode="model_choice"')
            params = [p for p in params if p.name != "invocationMode"]
            params.append(
                ParamSpec("invocationMode", None, self.scalar_of("str"), static=["OLT015"], runtime=["OLT015"])
            )
        elif fault_kind == "OLT013_jsonname":
            params.append(
                ParamSpec(
                    self.pick([p for p in PARAMS if p not in {x.name for x in params}]),
                    'Annotated[int, JsonName("renamed")]',
                    None,
                    static=["OLT013"],
                    runtime=["OLT013"],
                )
            )
        elif fault_kind == "OLT014":
            params.append(self.unreadable_param(m, {p.name for p in params}))
        elif fault_kind == "OLT004":
            tv = f"T{self.uid()}"
            m.consts.append(f'{tv} = TypeVar("{tv}")')
            used = {p.name for p in params}
            params.append(
                ParamSpec(
                    self.pick([p for p in PARAMS if p not in used]), self.pick([tv, f"list[{tv}]", f"Optional[{tv}]"])
                )
            )
            def_static.append("OLT004")
            def_runtime.append("OLT004")
        elif fault_kind == "OLT008":
            bad = self.pick(["has space", "", "x" * 65, "h\u00e9llo", "semi;colon", "long_func"])
            decorator_args = [a for a in decorator_args if not a.startswith("name=")]
            if bad == "long_func":
                fname = "a_very_long_function_name_that_goes_on_and_on_well_past_the_limit_" + str(self.uid())
                derived = fname
            else:
                decorator_args = [a for a in decorator_args if not a.startswith("name=")]
                decorator_args.insert(0, f"name={bad!r}")
                explicit_name = bad
            def_static.append("OLT008")
            def_runtime.append("OLT008")
        elif fault_kind == "OLT011":
            decorator_args = [a for a in decorator_args if not a.startswith("naming=")]
            decorator_args.append(f"naming={self.pick(['snake_case', 'camel', 'PascalCase'])!r}")
            def_static.append("OLT011")
            def_runtime.append("OLT011")
        # defaults for valid parameters
        for p in params:
            if p.kind != "normal" or p.ty is None or p.default is not None or p.static:
                continue
            if (
                owner is not None
                and owner.limit is not None
                and p.ty.shape == "int"
                and p.ty.writable
                and self.chance(0.5)
            ):
                p.default = Dflt("LIMIT", "value", owner.limit)
                continue
            if self.chance(0.4):
                choices = p.ty.defaults(m) if p.ty.writable else []
                choices = choices + (p.ty.opaque(m) if self.chance(0.5) or not choices else [])
                if choices:
                    p.default = self.pick(choices)
        ret_src, ret_frag, is_async = self.returns(m)
        return_codes: list[str] = []
        if fault_kind == "OLT003":
            ret_src = self.pick(
                [
                    "list[object]",
                    "Callable[[], int]",
                    "int | str",
                    "dict[int, str]",
                    "tuple[int, str]",
                    "object",
                    "set[list[int]]",
                ]
            )
            ret_frag = lambda n: None  # noqa: E731
            return_codes.append("OLT003")  # reported at the return annotation
        # the decorator
        dec_name = "onellm_runtime.tool" if self.chance(0.1) else "tool"
        method_kind = None
        if owner is not None:
            method_kind = self.pick(["instance", "instance", "instance", "static", "class"])
        # arrange: positional (no default first), then keyword-only
        normal_kw: list[ParamSpec] = []
        pos: list[ParamSpec] = []
        star: ParamSpec | None = None
        dstar: ParamSpec | None = None
        for p in params:
            if p.kind == "args":
                star = p
            elif p.kind == "kwargs":
                dstar = p
            elif self.chance(0.25):
                normal_kw.append(p)
            else:
                pos.append(p)
        pos.sort(key=lambda p: p.default is not None)
        posonly = self.rng.randint(0, len(pos)) if self.chance(0.2) else 0
        ordered_params = pos + normal_kw
        if olt009 is not None:  # the second one in signature order is reported
            second = [p for p in ordered_params if p.kind == olt009][1]
            second.static, second.runtime = ["OLT009"], ["OLT009"]
        # source
        lines: list[str] = []
        if decorator_args:
            lines.append(f"{indent}@{dec_name}({', '.join(decorator_args)})")
        else:
            lines.append(f"{indent}@{dec_name}")
        if method_kind == "static":
            lines.append(f"{indent}@staticmethod")
        elif method_kind == "class":
            lines.append(f"{indent}@classmethod")
        if self.chance(0.1):  # another decorator under @tool, read through on both sides
            lines.append(f"{indent}@_kept")
        if owner is not None and owner.generic:
            def_static.append("OLT010")
            def_runtime.append("OLT010")
        expect_def = _expect(def_static, def_runtime)
        lines.append(f"{indent}{'async ' if is_async else ''}def {fname}({expect_def}")
        inner_indent = indent + "    "
        if method_kind == "instance":
            lines.append(f"{inner_indent}self,")
        elif method_kind == "class":
            lines.append(f"{inner_indent}cls,")
        for i, p in enumerate(pos):
            lines.append(inner_indent + self.param_src(p, m) + _expect(p.static, p.runtime))
            if posonly and i == posonly - 1:
                lines.append(f"{inner_indent}/,")
        if star is not None:
            lines.append(inner_indent + f"*{star.name}: int," + _expect(star.static, star.runtime))
        elif normal_kw:
            lines.append(f"{inner_indent}*,")
        for p in normal_kw:
            lines.append(inner_indent + self.param_src(p, m) + _expect(p.static, p.runtime))
        if dstar is not None:
            lines.append(inner_indent + f"**{dstar.name}: int," + _expect(dstar.static, dstar.runtime))
        lines.append(f"{indent}){'' if ret_src is None else ' -> ' + ret_src}:" + _expect(return_codes, return_codes))
        doc_src, summary = self.docstring(ordered_params, inner_indent)
        if doc_src:
            lines.append(doc_src)
        lines.append(f"{inner_indent}raise NotImplementedError")
        block = "\n".join(lines)
        qualname = f"{owner.name}.{fname}" if owner else fname
        static_codes = sorted(def_static + return_codes + [c for p in params for c in p.static])
        runtime_codes = sorted(def_runtime + return_codes + [c for p in params for c in p.runtime])
        entry = None
        if not runtime_codes:
            entry = self.entry(
                m,
                qualname,
                explicit_name or derived,
                explicit_desc if explicit_desc is not None else summary,
                ordered_params,
                naming,
                mode,
                ret_frag,
                opts,
                timeout,
            )
        exp = ExpectedTool(m.name, qualname, static_codes, runtime_codes, entry)
        if owner is not None:
            owner.blocks.append(block)
            owner.expected.append(exp)
        else:
            m.tools.append(block)
            self.expected.append(exp)

    def unreadable_param(self, m: Mod, used: set[str]) -> ParamSpec:
        """OLT014: a default of a writable type that only the runtime can evaluate."""
        which = self.pick(["call", "twice", "expr", "enum_index", "inf", "record"])
        name = self.pick([p for p in PARAMS if p not in used])
        if which == "call":
            fn = f"compute_{self.uid()}"
            m.consts.append(f"def {fn}() -> int:\n    return 3")
            return ParamSpec(
                name, None, self.scalar_of("int"), default=Dflt(f"{fn}()", "unreadable", 3), static=["OLT014"]
            )
        if which == "twice":
            c = f"TWICE_{self.uid()}"
            m.consts.append(f"{c} = 1\n{c} = 2")
            return ParamSpec(name, None, self.scalar_of("int"), default=Dflt(c, "unreadable", 2), static=["OLT014"])
        if which == "expr":
            c = f"POWER_{self.uid()}"
            m.consts.append(f"{c} = 2 ** 3")  # ``**`` is not in the contract's operators
            return ParamSpec(name, None, self.scalar_of("int"), default=Dflt(c, "unreadable", 8), static=["OLT014"])
        if which == "enum_index":
            e = self.enum(m)
            ref = e.ref(m)
            first = self.enum_names[id(e)][0]
            written = e.frag(None)["enum"][0]
            return ParamSpec(name, None, e, default=Dflt(f'{ref}["{first}"]', "unreadable", written), static=["OLT014"])
        if which == "inf":
            return ParamSpec(
                name,
                None,
                self.scalar_of("float"),
                default=Dflt('float("inf")', "unreadable", NOT_WRITTEN),
                static=["OLT014"],
            )
        fn = f"compute_{self.uid()}"
        m.consts.append(f"def {fn}() -> str:\n    return 'made'")
        f = FieldSpec("made", self.scalar_of("str"), default=Dflt(f"{fn}()", "unreadable", "made"), required=False)
        rec = self.new_record(m, 0, kind=self.pick(["dataclass", "namedtuple"]), n_fields=0, extra=[f], register=False)
        ty = self.record_ty(rec)
        return ParamSpec(name, None, ty, static=["OLT014"])

    def param_src(self, p: ParamSpec, m: Mod) -> str:
        if p.ann is not None:
            ann = p.ann
        elif p.ty is not None:
            ann = p.ty.ref(m)
        else:
            return f"{p.name},"
        default = f" = {p.default.src}" if p.default is not None else ""
        return f"{p.name}: {ann}{default},"

    def entry(
        self,
        m: Mod,
        qualname: str,
        name: str,
        description: str,
        params: list[ParamSpec],
        naming: str | None,
        mode: str,
        ret_frag: Callable[[Naming], Frag | None],
        opts: dict[str, Any],
        timeout: Any,
    ) -> dict[str, Any]:
        props: Frag = {}
        required: list[str] = []
        for p in params:
            if p.kind != "normal":
                continue
            assert p.ty is not None
            frag = p.ty.frag(naming)
            if p.doc and "description" not in frag:
                frag = ordered({**frag, "description": p.doc})
            if p.default is not None and p.default.runtime_written:
                frag = {**frag, "default": p.default.value}
            props[p.name] = frag
            if p.default is None:
                required.append(p.name)
        if mode == "model_choice":
            props["invocationMode"] = {"type": "string", "enum": ["wait", "background"], "default": "wait"}
        schema: Frag = {"type": "object", "properties": props}
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        return {
            "module": m.name,
            "qualname": qualname,
            "name": name,
            "description": description,
            "input_schema": schema,
            "output_schema": ret_frag(naming),
            "ends_loop": opts.get("ends_loop", False),
            "requires_approval": opts.get("requires_approval", False),
            "parallel_safe": opts.get("parallel_safe", True),
            "timeout_seconds": timeout,
        }

    # -- classes and whole-function faults

    def make_class(self, m: Mod, kind: str) -> None:
        name = f"Service{self.uid()}"
        cls = ClassSpec(name, generic=kind == "generic")
        header = f"class {name}(Generic[T{name}]):" if cls.generic else f"class {name}:"
        if cls.generic:
            m.consts.append(f'T{name} = TypeVar("T{name}")')
        if kind in ("plain", "generic"):
            if self.chance(0.3):
                cls.limit = self.rng.randint(1, 9)
                cls.blocks.append(f"    LIMIT = {cls.limit}")
            for _ in range(self.rng.randint(1, 3)):
                self.make_tool(m, cls)
        elif kind == "duplicate":
            a, b = self.tool_name(), self.tool_name()
            shared = f"dup_{self.uid()}"
            cls.blocks.append(
                f'    @tool(name="{shared}")\n    def {a[0]}(self, x: int) -> str:\n        raise NotImplementedError'
            )
            cls.blocks.append(
                f'    @tool(name="{shared}")\n    def {b[0]}(self, y: str) -> str:  # expect: OLT007\n        raise NotImplementedError'
            )
            entry = {
                "module": m.name,
                "qualname": f"{name}.{a[0]}",
                "name": shared,
                "description": "",
                "input_schema": {
                    "type": "object",
                    "properties": {"x": {"type": "integer"}},
                    "required": ["x"],
                    "additionalProperties": False,
                },
                "output_schema": None,
                "ends_loop": False,
                "requires_approval": False,
                "parallel_safe": True,
                "timeout_seconds": 0,
            }
            cls.expected.append(ExpectedTool(m.name, f"{name}.{a[0]}", [], [], entry))
            cls.expected.append(ExpectedTool(m.name, f"{name}.{b[0]}", ["OLT007"], ["OLT007"], None))
        elif kind == "inherited":
            self.inherited_classes(m, cls)
            return
        else:
            fname, _ = self.tool_name()
            if kind == "property":
                cls.blocks.append(
                    f"    @tool\n    @property\n    def {fname}(self) -> int:  # expect: OLT001\n        raise NotImplementedError"
                )
            else:
                inner = "staticmethod" if kind == "static_over" else "classmethod"
                first = "" if inner == "staticmethod" else "cls, "
                cls.blocks.append(
                    f"    @{inner}\n    @tool\n    def {fname}({first}x: int) -> str:  # expect: OLT001\n        raise NotImplementedError"
                )
            cls.expected.append(ExpectedTool(m.name, f"{name}.{fname}", ["OLT001"], ["OLT001"], None))
        body = "\n\n".join(cls.blocks) if cls.blocks else "    pass"
        m.tools.append(header + "\n" + body)
        self.expected.extend(cls.expected)

    def inherited_classes(self, m: Mod, cls: ClassSpec) -> None:
        """A base class with a tool and a subclass that offers it too: overriding the method keeps
        one tool; another method with its tool name is OLT007, on the subclass's method."""
        name = cls.name
        method, _ = self.tool_name()
        shared = f"inh_{self.uid()}"
        sub = f"{name}Sub"

        def entry(qualname: str, param: str, frag: Frag) -> dict[str, Any]:
            return {
                "module": m.name,
                "qualname": qualname,
                "name": shared,
                "description": "",
                "input_schema": {
                    "type": "object",
                    "properties": {param: frag},
                    "required": [param],
                    "additionalProperties": False,
                },
                "output_schema": None,
                "ends_loop": False,
                "requires_approval": False,
                "parallel_safe": True,
                "timeout_seconds": 0,
            }

        base_src = f'class {name}:\n    @tool(name="{shared}")\n    def {method}(self, x: int) -> str:\n        raise NotImplementedError'
        self.expected.append(
            ExpectedTool(m.name, f"{name}.{method}", [], [], entry(f"{name}.{method}", "x", {"type": "integer"}))
        )
        sub_blocks: list[str] = []
        if self.chance(0.5):
            sub_blocks.append(
                f'    @tool(name="{shared}")\n    def {method}(self, x: int) -> str:\n        raise NotImplementedError'
            )
            self.expected.append(
                ExpectedTool(m.name, f"{sub}.{method}", [], [], entry(f"{sub}.{method}", "x", {"type": "integer"}))
            )
        if self.chance(0.6) or not sub_blocks:
            other, _ = self.tool_name()
            while other == method:
                other, _ = self.tool_name()
            sub_blocks.append(
                f'    @tool(name="{shared}")\n    def {other}(self, y: str) -> str:  # expect: OLT007\n        raise NotImplementedError'
            )
            self.expected.append(ExpectedTool(m.name, f"{sub}.{other}", ["OLT007"], ["OLT007"], None))
        m.tools.append(base_src)
        m.tools.append(f"class {sub}({name}):\n" + "\n\n".join(sub_blocks))

    def misapplied(self, m: Mod) -> None:
        """OLT001 at module level: @tool on a class, or on an @overload."""
        if self.chance(0.5):
            name = f"Thing{self.uid()}"
            m.tools.append(f"@tool\nclass {name}:  # expect: OLT001\n    x: int = 0")
            self.expected.append(ExpectedTool(m.name, name, ["OLT001"], ["OLT001"], None))
            return
        fname, _ = self.tool_name()
        m.tools.append(
            f"@overload\ndef {fname}(x: int) -> str: ...\n\n\n@tool\n@overload\ndef {fname}(x: str) -> str: ...  # expect: OLT001\n\n\n"
            f"def {fname}(x: object) -> str:\n    raise NotImplementedError"
        )
        self.expected.append(ExpectedTool(m.name, fname, ["OLT001"], ["OLT001"], None))

    # -- assembling

    def build(self) -> list[GeneratedModule]:
        m = self.tools
        classes = [
            self.pick(["plain"] * 6 + ["generic", "duplicate", "inherited", "static_over", "class_over", "property"])
            for _ in range(self.rng.choice([0, 0, 1, 1, 2]))
        ]
        # a generic class finishes its tools when it is created: every name must exist by then
        m.allow_late = "generic" not in classes
        for _ in range(self.rng.randint(2, 6)):
            self.make_tool(m)
        for kind in classes:
            self.make_class(m, kind)
        if self.chance(self.fault_rate * 0.3):
            self.misapplied(m)
        # the types module may still be empty: give it one thing to import
        if not self.types.blocks and not self.types.consts:
            self.types.consts.append("UNUSED = 0")
        return [self.render(self.types), self.render(self.tools)]

    def render(self, m: Mod) -> GeneratedModule:
        doc = f'"""Generated {m.role} module ({"string annotations" if m.future else "evaluated annotations"})."""'
        head = [doc, ""]
        if m.future:
            head.append("from __future__ import annotations")
            head.append("")
        head += HEADER
        if m.other is not None:
            head.append(f"import {m.other.name} as tb")
            if m.imports:
                head.append(f"from {m.other.name} import {', '.join(sorted(m.imports))}")
        parts = ["\n".join(head)]
        if m.consts:
            parts.append("\n".join(m.consts))
        parts += m.blocks
        parts += m.tools
        parts += m.late_blocks
        source = "\n\n\n".join(parts) + "\n"
        tools = [t for t in self.expected if t.module == m.name]
        return GeneratedModule(m.name, source, tools)


@dataclass
class ClassSpec:
    name: str
    generic: bool = False
    limit: int | None = None
    blocks: list[str] = field(default_factory=list)
    expected: list[ExpectedTool] = field(default_factory=list)


HEADER = [
    "import abc",
    "import collections",
    "import collections.abc",
    "import dataclasses",
    "import datetime",
    "import decimal",
    "import enum",
    "import functools",
    "import ipaddress",
    "import typing",
    "import uuid",
    "from collections.abc import Collection, Iterable, Mapping, MutableMapping, MutableSequence, MutableSet, Sequence",
    "from collections.abc import Set as AbstractSet",
    "from dataclasses import dataclass, field",
    "from decimal import Decimal",
    "from typing import Any, Callable, ClassVar, Final, Generic, Literal, NamedTuple, NewType, Optional, Protocol, TypeVar, Union, overload",
    "from ipaddress import IPv4Address, IPv6Address",
    "from uuid import UUID",
    "",
    "import annotated_types as at",
    "from pydantic import BaseModel, Field",
    "from typing_extensions import Annotated, Doc, NotRequired, Required, TypeAlias, TypedDict",
    "",
    "import onellm_runtime",
    "from onellm_runtime import (",
    "    CancellationToken, Char, Description, Discriminator, Email, Int8, Int16, Int32, Int64, JsonArray, JsonName,",
    "    JsonObject, JsonValue, Length, MaxLength, MinLength, Part, Pattern, Range, StringLength, TextPart, ToolContext,",
    "    ToolResult, UInt8, UInt16, UInt32, UInt64, Url, tool,",
    ")",
    "",
    "",
    "def _kept(fn: Callable[..., Any]) -> Callable[..., Any]:",
    '    """Keeps the signature at run time (functools.wraps): a tool under it is described from its def."""',
    "",
    "    @functools.wraps(fn)",
    "    def inner(*args: Any, **kwargs: Any) -> Any:",
    "        return fn(*args, **kwargs)",
    "",
    "    return inner",
]


def _const(text: str) -> Callable[[Mod], str]:
    """An annotation written the same from every module."""
    return lambda m: text


def _frag(frag: Frag) -> Callable[[Naming], Frag]:
    """A fragment that does not depend on ``naming`` (a fresh copy each time)."""
    return lambda n: json.loads(json.dumps(frag))


def _py(v: Any) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(v)


def _expect(static: list[str], runtime: list[str]) -> str:
    """The corpus convention's comment for one line (``# expect``, ``-static``, ``-runtime``)."""
    both = [c for c in static if c in runtime]
    rest_runtime = list(runtime)
    for c in both:
        rest_runtime.remove(c)
    only_static = list(static)
    for c in both:
        only_static.remove(c)
    parts = []
    if both:
        parts.append("# expect: " + " ".join(both))
    if only_static:
        parts.append("# expect-static: " + " ".join(only_static))
    if rest_runtime:
        parts.append("# expect-runtime: " + " ".join(rest_runtime))
    return ("  " + "  ".join(parts)) if parts else ""


def _denull(frag: Frag) -> Frag:
    """Undo ``nullable`` (for Annotated[X | None, ...], whose markers apply to X)."""
    out = dict(frag)
    if "anyOf" in out and out["anyOf"] and out["anyOf"][-1] == {"type": "null"}:
        out["anyOf"] = out["anyOf"][:-1]
    elif isinstance(out.get("type"), list):
        t = [x for x in out["type"] if x != "null"]
        out["type"] = t[0] if len(t) == 1 else t
        if "enum" in out:
            out["enum"] = [e for e in out["enum"] if e is not None]
    return out


def candidate_tags(members: list[RecSpec]) -> list[str]:
    """The fields that could discriminate a union of these records (contract, "Unions")."""
    found = []
    for f in members[0].all_fields():
        tags = []
        for r in members:
            g = next((x for x in r.all_fields() if x.name == f.name), None)
            tag = g.ty.tag if g is not None and not g.ty.nullable else None
            if tag is None or tag in tags:
                break
            tags.append(tag)
        else:
            found.append(f.name)
    return found


def record_hashable(rec: RecSpec) -> bool:
    return rec.hashable and all(f.ty.hashable for f in rec.all_fields())


def record_frag(rec: RecSpec, naming: Naming, tag: tuple[str, str] | None = None) -> Frag:
    """The contract's closed object for a record ("Records"; "Unions" when ``tag`` is given)."""
    props: Frag = {}
    required: list[str] = []
    chain = rec.doc_chain()
    for f in rec.all_fields():
        wire = f.json_name or (camel(f.name) if naming == "camelCase" else f.name)
        if tag is not None and f.name == tag[0]:
            props[wire] = {"type": "string", "enum": [tag[1]]}
            required.append(wire)
            continue
        frag = f.ty.frag(naming)
        doc = next((d[f.name] for d in chain if f.name in d), None)
        if doc and "description" not in frag:
            frag = ordered({**frag, "description": doc})
        if f.default is not None and f.default.runtime_written:
            frag = {**frag, "default": f.default.value}
        props[wire] = frag
        if f.required:
            required.append(wire)
    out: Frag = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out


#: Literal value sets every module draws from now and then (see ``Gen.literal_values``): one
#: batch is imported into one process, where typing's caches meet them in both orders.
COMMON_LITERALS: list[list[Any]] = [["on", "off"], ["a", "b", "1"], [0, 1], [2, -4, 10], [True, False], ["p", "q", "r"]]


def generate_pair(seed: int, index: int, fault_rate: float = 0.35) -> list[GeneratedModule]:
    """The types module and the tools module number ``index`` of run ``seed`` (deterministic)."""
    return Gen(seed, index, fault_rate).build()


if __name__ == "__main__":  # pragma: no cover - a quick look at one pair
    import sys

    for mod in generate_pair(
        int(sys.argv[1]) if len(sys.argv) > 1 else 0, int(sys.argv[2]) if len(sys.argv) > 2 else 0
    ):
        print(f"# ==== {mod.name}.py")
        print(mod.source)
        print(
            textwrap.indent("\n".join(f"{t.qualname}: static={t.static} runtime={t.runtime}" for t in mod.tools), "# ")
        )


@dataclass
class _Piece:
    """One line of a generated tool description: its text, whether a blank line comes before
    it, whether it is a parameters heading or an entry under one, and whether the entry names
    one of the tool's parameters (so it leaves the description)."""

    text: str
    blank: bool = False
    role: str = "text"
    gone: bool = False


def _described(pieces: list[_Piece]) -> str:
    """The contract's layout: pieces on their own lines, ``\\n\\n`` where a blank line was (a
    left-out piece passes its blank line on); a taken-out entry left out, and a parameters
    heading whose entries all were."""
    kept_under: set[int] = set()
    heading_at = -1
    for i, piece in enumerate(pieces):
        if piece.role == "heading":
            heading_at = i
        elif piece.role == "entry" and not piece.gone:
            kept_under.add(heading_at)
    out: list[str] = []
    blank = False
    for i, piece in enumerate(pieces):
        blank = blank or piece.blank
        if piece.gone or (piece.role == "heading" and i not in kept_under):
            continue
        out.append(("\n\n" if blank else "\n") + piece.text if out else piece.text)
        blank = False
    return "".join(out)
