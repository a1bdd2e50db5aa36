"""Import a user's module from its file, for ``onellm schemas --runtime``.

``importlib.import_module("json")`` hands back the standard library's ``json`` when that
is already imported, so a tool module named ``json.py`` (or ``inspect.py``, ``time.py``, ...)
would be silently replaced by it. Loading from the file named on the command line avoids
that: the module (and each package above it) is executed from its own path under its own
name, and whatever held that name in ``sys.modules`` before is put back afterwards.

While user code runs, its prints go to standard error, so the manifest on standard output
stays a JSON document.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from collections.abc import Generator
from types import ModuleType

__all__ = ["ImportFailed", "loaded_from_path", "output_to_stderr"]


class ImportFailed(Exception):
    """A user's module could not be imported (the message names it and says why)."""


@contextlib.contextmanager
def output_to_stderr() -> Generator[None, None, None]:
    """Send everything written to standard output to standard error, at both levels.

    ``print`` goes through ``sys.stdout``; C extensions and subprocesses write to file
    descriptor 1 directly, so that is redirected too.
    """
    sys.stdout.flush()
    saved_fd = os.dup(1)
    saved_stdout = sys.stdout
    try:
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        yield
    finally:
        sys.stdout.flush()
        sys.stdout = saved_stdout
        os.dup2(saved_fd, 1)
        os.close(saved_fd)


def _load(name: str, path: str, package_dir: str | None) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        name, path, submodule_search_locations=[package_dir] if package_dir is not None else None
    )
    if spec is None or spec.loader is None:
        raise ImportFailed(f"cannot import {name!r} from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent and parent in sys.modules:
        setattr(sys.modules[parent], child, module)
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]  # as the import system does: a failed import leaves no module
        raise
    return module


def _describe_failure(name: str, error: BaseException) -> str:
    if isinstance(error, SystemExit):
        return f"importing {name!r} called sys.exit({error.code!r})"
    try:
        text = str(error)
    except Exception:  # an exception whose __str__ fails still gets named
        text = ""
    return f"importing {name!r} failed: {type(error).__name__}" + (f": {text}" if text else "")


def _tool_refusal(error: BaseException) -> BaseException | None:
    """The ``ToolDefinitionError`` an import error was raised from, if any: Python before 3.12
    wraps what ``__set_name__`` raises (a ``@tool`` method refused when its class is created)
    in ``RuntimeError: Error calling __set_name__ ...``, whose cause is the finding."""
    from ..tool import ToolDefinitionError

    seen: set[int] = set()
    cause = error.__cause__
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, ToolDefinitionError):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__
    return None


def _markers_and_results_loaded() -> None:
    """Import what a tool module's ``from onellm_runtime import Range, ToolContext, TextPart``
    loads (the package imports it on first use) before any user code runs: loaded while the
    user's ``time.py`` stands for the standard library's, ``threading`` would import that one."""
    for name in ("aliases", "annotations", "context", "results"):
        importlib.import_module(f"onellm_runtime.{name}")


@contextlib.contextmanager
def loaded_from_path(module: str, path: str, root: str) -> Generator[ModuleType, None, None]:
    """``module`` executed from ``path`` (its packages from below ``root``), for the ``with`` block.

    A package or module already imported from the same file is reused; a module of the
    same name imported from elsewhere (the standard library's ``json``) is shadowed only
    inside the block, and modules new to ``sys.modules`` stay, as after an import. Raises
    ``ImportFailed`` when the module raises (``SystemExit`` included) while importing;
    ``ToolDefinitionError`` passes through, since it is a finding about a tool.
    """
    from ..tool import ToolDefinitionError

    _markers_and_results_loaded()
    parts = module.split(".")
    replaced: dict[str, ModuleType | None] = {}
    target: ModuleType | None = None
    try:
        for i in range(len(parts)):
            name = ".".join(parts[: i + 1])
            last = i == len(parts) - 1
            if last:
                file = path
            else:
                file = os.path.join(root, *parts[: i + 1], "__init__.py")
            package_dir = os.path.dirname(file) if os.path.basename(file) == "__init__.py" else None
            existing = sys.modules.get(name)
            existing_file = getattr(existing, "__file__", None)
            if (
                existing is not None
                and isinstance(existing_file, str)
                and os.path.abspath(existing_file) == os.path.abspath(file)
            ):
                target = existing
                continue
            replaced[name] = existing
            if not last and not os.path.isfile(file):  # a namespace package: an empty module with a path
                namespace = ModuleType(name)
                namespace.__path__ = [os.path.join(root, *parts[: i + 1])]
                sys.modules[name] = namespace
                target = namespace
                continue
            try:
                target = _load(name, file, package_dir)
            except ToolDefinitionError:
                raise
            except (Exception, SystemExit, KeyboardInterrupt) as e:
                refused = _tool_refusal(e)
                if refused is not None:  # a method's tool refused as its class was made
                    raise refused from None
                raise ImportFailed(_describe_failure(name, e)) from e
        assert target is not None
        yield target
    finally:
        for name, previous in replaced.items():
            if previous is not None:
                sys.modules[name] = previous
