"""The compiled binder: the fast path over a raw document, the general two-pass path, and
the cache of binders by tool model."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import Any, cast

from ..core.model import Param, Returns, ToolModel
from ..errortext import describe
from ..provider_names import NULL_MEANS_ABSENT
from . import jsonparse
from .compiler import Compiler
from .containers import as_object
from .state import MISSING, ArgumentError, BoundCall, Call, Fault, NeedExact, type_of
from .texts import sent

__all__ = ["Binder", "CompiledBinder", "compile_binder"]

Binder = Callable[[str | bytes | Mapping[str, object], str | None], "dict[str, object]"]


def _objectify(v: Any, c: Call) -> Any:
    """A raw document with its objects as dicts (duplicates reported), for a provider decoder."""
    t = type_of(v)
    if t is list:
        out: list[Any] = []
        items: list[Any] = v
        for i, x in enumerate(items):
            c.path.append(i)
            out.append(_objectify(x, c))
            c.path.pop()
        return out
    if t is tuple:
        d = as_object(v, c)
        assert d is not None
        obj: dict[Any, Any] = {}
        for k, x in d.items():
            c.path.append(k)
            obj[k] = _objectify(x, c)
            c.path.pop()
        return obj
    return v


_RAW = (str, bytes, bytearray, memoryview)
#: The scanner ``jsonparse.read_object`` runs: objects as pairs, floats as float, no NaN.
_READ_PLAIN: Callable[[str, int], Any] = jsonparse.PLAIN_SCANNER
#: The same for a document over ``_ONE_PIECE`` characters: read in pieces, so a thread
#: binding it lets the others run (see ``jsonparse``).
_READ_PIECES: Callable[[str, int], Any] = jsonparse.PLAIN_PIECES
_ONE_PIECE = jsonparse.PIECES_OVER
#: The state of a fast pass over a raw document, shared by every such call: a fast pass
#: never writes to it (a fault raises before any bookkeeping; only a tool with an
#: invocation mode records one, and those tools do not use it).
_FAST_RAW = Call(True, False, False, False)


class CompiledBinder:
    """A tool's binder: call it as ``binder(arguments, provider)`` (the ``Binder`` shape).

    ``bind_call`` also returns the invocation mode a ``model_choice`` tool was asked for.
    """

    __slots__ = ("_top", "_exact", "_plain", "_params", "_options", "_decoder", "__weakref__")

    def __init__(self, tool: ToolModel) -> None:
        compiler = Compiler(tool.options.naming)
        self._top = compiler.top(tool)
        self._exact = compiler.uses_decimal
        #: No Decimal and no invocation mode: the common path may use the shared ``_FAST_RAW``.
        self._plain = not self._exact and self._top.mode is None
        # Kept (not the model itself) so the binder does not keep the model alive.
        self._params: tuple[Param, ...] = tool.params
        self._options = tool.options
        self._decoder: Any = MISSING

    def __call__(self, arguments: str | bytes | Mapping[str, object], provider: str | None = None) -> dict[str, object]:
        given: Any = arguments  # told apart by exact type below (no isinstance: this is per call)
        kind = type(arguments)
        if kind is bytes and given[:1] == b"{":
            # Bytes as provider SDKs and HTTP bodies hand them over: read as UTF-8 text, then
            # bound as a str is (a document that starts with "{" has no byte order mark).
            try:
                text: str = given.decode()
            except UnicodeDecodeError:
                return self._bind_slowly(arguments, provider)[0]  # the reader names the byte
        elif kind is str and given.startswith("{"):
            text = given
        else:
            return self._bind_slowly(arguments, provider)[0]
        if provider is None and self._plain:
            # The common case, without the general loop's bookkeeping: a valid raw document,
            # exactly one object (``jsonparse.read_object``, written out: this is per call).
            try:
                pairs, end = (_READ_PLAIN if len(text) <= _ONE_PIECE else _READ_PIECES)(text, 0)
            except (ValueError, StopIteration, RecursionError):
                pairs, end = None, -1  # the general path gives the verdict
            if end == len(text):
                try:
                    return self._top.ordered(pairs, _FAST_RAW)  # type: ignore[no-any-return]
                except (Fault, RecursionError):
                    pass
                except NeedExact:  # the general path need not find that out again
                    return self._bind_slowly(text, provider, True)[0]
        return self._bind_slowly(text, provider)[0]

    def bind_call(self, arguments: str | bytes | Mapping[str, object], provider: str | None = None) -> BoundCall:
        """Bind, or raise ``ArgumentError`` listing every fault; also the requested invocation mode."""
        kwargs, mode = self._bind(arguments, provider)
        return BoundCall(kwargs, mode)

    def _bind(
        self, arguments: str | bytes | Mapping[str, object], provider: str | None
    ) -> tuple[dict[str, object], str]:
        given: Any = arguments  # as in __call__
        kind = type(arguments)
        if kind is bytes and given[:1] == b"{":
            try:
                text: str = given.decode()
            except UnicodeDecodeError:
                return self._bind_slowly(arguments, provider)
        elif kind is str and given.startswith("{"):
            text = given
        else:
            return self._bind_slowly(arguments, provider)
        # A provider changes nothing the fast path accepts unless its adapter re-encoded a
        # dictionary of this tool: OpenAI's null-as-omitted is only read where the fast path
        # would refuse the null, and a refusal goes to the general path, which reads it.
        if self._plain and (provider is None or self._provider_decoder(provider) is None):
            try:
                pairs, end = (_READ_PLAIN if len(text) <= _ONE_PIECE else _READ_PIECES)(text, 0)
            except (ValueError, StopIteration, RecursionError):
                pairs, end = None, -1
            if end == len(text):
                try:
                    return self._top.ordered(pairs, _FAST_RAW), "wait"
                except (Fault, RecursionError):
                    pass
                except NeedExact:
                    return self._bind_slowly(text, provider, True)
        return self._bind_slowly(text, provider)

    def _bind_slowly(
        self, arguments: str | bytes | Mapping[str, object], provider: str | None, exact: bool = False
    ) -> tuple[dict[str, object], str]:
        """The general path; ``exact``: read numbers exactly from the start (a fast path met a
        float that may not hold the integer its text wrote)."""
        given = cast(object, arguments)  # untyped callers may pass anything
        raw = isinstance(given, _RAW)
        exact = exact or self._exact
        doc: Any
        if raw:
            doc = self._read(arguments, exact)  # type: ignore[arg-type]
        elif isinstance(given, Mapping):
            mapping = cast("Mapping[str, object]", given)
            try:
                doc = mapping if isinstance(mapping, dict) else dict(mapping)
            except BaseException as e:  # its keys() or __getitem__ is user code
                raise ArgumentError(f"Arguments could not be read: {describe(e)}") from None
        else:
            kind = sent(arguments, Call(False, False, False, False))
            raise ArgumentError(f"Arguments must be a JSON object, got {kind}.")
        openai = provider in NULL_MEANS_ABSENT
        decoder = self._provider_decoder(provider) if provider is not None else None
        if decoder is not None:
            doc = self._decode(doc, raw, decoder)
        collect = False
        while True:
            c = Call(raw, exact, openai, collect)
            try:
                d = as_object(doc, c)
                if d is None:
                    raise ArgumentError(f"Arguments must be a JSON object, got {sent(doc, c)}.")
                kwargs = self._top.fast(d, c)
            except Fault:
                collect = True
                continue
            except NeedExact:
                exact = True
                doc = self._read(arguments, True)  # type: ignore[arg-type]
                if decoder is not None:
                    doc = self._decode(doc, raw, decoder)
                continue
            except RecursionError:
                raise ArgumentError("Arguments are nested too deeply.") from None
            if collect:
                if c.errors:
                    raise _error(c)
                # cannot happen: both passes run the same checks
                raise ArgumentError("Arguments were refused, but no fault could be named.")
            return kwargs, c.mode

    @staticmethod
    def _read(arguments: str | bytes, exact: bool) -> Any:
        try:
            return jsonparse.read(arguments, exact=exact)
        except jsonparse.JsonError as e:
            raise ArgumentError(f"Arguments are not valid JSON: {e}.") from None

    # -- provider re-encodings (a seam: each provider's decoder lives with its adapter) --

    def _provider_decoder(self, provider: str) -> Callable[[Mapping[str, object]], Mapping[str, object]] | None:
        decoder = self._decoder
        if decoder is MISSING:
            from ..providers._decode import PAIR_PROVIDERS, compile_decoder

            stand_in = ToolModel(
                function_name="", docstring=None, params=self._params, returns=Returns("none"), options=self._options
            )
            decoder = compile_decoder(stand_in)
            self._decoder = decoder = (PAIR_PROVIDERS, decoder)
        providers, compiled = decoder
        return compiled if provider in providers else None

    @staticmethod
    def _decode(doc: Any, raw: bool, decoder: Callable[[Mapping[str, object]], Mapping[str, object]]) -> Any:
        from ..providers._decode import DecodeError

        if raw:
            c = Call(True, False, False, True)
            try:
                doc = _objectify(doc, c)
            except RecursionError:
                raise ArgumentError("Arguments are nested too deeply.") from None
            if c.errors:
                raise _error(c)
        if not isinstance(doc, Mapping):
            return doc
        try:
            return decoder(cast("Mapping[str, object]", doc))
        except DecodeError as e:
            raise ArgumentError(str(e), e.path) from None


def _error(c: Call) -> ArgumentError:
    errors = c.errors
    text = "\n".join(message for _, message in errors)
    if c.count > len(errors):
        text += f"\n... and {c.count - len(errors)} more."
    return ArgumentError(text, errors[0][0], errors)


_CACHE: dict[int, tuple[weakref.ref[ToolModel], CompiledBinder]] = {}


def _forget(key: int) -> Callable[[object], None]:
    def forget(_: object) -> None:
        _CACHE.pop(key, None)

    return forget


def compile_binder(tool: ToolModel) -> CompiledBinder:
    """The binder of a (checked) tool model; compiled once per model object and cached."""
    key = id(tool)
    entry = _CACHE.get(key)
    if entry is not None and entry[0]() is tool:
        return entry[1]
    binder = CompiledBinder(tool)
    _CACHE[key] = (weakref.ref(tool, _forget(key)), binder)
    return binder
