"""The options of ``@tool(...)`` and ``Tool.create(...)``: names, defaults and checks, one row each.

``ToolOptions`` is the one place an option is declared. The decorator and ``Tool.create``
build it, the model holds it (``ToolModel.options``), the mypy side reads the keywords its
fields name (in ``Tool.create``'s positional order) with their defaults, and the manifest
writes the fields marked ``manifest``. The public signatures of ``@tool`` and
``Tool.create`` spell the options out for type checkers; a test holds them to these fields.

This module is imported with ``onellm_runtime`` itself, so it imports nothing of the core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, TypeVar, cast

from typing_extensions import ParamSpec

__all__ = ["ToolOptions", "DEFAULT_OPTIONS", "OPTION_NAMES", "MANIFEST_OPTIONS", "INVOCATION_MODES", "given_options"]

P = ParamSpec("P")
T = TypeVar("T")

INVOCATION_MODES = ("wait", "model_choice")


def _invocation_mode(value: Any) -> None:
    if value not in INVOCATION_MODES:
        raise ValueError(f"invocation_mode must be 'wait' or 'model_choice', not {value!r}")


def _timeout_seconds(value: Any) -> None:
    if value < 0:
        raise ValueError(f"timeout_seconds must be 0 (none) or more, not {value!r}")


def _option(default: T, *, manifest: bool = False, check: Callable[[Any], None] | None = None) -> T:
    """One option's row: its default, whether the manifest lists it, and the check a given
    value must pass (raising ``ValueError``: ``@tool(...)`` refuses it on the spot)."""
    metadata: Mapping[str, object] = {"manifest": manifest, "check": check}
    found: T = field(default=default, metadata=metadata)
    return found


@dataclass(frozen=True)
class ToolOptions:
    """The options a tool was given, each with the value it has when not given."""

    #: The tool's name; None derives it from the function's name.
    name: str | None = _option(None)
    #: The tool's description; None takes the docstring's summary.
    description: str | None = _option(None)
    #: A successful call ends the model loop (its value is the ``typed_result``).
    ends_loop: bool = _option(False, manifest=True)
    #: The invoker runs a call only when the caller approved it.
    requires_approval: bool = _option(False, manifest=True)
    #: Calls may run concurrently with the other parallel-safe calls of a batch.
    parallel_safe: bool = _option(True, manifest=True)
    #: The call's time limit on the context's clock; 0 is none.
    timeout_seconds: float = _option(0, manifest=True, check=_timeout_seconds)
    #: How record fields are named on the wire (``"camelCase"``, or None: as written).
    naming: str | None = _option(None)
    #: ``"wait"``, or ``"model_choice"``: the model may ask for a background job.
    invocation_mode: str = _option("wait", check=_invocation_mode)

    def __post_init__(self) -> None:
        for name, check in _CHECKS:
            check(getattr(self, name))


#: Each option's check, run from the last field back (given two bad values, the error names
#: ``invocation_mode``).
_CHECKS: tuple[tuple[str, Callable[[Any], None]], ...] = tuple(
    (f.name, f.metadata["check"]) for f in reversed(fields(ToolOptions)) if f.metadata["check"] is not None
)

#: The options of a bare ``@tool`` and of ``Tool.create(fn)``: one object shared by every
#: tool given none (a model stores nothing for it).
DEFAULT_OPTIONS = ToolOptions()

#: The option keywords, in ``Tool.create``'s positional order after ``fn``.
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(ToolOptions))

#: The options the manifest lists after a tool's schemas, in this order.
MANIFEST_OPTIONS: tuple[str, ...] = tuple(f.name for f in fields(ToolOptions) if f.metadata["manifest"])


def _sharing_defaults(make: Callable[P, ToolOptions]) -> Callable[P, ToolOptions]:
    """``make`` (``ToolOptions``), except that values which are each the default object
    itself give ``DEFAULT_OPTIONS``, found without building anything.

    The test is ``is``, not ``==``: ``timeout_seconds=0.0`` equals the default 0 but is kept
    as given (the manifest prints ``0.0``), and ``ends_loop=0`` is not ``False``. Written from
    the fields, as ``dataclass`` writes its ``__init__``, so it is as quick as a hand-written
    one (``Tool.create(fn)`` passes through it on every call).
    """
    namespace: dict[str, Any] = {"_make": make, "_shared": DEFAULT_OPTIONS}
    params: list[str] = []
    tests: list[str] = []
    for f in fields(ToolOptions):
        assert f.default is not MISSING
        namespace[f"_default_{f.name}"] = f.default
        params.append(f"{f.name}=_default_{f.name}")
        tests.append(f"{f.name} is _default_{f.name}")
    names = ", ".join(OPTION_NAMES)
    source = (
        f"def given_options({', '.join(params)}):\n"
        f"    if {' and '.join(tests)}:\n"
        "        return _shared\n"
        f"    return _make({names})\n"
    )
    exec(source, namespace)  # as dataclass itself makes its methods
    made: Any = namespace["given_options"]
    made.__module__ = __name__
    return cast("Callable[P, ToolOptions]", made)


#: ``ToolOptions(...)`` as ``@tool(...)`` and ``Tool.create(...)`` take it: ``DEFAULT_OPTIONS``
#: itself when nothing but the defaults is given. (Declared loosely: an inferred signature is
#: not a declared one to ``pyright --verifytypes``; tests/test_tool_options.py calls it both ways.)
given_options: Callable[..., ToolOptions] = _sharing_defaults(ToolOptions)
