"""onellm_mypy: the mypy plugin that checks onellm tools at type-check time.

Enable it with ``plugins = ["onellm_mypy"]`` under ``[tool.mypy]`` (or ``plugins =
onellm_mypy`` in an ini file). The same front end backs ``onellm check`` and
``onellm schemas --static`` (see ``onellm_mypy.extract``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from onellm_runtime import __version__

if TYPE_CHECKING:
    from mypy.plugin import Plugin

__all__ = ["__version__", "plugin"]


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin class (imported here so ``import onellm_mypy`` stays light)."""
    from .plugin import OnellmPlugin

    # Importing the submodule bound the package attribute ``plugin`` to it; put this entry
    # point back, because the daemon (dmypy) calls ``onellm_mypy.plugin`` again on each run.
    globals()["plugin"] = _entry_point
    return OnellmPlugin


_entry_point = plugin
