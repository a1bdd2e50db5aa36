"""onellm_mypy: the mypy plugin that checks onellm tools at type-check time.

Enable it with ``plugins = ["onellm_mypy"]`` under ``[tool.mypy]`` (or ``plugins =
onellm_mypy`` in an ini file). The same front end backs ``onellm check`` and
``onellm schemas --static`` (see ``onellm_mypy.extract``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

try:
    # Imported first, before ``plugin`` below is defined: importing a submodule binds the
    # package attribute of the same name to it, and mypy (the daemon on every run, and any
    # process that also imported the submodule) looks the entry point up as that attribute.
    from . import plugin as _hooks  # noqa: F401
except ImportError:  # mypy is not installed: the package still imports (for its CLI)
    pass

if TYPE_CHECKING:
    from mypy.plugin import Plugin

__all__ = ["__version__", "plugin"]

#: The package version (mypy re-checks everything when a plugin's version changes). Kept
#: here as a literal rather than imported, so loading the plugin imports nothing else.
__version__ = "0.1.0"


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin class."""
    from .plugin import OnellmPlugin

    return OnellmPlugin
