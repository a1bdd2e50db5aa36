"""Run both front ends and the binder over generated modules, and list every disagreement.

Per batch of generated module pairs (``generator.generate_pair``):

- **runtime**: import each tools module with ``test-data/_corpus.collect_runtime`` (a faulty
  ``@tool`` is recorded, not raised): the OLT codes per tool, and for a valid tool its
  manifest entry (``onellm_runtime.cli.manifest.entry``);
- **static**: one ``onellm_mypy.extract`` run over the whole batch, in a subprocess (so a
  crash of mypy or of the plugin is seen as a crash, not as a failed harness): the OLT
  findings at their lines, and the manifest entries of the clean tools;
- **oracle**: the generator's expectation, written from the contract: the codes, the lines
  they belong on (``# expect:`` comments), and the manifest entry of every valid tool;
- **payloads**: for each valid tool, argument documents drawn by ``tests/schema_strategy``
  from its input schema plus a mutation of each, bound by ``Tool.bind`` and judged by
  ``jsonschema``'s Draft 2020-12 validator (with the contract's readings where JSON Schema
  leaves a keyword open, see ``Reference``): the two verdicts must agree.

Every finding is a ``Finding``; crashes (an exception or an INTERNAL ERROR where a verdict
was due) are counted apart.
"""

from __future__ import annotations

import base64
import binascii
import collections
import datetime as dt
import importlib
import ipaddress
import json
import math
import os
import random
import re
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from .generator import TIMEDELTA_PATTERN, ExpectedTool, GeneratedModule, generate_pair

__all__ = ["Finding", "BatchReport", "run_batch", "run", "Reference"]

ROOT = Path(__file__).resolve().parents[2]
TEST_DATA = ROOT / "test-data"


def _corpus() -> Any:
    if str(TEST_DATA) not in sys.path:
        sys.path.insert(0, str(TEST_DATA))
    import _corpus  # type: ignore[import-not-found]

    return _corpus


@dataclass
class Finding:
    """One disagreement (or crash), with enough to reproduce it."""

    kind: str  # runtime-codes, static-codes, static-line, message, oracle-entry, static-entry, payload, crash
    module: str
    qualname: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.module}:{self.qualname}: {self.detail}"


@dataclass
class BatchReport:
    modules: int = 0
    tools: int = 0
    payloads: int = 0
    findings: list[Finding] = field(default_factory=list)
    crashes: list[Finding] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=lambda: collections.defaultdict(float))

    def merge(self, other: BatchReport) -> None:
        self.modules += other.modules
        self.tools += other.tools
        self.payloads += other.payloads
        self.findings += other.findings
        self.crashes += other.crashes
        for k, v in other.seconds.items():
            self.seconds[k] += v

    def summary(self) -> str:
        return (
            f"{self.modules} modules, {self.tools} tools, {self.payloads} payloads, "
            f"{len(self.findings)} disagreements, {len(self.crashes)} crashes"
        )


# --- writing ----------------------------------------------------------------------------


def write_batch(seed: int, indices: Iterable[int], directory: Path) -> list[GeneratedModule]:
    """Generate the pairs ``indices`` of run ``seed`` into ``directory`` (types module first)."""
    directory.mkdir(parents=True, exist_ok=True)
    out: list[GeneratedModule] = []
    for i in indices:
        for mod in generate_pair(seed, i):
            (directory / f"{mod.name}.py").write_text(mod.source, encoding="utf-8")
            out.append(mod)
    return out


# --- runtime ----------------------------------------------------------------------------


@dataclass
class RuntimeTool:
    codes: list[str]
    messages: list[str]
    entry: dict[str, Any] | None
    tool: Any = None


def _codes(errors: list[Exception]) -> tuple[list[str], list[str]]:
    codes: list[str] = []
    messages: list[str] = []
    for e in errors:
        found = getattr(e, "diagnostics", None)
        if found is None:
            codes.append(f"{type(e).__name__}")
            messages.append(str(e))
            continue
        for d in found:
            codes.append(d.code)
            messages.append(d.message)
    return sorted(codes), messages


