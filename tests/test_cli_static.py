"""``onellm check`` and ``schemas --static`` never run user code, and a file that is not
Python is a finding, not a crash: real subprocesses, real mypy, exact output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run, write

# A package whose import leaves a mark: the static side must never cause it.
MARKING_PACKAGE = {
    "pkg/__init__.py": 'from pathlib import Path\nPath(__file__).with_name("MARKER").write_text("imported")\n',
    "pkg/sub/__init__.py": 'from pathlib import Path\nPath(__file__).with_name("MARKER").write_text("imported")\n',
    "pkg/sub/tools.py": (
        "from typing import Any\n"
        "from onellm_runtime import tool\n"
        "\n"
        "\n"
        "@tool\n"
        "def search(query: str, filters: Any) -> str:\n"
        "    return query\n"
        "\n"
        "\n"
        "@tool\n"
        "def fetch(key: str) -> str:\n"
        '    """Fetch a key."""\n'
        "    return key\n"
    ),
}

SEARCH_FINDING = (
    "pkg/sub/tools.py:6:24: error: Tool 'search': Parameter 'filters': 'Any' has no schema; "
    "use a concrete type, or JsonValue to accept any JSON value  [OLT002]\n"
)


@pytest.mark.parametrize("script", [False, True], ids=["python -m onellm_runtime", "onellm"])
def test_module_names_are_resolved_without_importing_anything(tmp_path: Path, script: bool) -> None:
    write(tmp_path, MARKING_PACKAGE)
    check = run("check", "pkg.sub.tools", cwd=tmp_path, script=script)
    assert (check.returncode, check.stdout) == (1, SEARCH_FINDING), check.stderr
    assert check.stderr == "Found 1 problem in 1 module\n"
    static = run("schemas", "--static", "pkg.sub.tools", cwd=tmp_path, script=script)
    assert static.returncode == 1
    assert (static.stdout, static.stderr) == ("", SEARCH_FINDING)
    check_package = run("check", "pkg.sub", cwd=tmp_path, script=script)  # a package's name: its __init__.py
    assert (check_package.returncode, check_package.stdout) == (0, ""), check_package.stderr
    assert not (tmp_path / "pkg" / "MARKER").exists()
    assert not (tmp_path / "pkg" / "sub" / "MARKER").exists()
    unknown = run("check", "pkg.nothing", cwd=tmp_path, script=script)
    assert (unknown.returncode, unknown.stderr) == (
        2,
        "onellm: error: no such file, directory or module: pkg.nothing\n",
    )
    assert not (tmp_path / "pkg" / "MARKER").exists()


GOOD = (
    "from typing import Any\nfrom onellm_runtime import tool\n\n\n@tool\ndef lookup(key: Any) -> str:\n    return ''\n"
)
GOOD_FINDING = (
    "good.py:6:12: error: Tool 'lookup': Parameter 'key': 'Any' has no schema; "
    "use a concrete type, or JsonValue to accept any JSON value  [OLT002]"
)

# Each row: a file that is not Python, and the one finding it gives (the other files are still checked).
UNREADABLE = [
    ("syntax error", b"def broken(:\n    pass\n", "{file}:1:12: error: invalid syntax  [syntax]"),
    ("indentation error", b"def f():\n  x = 1\n    y = 2\n", "{file}:3:4: error: unexpected indent  [syntax]"),
    (
        "not UTF-8",
        b"# a comment\nname = '\xff'\n",
        "{file}:2:9: error: The file is not valid utf-8: byte 0xff: invalid start byte  [syntax]",
    ),
    ("unknown coding", b"# -*- coding: klingon -*-\nx = 1\n", "{file}:1:1: error: unknown encoding: klingon  [syntax]"),
    ("null byte", b"x = 1\x00\n", "{file}:1:1: error: source code string cannot contain null bytes  [syntax]"),
]


def test_each_file_that_is_not_python_is_one_finding_and_the_others_are_checked(tmp_path: Path) -> None:
    """One run over every row's file and a good one (each row is its own file, so one run checks them all)."""
    bad = {f"bad_{n}.py": content for n, (_, content, _) in enumerate(UNREADABLE)}
    write(tmp_path, {**bad, "good.py": GOOD})
    findings = "".join(finding.format(file=f"bad_{n}.py") + "\n" for n, (_, _, finding) in enumerate(UNREADABLE))
    check = run("check", *bad, "good.py", cwd=tmp_path)
    assert (check.returncode, check.stdout, check.stderr) == (
        1,
        f"{findings}{GOOD_FINDING}\n",
        f"Found {len(bad) + 1} problems in {len(bad) + 1} modules\n",
    )
    static = run("schemas", "--static", *bad, "good.py", cwd=tmp_path)
    assert (static.returncode, static.stdout, static.stderr) == (1, "", f"{findings}{GOOD_FINDING}\n")


