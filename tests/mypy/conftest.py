"""Point pytest-mypy-plugins at this directory's mypy.ini unless the command line names another.

Done here rather than in pyproject's addopts so the path is right from any working directory.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    option = config.option
    if getattr(option, "mypy_ini_file", None) is None and getattr(option, "mypy_pyproject_toml_file", None) is None:
        option.mypy_ini_file = str(Path(__file__).with_name("mypy.ini"))