def run_runtime(
    mods: list[GeneratedModule], directory: Path, report: BatchReport
) -> dict[tuple[str, str], RuntimeTool]:
    """Import every generated module; the verdict and entry of each tool the generator made."""
    from onellm_runtime.cli import manifest

    corpus = _corpus()
    if str(directory) not in sys.path:
        sys.path.insert(0, str(directory))
    out: dict[tuple[str, str], RuntimeTool] = {}
    for mod in mods:
        path = directory / f"{mod.name}.py"
        if not mod.tools:
            continue
        try:
            found = corpus.collect_runtime(path)
        except Exception as e:  # the runtime raised something else than ToolDefinitionError
            report.crashes.append(Finding("crash", mod.name, "-", f"import raised {type(e).__name__}: {e}"))
            continue
        expected = {t.qualname for t in mod.tools}
        for qualname, errors in found.errors.items():
            if qualname not in expected:
                report.findings.append(
                    Finding("runtime-codes", mod.name, qualname, f"an error for no generated tool: {_codes(errors)}")
                )
        tools = dict(found.tools)
        for t in mod.tools:
            codes, messages = _codes(found.errors.get(t.qualname, []))
            entry = None
            made = tools.get(t.qualname)
            if not codes and made is not None:
                try:
                    entry = manifest.entry(mod.name, t.qualname, made.model)
                except Exception as e:
                    report.crashes.append(
                        Finding("crash", mod.name, t.qualname, f"entry raised {type(e).__name__}: {e}")
                    )
            out[(mod.name, t.qualname)] = RuntimeTool(codes, messages, entry, made)
    return out


# --- static -----------------------------------------------------------------------------

_DRIVER = r"""
import json, sys
from onellm_mypy.extract import extract
from onellm_runtime.cli import manifest
result = extract(sys.argv[1:])
print(json.dumps({
    "entries": [manifest.entry(t.module, t.qualname, t.model) for t in result.tools],
    "diagnostics": [[d.path, d.line, d.column, d.code, d.message] for d in result.diagnostics],
}))
"""


def static_available() -> bool:
    try:
        importlib.import_module("onellm_mypy.extract")
    except ImportError:
        return False
    return True


@dataclass
class StaticResult:
    entries: dict[tuple[str, str], dict[str, Any]]
    diagnostics: list[tuple[str, int, int, str, str]]


