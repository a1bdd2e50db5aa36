"""The plugin's entry point and its registered codes."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import onellm_mypy
import onellm_runtime
from onellm_runtime.core.diagnostics import CODES

ROOT = Path(__file__).resolve().parent.parent


def test_every_olt_code_is_a_mypy_error_code_with_the_cores_meaning() -> None:
    from mypy.errorcodes import error_codes

    from onellm_mypy.codes import ERROR_CODES, MEANINGS

    assert MEANINGS == CODES
    for code, meaning in CODES.items():
        assert error_codes[code] is ERROR_CODES[code]
        assert (ERROR_CODES[code].code, ERROR_CODES[code].description, ERROR_CODES[code].category) == (
            code,
            meaning,
            "onellm",
        )


def test_the_version_is_the_package_version() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    assert match is not None
    assert onellm_mypy.__version__ == match.group(1) == onellm_runtime.__version__


def test_the_entry_point_stays_callable_after_its_submodules_are_imported() -> None:
    """mypy looks ``onellm_mypy.plugin`` up again (the daemon on every run): never the submodule."""
    from onellm_mypy.plugin import OnellmPlugin

    importlib.import_module("onellm_mypy.extract")
    importlib.import_module("onellm_mypy.plugin")
    assert onellm_mypy.plugin("2.4.1") is OnellmPlugin


def test_loading_the_plugin_leaves_the_checker_and_the_model_unloaded() -> None:
    """mypy loads the plugin on every run, a warm one too, where no hook runs: what it imports
    then is all the plugin costs there (benchmarks/mypy_overhead.py, the warm row)."""
    import subprocess
    import sys

    probe = "import sys, onellm_mypy.plugin; print(sorted(m for m in sys.modules if m.startswith('onellm_runtime.')))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = set(eval(done.stdout))
    assert not loaded & {
        "onellm_runtime.core.diagnostics",
        "onellm_runtime.core.model",
        "onellm_runtime.front.typing_front",
    }
    assert "onellm_runtime.core.codes" in loaded