def test_a_latin_1_file_with_its_coding_cookie_is_read(tmp_path: Path) -> None:
    write(tmp_path, {"latin.py": b"# -*- coding: latin-1 -*-\n" + GOOD.replace("''", "'\xe9'").encode("latin-1")})
    check = run("check", "--format", "json", "latin.py", cwd=tmp_path)
    assert check.returncode == 1, check.stderr
    assert [(d["path"], d["line"], d["code"]) for d in json.loads(check.stdout)] == [("latin.py", 7, "OLT002")]


def test_an_imported_module_that_does_not_parse_is_reported_once_and_not_followed(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/helpers.py": "def half(:\n",
            "app/tools.py": "from app import helpers\n" + GOOD,
        },
    )
    check = run("check", "app/tools.py", cwd=tmp_path)
    assert (check.returncode, check.stdout) == (
        1,
        "app/helpers.py:1:10: error: invalid syntax  [syntax]\n"
        + GOOD_FINDING.replace("good.py:6:", "app/tools.py:7:")
        + "\n",
    ), check.stderr


def test_exit_code_2_is_for_usage_errors_only(tmp_path: Path) -> None:
    write(tmp_path, {"good.py": GOOD})
    rows = [
        (("check", "--format", "xml", "good.py"), "invalid choice: 'xml'"),
        (("check", "missing.py"), "onellm: error: no such file, directory or module: missing.py\n"),
        (("check",), "onellm: error: no paths given, and the mypy configuration names no files\n"),
        (("check", "--config-file", "nowhere.ini", "good.py"), "Cannot find config file 'nowhere.ini'"),
        (("check", "--python-version", "2.7", "good.py"), "Mypy no longer supports checking Python 2 code"),
    ]
    for args, message in rows:
        proc = run(*args, cwd=tmp_path)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stdout == ""
        assert message in proc.stderr, (args, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_without_mypy_the_static_side_says_what_to_install(tmp_path: Path) -> None:
    import subprocess
    import sys

    write(tmp_path, {"good.py": GOOD})
    hide_mypy = (
        "import sys; sys.modules['mypy'] = None; from onellm_runtime.cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    for args in (["check", "good.py"], ["schemas", "--static", "good.py"]):
        proc = subprocess.run(
            [sys.executable, "-c", hide_mypy, *args], capture_output=True, text=True, cwd=tmp_path, timeout=300
        )
        assert (proc.returncode, proc.stdout, proc.stderr) == (
            2,
            "",
            "onellm: error: the static side needs mypy: pip install -e '.[mypy]' in a clone of onellm (once published: pip install 'onellm-tools[mypy]')\n",
        )


def test_check_loads_no_command_it_does_not_run(tmp_path: Path) -> None:
    """``check`` prints findings: the lock and diff commands (the lock reader, every provider
    adapter, asyncio) and the manifest writer stay unloaded."""
    import subprocess
    import sys

    write(tmp_path, {"good.py": GOOD})
    loaded = (
        "import sys; from onellm_runtime.cli.main import main; main(sys.argv[1:]); "
        "print(sorted(m for m in sys.modules if m.startswith(('onellm_runtime.', 'asyncio'))))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", loaded, "check", "good.py"], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    modules = proc.stdout.splitlines()[-1]
    for unused in ("onellm_runtime.cli.lock", "onellm_runtime.locking", "onellm_runtime.providers", "asyncio"):
        assert f"'{unused}'" not in modules, modules
    assert "'onellm_runtime.cli.manifest'" not in modules, modules
    assert "'onellm_runtime.cli.main'" in modules  # what was asked is in the list


def test_two_files_of_one_module_name_stop_mypy_with_what_to_do_in_onellm_check(tmp_path: Path) -> None:
    write(tmp_path, {"a/tools.py": GOOD, "b/tools.py": GOOD})
    proc = run("check", ".", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "onellm: error: mypy stopped:\n"
        'b/tools.py: error: Duplicate module named "tools" (also at "./a/tools.py")\n'
        "two files map to one module name: give each directory an __init__.py so that they are packages, "
        "skip one with --exclude REGEX, or set explicit_package_bases = true and mypy_path in the mypy "
        "configuration ([tool.mypy] in pyproject.toml)\n"
    )
    # each way out it names lets the check run (GOOD has one finding of its own: exit 1, not 2)
    assert run("check", "--exclude", "^b/", ".", cwd=tmp_path).returncode == 1
    write(tmp_path, {"pyproject.toml": '[tool.mypy]\nexplicit_package_bases = true\nmypy_path = "."\n'})
    assert run("check", ".", cwd=tmp_path).returncode == 1
    (tmp_path / "pyproject.toml").unlink()
    write(tmp_path, {"a/__init__.py": "", "b/__init__.py": ""})
    assert run("check", ".", cwd=tmp_path).returncode == 1