def run_static(paths: Sequence[Path], report: BatchReport) -> StaticResult | None:
    """One mypy run (with the plugin, through ``extract``) over the whole batch, in a subprocess."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(paths[0].parent), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-c", _DRIVER, *map(str, paths)],
        capture_output=True,
        text=True,
        cwd=str(paths[0].parent),
        env=env,
    )
    trouble = proc.returncode != 0 or "INTERNAL ERROR" in proc.stderr or "Traceback" in proc.stderr
    if trouble:
        tail = "\n".join(proc.stderr.strip().splitlines()[-25:])
        report.crashes.append(
            Finding("crash", paths[0].stem, "-", f"mypy with the plugin crashed (exit {proc.returncode}):\n{tail}")
        )
        return None
    data = json.loads(proc.stdout)
    entries = {(e["module"], e["qualname"]): e for e in data["entries"]}
    diagnostics = [
        (str(p), int(line), int(col), str(code), str(msg)) for p, line, col, code, msg in data["diagnostics"]
    ]
    return StaticResult(entries, diagnostics)


# --- comparing verdicts -----------------------------------------------------------------


def _dump(entry: Any) -> str:
    return json.dumps(entry)


def _entry_diff(a: dict[str, Any], b: dict[str, Any]) -> str:
    keys = [k for k in a if _dump(a.get(k)) != _dump(b.get(k))] + [k for k in b if k not in a]
    return "; ".join(f"{k}: {_dump(a.get(k))} != {_dump(b.get(k))}" for k in keys) or "key order differs"


def compare(
    mods: list[GeneratedModule],
    directory: Path,
    runtime: dict[tuple[str, str], RuntimeTool],
    static: StaticResult | None,
    report: BatchReport,
) -> list[tuple[ExpectedTool, RuntimeTool]]:
    """Record every disagreement; return the tools valid on every side (for payloads)."""
    corpus = _corpus()
    valid: list[tuple[ExpectedTool, RuntimeTool]] = []
    by_path: dict[str, list[tuple[int, str, str]]] = collections.defaultdict(list)
    if static is not None:
        for file, line, _col, code, message in static.diagnostics:
            by_path[os.path.basename(file)[:-3]].append((line, code, message))
    for mod in mods:
        if not mod.tools:
            if static is not None and by_path.get(mod.name):
                report.findings.append(
                    Finding("static-line", mod.name, "-", f"findings in a types module: {by_path[mod.name]}")
                )
            continue
        path = directory / f"{mod.name}.py"
        spans = corpus.tool_spans(path)
        expect_lines = corpus.expectations(path)
        static_codes: dict[str, list[str]] = collections.defaultdict(list)
        static_messages: dict[str, list[str]] = collections.defaultdict(list)
        if static is not None:
            for line, code, message in by_path.get(mod.name, []):
                owner = next((s.qualname for s in spans if s.first <= line <= s.last), None)
                if owner is None:
                    report.findings.append(
                        Finding("static-line", mod.name, "-", f"line {line}: {code} outside any tool: {message}")
                    )
                    continue
                static_codes[owner].append(code)
                static_messages[owner].append(message)
                want = expect_lines.get(line)
                if want is None or code not in want.static:
                    report.findings.append(
                        Finding(
                            "static-line", mod.name, owner, f"line {line}: {code} not expected on this line: {message}"
                        )
                    )
        for t in mod.tools:
            report.tools += 1
            key = (mod.name, t.qualname)
            rt = runtime.get(key)
            if rt is None:
                continue  # the module crashed (already counted)
            if rt.codes != t.runtime:
                report.findings.append(
                    Finding(
                        "runtime-codes",
                        mod.name,
                        t.qualname,
                        f"runtime {rt.codes} != contract {t.runtime}: {rt.messages}",
                    )
                )
            elif t.entry is not None and rt.entry is not None and _dump(rt.entry) != _dump(t.entry):
                report.findings.append(
                    Finding(
                        "oracle-entry", mod.name, t.qualname, "runtime vs contract: " + _entry_diff(rt.entry, t.entry)
                    )
                )
            if static is None:
                if not rt.codes and not t.runtime:
                    valid.append((t, rt))
                continue
            sc = sorted(static_codes.get(t.qualname, []))
            if sc != t.static:
                report.findings.append(
                    Finding(
                        "static-codes",
                        mod.name,
                        t.qualname,
                        f"static {sc} != contract {t.static}: {static_messages.get(t.qualname)}",
                    )
                )
            if sc and sc == rt.codes and sorted(static_messages[t.qualname]) != sorted(rt.messages):
                # both sides print what the shared checker says about the same model: same words
                report.findings.append(
                    Finding(
                        "message",
                        mod.name,
                        t.qualname,
                        f"static {sorted(static_messages[t.qualname])} != runtime {sorted(rt.messages)}",
                    )
                )
            se = static.entries.get(key)
            if not sc and not t.static:
                if se is None:
                    report.findings.append(
                        Finding("static-entry", mod.name, t.qualname, "no static entry for a clean tool")
                    )
                elif rt.entry is not None and _dump(se) != _dump(rt.entry):
                    report.findings.append(
                        Finding("static-entry", mod.name, t.qualname, "static vs runtime: " + _entry_diff(se, rt.entry))
                    )
            elif se is not None:
                report.findings.append(
                    Finding("static-entry", mod.name, t.qualname, f"a static entry for a tool with findings {sc}")
                )
            if not rt.codes and not t.runtime:
                valid.append((t, rt))
        known = {(mod.name, t.qualname) for t in mod.tools}
        if static is not None:
            for key in static.entries:
                if key[0] == mod.name and key not in known:
                    report.findings.append(
                        Finding("static-entry", mod.name, key[1], "a static entry for no generated tool")
                    )
    return valid


# --- payloads ---------------------------------------------------------------------------

_B64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]{1,6})?")


def _ecma(pattern: str) -> re.Pattern[str]:
    """A pattern read as ECMA-262 reads it (contract, "Binding"): ASCII \\d and \\w, ``$`` at the very end.

    Only the constructs the generator writes need translating (no character classes that
    contain these escapes): the generated patterns and the contract's timedelta pattern.
    """
    out = pattern.replace(r"\d", "[0-9]").replace(r"\w", "[A-Za-z0-9_]")
    out = re.sub(r"(?<!\\)\$", r"\\Z", out)
    return re.compile(out)


def _is_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    m = _TIME.fullmatch(value)
    if m is None:
        return False
    return int(m.group(1)) < 24 and int(m.group(2)) < 60 and int(m.group(3)) < 60


class Reference:
    """``jsonschema``'s Draft 2020-12 validator with the contract's readings where JSON Schema leaves one open.

    - ``pattern`` is read as ECMA-262 reads it (ASCII ``\\d``/``\\w``, ``$`` only at the very
      end): JSON Schema says so, Python's ``re`` (which ``jsonschema`` uses) does not.
    - ``contentEncoding: base64`` is only an annotation in 2020-12; the contract's binder
      enforces it (standard alphabet, padding required).
    - ``format: time`` is RFC 3339 ``full-time`` (with an offset) in JSON Schema; the
      contract's ``datetime.time`` row binds ``HH:MM:SS`` with an optional 1-6 digit fraction.
    - ``uniqueItems`` is judged on the values after binding (contract: "no two equal items
      after binding"): format strings are compared as the values they bind to, nested sets
      as sets, and an object's missing property as its written default.
    - ``format: email`` is the binder's documented reading (``onellm_runtime/formats.py``:
      exactly one ``@`` between non-empty parts, no white space or control character);
      ``jsonschema`` only looks for an ``@``.
    - ``format: uuid`` is the 8-4-4-4-12 hex form (contract, Types); ``jsonschema`` takes what
      ``uuid.UUID()`` parses (braces, extra hyphens).
    - ``format: date-time`` and ``uri``: ``jsonschema``'s checkers end their patterns with
      ``$``, which lets a final newline through; a date-time must also be one Python can
      hold (no second 60, no year 0000; ``formats.py``).
    - the timedelta pattern allows any number of day digits; a ``timedelta`` holds at most
      999,999,999 days.

    - ``type: integer``: a number written with an exponent or a fraction (a float once parsed)
      is an integer only below 10^20 in magnitude (contract, "Errors become results"); JSON
      Schema takes any integral number.

    These are the principled differences ``tests/test_differential.py`` pins for the
    binder (its items 1-8), read here as the contract's rule rather than excused afterwards.
    """

    def __init__(self, schema: dict[str, Any]) -> None:
        import jsonschema  # type: ignore[import-untyped]
        from jsonschema import Draft202012Validator, validators

        def pattern(validator: Any, p: str, instance: Any, schema: Any) -> Iterator[Any]:
            if not isinstance(instance, str):
                return
            if not _ecma(p).search(instance):
                yield jsonschema.ValidationError(f"{instance!r} does not match {p!r}")
            elif p == TIMEDELTA_PATTERN and not _timedelta_fits(instance):
                yield jsonschema.ValidationError(f"{instance!r} is beyond timedelta's range")

        def content_encoding(validator: Any, enc: str, instance: Any, schema: Any) -> Iterator[Any]:
            if enc == "base64" and isinstance(instance, str) and not _B64.fullmatch(instance):
                yield jsonschema.ValidationError(f"{instance!r} is not base64")

        def unique(validator: Any, unique: bool, instance: Any, schema: Any) -> Iterator[Any]:
            if unique and isinstance(instance, list):
                items = schema.get("items", {})
                seen: list[Any] = []
                for x in instance:
                    k = _canonical(x, items)
                    if k in seen:
                        yield jsonschema.ValidationError("items are not unique after binding")
                        return
                    seen.append(k)

        base = Draft202012Validator.FORMAT_CHECKER
        checker = jsonschema.FormatChecker(
            {k: v for k, v in base.checkers.items() if k not in ("time", "email", "uuid", "date-time", "uri")}
        )
        checker.checks("time")(_is_time)
        checker.checks("email")(_is_email)
        checker.checks("uuid")(_is_uuid)

        def no_final_newline(name: str) -> Any:
            original = base.checkers[name][0]

            def check(value: object) -> bool:
                if isinstance(value, str) and value.endswith("\n"):
                    return False
                if name == "date-time" and isinstance(value, str) and not _holdable_datetime(value):
                    return False
                return bool(original(value))

            return check

        for name in ("date-time", "uri"):
            checker.checks(name, raises=base.checkers[name][1])(no_final_newline(name))

        def integer(checker: Any, instance: object) -> bool:
            if isinstance(instance, float):
                return instance.is_integer() and abs(instance) < 1e20
            return bool(base_types.is_type(instance, "integer"))

        base_types = Draft202012Validator.TYPE_CHECKER
        cls = validators.extend(
            Draft202012Validator,
            {"pattern": pattern, "contentEncoding": content_encoding, "uniqueItems": unique},
            type_checker=base_types.redefine("integer", integer),
        )
        self.validator = cls(schema, format_checker=checker)

    def is_valid(self, doc: Any) -> bool:
        return bool(self.validator.is_valid(doc))


_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
_DT_HEAD = re.compile(r"([0-9]{4})-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:([0-9]{2})")


def _is_email(value: object) -> bool:
    if not isinstance(value, str):
        return True
    local, at, domain = value.partition("@")
    return (
        bool(at)
        and bool(local)
        and bool(domain)
        and "@" not in domain
        and not any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value)
    )


def _is_uuid(value: object) -> bool:
    return not isinstance(value, str) or _UUID.fullmatch(value) is not None


def _holdable_datetime(value: str) -> bool:
    m = _DT_HEAD.match(value)
    return m is None or (m.group(1) != "0000" and m.group(2) != "60")


def _timedelta_fits(value: str) -> bool:
    """Whether a text the timedelta pattern matches is a ``timedelta`` (its range is
    -999999999 days to 999999999 days 23:59:59.999999)."""
    try:
        _timedelta(value)
    except OverflowError:
        return False
    except ValueError:  # not of the pattern's shape: the pattern itself says so
        return True
    return True


def _canonical(value: Any, schema: dict[str, Any]) -> Any:
    """A value as the thing it binds to, for ``uniqueItems`` after binding."""
    fmt = schema.get("format")
    if isinstance(value, str):
        try:
            if fmt == "uuid":
                return ("uuid", uuid.UUID(value))
            if fmt in ("ipv4", "ipv6"):
                return (fmt, ipaddress.ip_address(value))
            if fmt == "date-time":  # truncated to microseconds, as the binder reads it
                text = re.sub(r"(\.[0-9]{6})[0-9]+", r"\1", value.replace("Z", "+00:00").replace("z", "+00:00"))
                return ("dt", dt.datetime.fromisoformat(text.replace("t", "T")))
            if fmt == "time":
                return ("time", dt.time.fromisoformat(value))
            if "pattern" in schema and schema["pattern"].startswith("^-?(\\d+\\.)?"):
                return ("td", _timedelta(value))
            if schema.get("contentEncoding") == "base64":
                return ("b64", base64.b64decode(value, validate=True))
        except (ValueError, OverflowError, binascii.Error):
            return ("str", value)
        return ("str", value)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("num", value)
    if isinstance(value, list):
        items = schema.get("items", {})
        canon = [_canonical(x, items) for x in value]
        if schema.get("uniqueItems"):
            return ("set", frozenset(canon))
        return ("list", tuple(canon))
    if isinstance(value, dict):
        props = schema.get("properties")
        if props is None:
            extra = schema.get("additionalProperties", {})
            return (
                "map",
                tuple(sorted((k, _canonical(v, extra if isinstance(extra, dict) else {})) for k, v in value.items())),
            )
        filled = dict(value)
        for k, p in props.items():
            if k not in filled and isinstance(p, dict) and "default" in p:
                filled[k] = p["default"]
            elif k not in filled and isinstance(p, dict) and _nullable(p):
                filled[k] = None  # a record field's unwritten default is None (the generator's only one)
        return ("obj", tuple(sorted((k, _canonical(v, props.get(k, {}))) for k, v in filled.items())))
    if "anyOf" in schema and isinstance(value, dict):
        return ("obj", json.dumps(value, sort_keys=True))
    return ("other", json.dumps(value, sort_keys=True))


def _nullable(schema: dict[str, Any]) -> bool:
    t = schema.get("type")
    return (isinstance(t, list) and "null" in t) or {"type": "null"} in schema.get("anyOf", [])


def _timedelta(text: str) -> dt.timedelta:
    neg = text.startswith("-")
    body = text[1:] if neg else text
    days = 0
    if "." in body.split(":")[0]:
        d, body = body.split(".", 1)
        days = int(d)
    h, mnt, rest = body.split(":")
    sec, _, frac = rest.partition(".")
    td = dt.timedelta(
        days=days, hours=int(h), minutes=int(mnt), seconds=int(sec), microseconds=int((frac or "0").ljust(6, "0"))
    )
    return -td if neg else td


_WRONG = [None, True, False, 0, -1, 1.5, "", "x", [], {}, 10**20, -(10**20), 1e300, "A" * 80, [None], {"k": 1}]


def _paths(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*path, i))


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def mutate(doc: Any, rnd: random.Random) -> Any:
    """One small change to a valid document: the kinds of mistake a model makes."""
    doc = json.loads(json.dumps(doc))
    paths = list(_paths(doc))
    path = rnd.choice(paths)
    target = _get(doc, path)
    parent: Any = _get(doc, path[:-1]) if path else None

    def put(value: Any) -> Any:
        if not path:
            return value
        parent[path[-1]] = value
        return doc

    how = rnd.choice(["drop", "unknown", "wrong", "number", "string", "array", "null", "case"])
    if how == "drop":
        objs = [p for p in paths if isinstance(_get(doc, p), dict) and _get(doc, p)]
        if objs:
            obj = _get(doc, rnd.choice(objs))
            del obj[rnd.choice(sorted(obj))]
            return doc
    if how == "unknown":
        objs = [p for p in paths if isinstance(_get(doc, p), dict)]
        if objs:
            _get(doc, rnd.choice(objs))[rnd.choice(["zzUnknown", "Query", "extra"])] = rnd.choice(_WRONG[:6])
            return doc
    if how == "number" and isinstance(target, (int, float)) and not isinstance(target, bool):
        as_float = float(target) if abs(target) < 1e300 else 1e300
        changed = rnd.choice([target + 1, target - 1, target * 1000 + 7, as_float + 0.5, -target - 1, as_float])
        return put(
            changed if not isinstance(changed, float) or math.isfinite(changed) else 1e308
        )  # JSON has no Infinity
    if how == "string" and isinstance(target, str):
        return put(
            rnd.choice(
                [
                    target.upper(),
                    target.lower(),
                    target + " ",
                    "",
                    target + "\n",
                    target[:-1],
                    target * 3,
                    "\u0663" + target,
                ]
            )
        )
    if how == "case" and isinstance(target, str):
        return put(target.swapcase())
    if how == "array" and isinstance(target, list):
        if target and rnd.random() < 0.6:
            return put([*target, json.loads(json.dumps(target[0]))])
        return put([] if target else [rnd.choice(_WRONG)])
    if how == "null":
        return put(None)
    return put(rnd.choice(_WRONG))


def check_payloads(
    module: str,
    qualname: str,
    made: Any,
    schema: dict[str, Any],
    seed: int,
    examples: int,
    report: BatchReport,
) -> None:
    """``Tool.bind`` accepts a document exactly when the reference validator does.

    Large, deeply nested schemas make large documents, so they get fewer examples (at least two).
    """
    if len(json.dumps(schema)) > 2500:
        examples = max(2, examples // 2)
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st
    from hypothesis.errors import Unsatisfiable
    from schema_strategy import UnsupportedSchema, from_schema

    from onellm_runtime.binding import ArgumentError

    ref = Reference(schema)
    counted = [0]

    class Disagree(Exception):
        pass

    def verdict(doc: Any) -> None:
        try:
            expected = ref.is_valid(doc)
        except Exception as e:  # the referee's own fault, not the binder's: say so
            raise RuntimeError(
                f"the reference validator raised {type(e).__name__}: {e} on {json.dumps(doc)[:300]}"
            ) from e
        for form in ("text", "mapping"):
            counted[0] += 1
            try:
                made.bind(json.dumps(doc) if form == "text" else doc)
                got, why = True, ""
            except ArgumentError as e:
                got, why = False, str(e)
            if got != expected:
                raise Disagree(
                    f"bind ({form}) {'accepts' if got else 'refuses'} what the schema "
                    f"{'accepts' if expected else 'refuses'}: {json.dumps(doc)[:300]} {why[:200]}"
                )

    try:
        strategy = from_schema(schema)
    except UnsupportedSchema as e:  # a keyword outside the vocabulary onellm writes
        report.findings.append(Finding("payload", module, qualname, f"the schema strategy refused the schema: {e}"))
        return

    @hseed(seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.shrink],
        report_multiple_bugs=False,
    )
    @given(doc=strategy, rnd=st.randoms(use_true_random=False))
    def run(doc: Any, rnd: random.Random) -> None:
        verdict(doc)
        verdict(mutate(doc, rnd))

    try:
        run()
    except Disagree as e:
        report.findings.append(Finding("payload", module, qualname, str(e)))
    except Unsatisfiable:
        pass
    except Exception as e:
        report.crashes.append(Finding("crash", module, qualname, f"binding raised {type(e).__name__}: {e}"))
    report.payloads += counted[0]


def binder_available() -> bool:
    from onellm_runtime import Tool

    def probe(x: int) -> None:
        """A probe."""

    try:
        Tool.create(probe).bind('{"x": 1}')
    except NotImplementedError:
        return False
    return True


# --- batches ----------------------------------------------------------------------------


def run_batch(
    seed: int,
    indices: Sequence[int],
    workdir: Path,
    *,
    static: bool = True,
    payloads: bool = True,
    examples: int = 6,
) -> BatchReport:
    """Generate, run and compare one batch (one mypy run for all of it)."""
    report = BatchReport()
    t0 = time.perf_counter()
    mods = write_batch(seed, indices, workdir)
    report.modules += sum(1 for m in mods if m.tools)
    t1 = time.perf_counter()
    report.seconds["generate"] += t1 - t0
    try:
        runtime = run_runtime(mods, workdir, report)
        t2 = time.perf_counter()
        report.seconds["runtime"] += t2 - t1
        static_result = run_static([workdir / f"{m.name}.py" for m in mods], report) if static else None
        t3 = time.perf_counter()
        report.seconds["static"] += t3 - t2
        valid = compare(mods, workdir, runtime, static_result, report)
        if payloads:
            for t, rt in valid:
                if rt.entry is None or rt.tool is None:
                    continue
                check_payloads(
                    t.module, t.qualname, _bindable(rt.tool), rt.entry["input_schema"], seed, examples, report
                )
        report.seconds["payloads"] += time.perf_counter() - t3
    finally:
        for m in mods:
            sys.modules.pop(m.name, None)
    return report


def _bindable(made: Any) -> Any:
    return made


def run(
    seed: int,
    modules: int,
    workdir: Path,
    *,
    batch: int = 100,
    static: bool = True,
    payloads: bool = True,
    examples: int = 6,
    start: int = 0,
) -> BatchReport:
    """``modules`` generated pairs in batches of ``batch`` (one mypy run per batch)."""
    total = BatchReport()
    for lo in range(start, start + modules, batch):
        hi = min(lo + batch, start + modules)
        total.merge(
            run_batch(seed, range(lo, hi), workdir / f"b{lo:06d}", static=static, payloads=payloads, examples=examples)
        )
    return total
