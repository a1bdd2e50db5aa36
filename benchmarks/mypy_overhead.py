"""What the mypy plugin costs: mypy on a generated project of tools, with and without it.

Generates a package of ``--modules`` modules with ``--tools`` tools each (default 50 x 10 =
500 tools) into a temporary directory: records, enums and ``Annotated`` aliases in a shared
module, tools with docstrings, defaults and nested records in the others. Then times
``python -m mypy`` on it, in a fresh process each run:

- cold: an empty cache directory every run;
- warm: the cache filled by a first run, nothing changed since;
- ``onellm check`` (the static extractor, no cache) against cold plain mypy.

Each figure is the median CPU time (user + system of the child process) of ``--repeat``
runs, the kinds interleaved; CPU time rather than wall time because a shared machine's
load moves wall time by more than the plugin costs. The printed ratios are
plugin / plain (targets: 1.10x cold, 1.03x warm; ``onellm check`` 1.2x of cold plain mypy here;
``benchmarks/run.py``'s mypy section compares it with ``mypy --no-incremental`` with the plugin). Run from anywhere::

    python benchmarks/mypy_overhead.py [--modules 50] [--tools 10] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SHARED = '''\
"""Records and aliases the generated tools share."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Annotated, Literal, NamedTuple, Optional, TypedDict

from onellm_runtime import Description, Email, Length, Pattern, Range, UInt16

Quantity = Annotated[UInt16, Range(1, 999), Description("How many.")]
Code = Annotated[str, Pattern(r"^[A-Z]{3}-[0-9]{4}$"), Length(8, 8)]
Mail = Annotated[str, Email(), Description("Where to write.")]
LIMIT = 50


class Priority(enum.Enum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


@dataclass(frozen=True)
class Address:
    """A postal address.

    Attributes:
        street: Street and number.
        city: The city.
        country: ISO 3166 code.
    """

    street: str
    city: str
    country: Annotated[str, Length(2, 2)] = "GB"


@dataclass
class Customer:
    """Who orders.

    Attributes:
        name: Full name.
        email: Contact address.
    """

    name: str
    email: Mail
    address: Optional[Address] = None
    tags: list[str] = field(default_factory=list)


class Line(NamedTuple):
    sku: Code
    qty: Quantity = 1


class Filters(TypedDict, total=False):
    status: Literal["open", "closed"]
    priority: Priority
    assignee: str


@dataclass
class Start:
    action: Literal["start"]
    job: str


@dataclass
class Stop:
    action: Literal["stop"]
    job: str
    force: bool = False
'''

TOOL_TEMPLATES = (
    '''
@tool
def create_ticket_{n}(
    title: Annotated[str, Length(1, 120)],
    body: str = "",
    priority: Priority = Priority.NORMAL,
    customer: Optional[Customer] = None,
) -> str:
    """Open a ticket.

    Args:
        title: One line.
        body: The details.
        priority: How urgent.
    """
    return title
''',
    '''
@tool(name="search_{n}", requires_approval=False)
def search_docs_{n}(query: str, limit: Annotated[int, Range(1, 100)] = LIMIT, filters: Filters | None = None) -> list[str]:
    """Search the documentation."""
    return []
''',
    '''
@tool
async def place_order_{n}(lines: list[Line], ship_to: Address, ctx: ToolContext) -> dict[str, Quantity]:
    """Place an order for some lines."""
    return {{}}
''',
    '''
@tool
def manage_job_{n}(request: Start | Stop, dry_run: bool = False) -> str:
    """Start or stop a job."""
    return ""
''',
    '''
@tool(naming="camelCase")
def update_customer_{n}(customer_id: Code, customer: Customer, notify: bool = True) -> Customer:
    """Replace a customer's record."""
    return customer
''',
)

HEADER = '''\
"""Generated tools."""

from __future__ import annotations

from typing import Annotated, Optional

from onellm_runtime import Length, Range, ToolContext, tool

from .shared import LIMIT, Address, Code, Customer, Filters, Line, Priority, Quantity, Start, Stop
'''


def generate(directory: Path, modules: int, tools: int, root: Path = ROOT) -> None:
    """The package ``genproj`` and two configs, plain and with the plugin, finding onellm under ``root``."""
    package = directory / "genproj"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "shared.py").write_text(SHARED)
    for m in range(modules):
        body = [HEADER]
        for t in range(tools):
            body.append(TOOL_TEMPLATES[t % len(TOOL_TEMPLATES)].format(n=f"{m}_{t}"))
        (package / f"tools_{m:03d}.py").write_text("".join(body))
    for name, plugins in (("plain.ini", ""), ("plugin.ini", "plugins = onellm_mypy\n")):
        (directory / name).write_text(f"[mypy]\n{plugins}mypy_path = {root}\n")


def byte_compile(tree: Path) -> None:
    """Write the measured packages' bytecode first, as installing them does: with
    ``PYTHONDONTWRITEBYTECODE`` set (some CI images, this VM) every mypy process would
    otherwise compile the plugin's sources again, a cost no installed plugin has."""
    import compileall

    for package in ("onellm_runtime", "onellm_mypy"):
        compileall.compile_dir(str(tree / package), quiet=1)


def _run(args: list[str], cwd: Path) -> float:
    """The CPU time (user + system) one process took: steadier than wall time on a busy machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1) or "INTERNAL ERROR" in done.stdout + done.stderr or "[OLT" in done.stdout:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _mypy_args(directory: Path, config: str) -> list[str]:
    cache = directory / f".cache-{config}"
    return [sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", str(cache), "-p", "genproj"]


def timings(directory: Path, repeat: int) -> dict[str, list[float]]:
    """Every measurement, the kinds interleaved run by run so a busy spell hits them alike."""
    found: dict[str, list[float]] = {}
    for config in ("plain.ini", "plugin.ini"):  # fill each warm cache once
        _run(_mypy_args(directory, config), directory)
    for _ in range(repeat):
        for config in ("plain.ini", "plugin.ini"):
            found.setdefault(f"warm {config}", []).append(_run(_mypy_args(directory, config), directory))
        for config in ("plain.ini", "plugin.ini"):
            cold = directory / f".cold-{config}"
            shutil.rmtree(cold, ignore_errors=True)
            args = _mypy_args(directory, config)
            args[args.index("--cache-dir") + 1] = str(cold)
            found.setdefault(f"cold {config}", []).append(_run(args, directory))
        check = [sys.executable, "-m", "onellm_runtime", "check", "genproj"]
        found.setdefault("check", []).append(_run(check, directory))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=50)
    parser.add_argument("--tools", type=int, default=10, help="tools per module")
    parser.add_argument("--repeat", type=int, default=5)
    ns = parser.parse_args(argv)
    byte_compile(ROOT)
    with tempfile.TemporaryDirectory(prefix="onellm-mypy-bench-") as tmp:
        directory = Path(tmp)
        generate(directory, ns.modules, ns.tools)
        total = ns.modules * ns.tools
        print(
            f"mypy {_mypy_version()} on {total} tools in {ns.modules} modules; "
            f"CPU seconds (user + system), median of {ns.repeat} runs each"
        )
        t = {k: statistics.median(v) for k, v in timings(directory, ns.repeat).items()}
        print(f"{'':14}{'plain mypy':>12}{'with plugin':>13}{'ratio':>8}{'target':>8}")
        for label, target in (("cold", 1.10), ("warm", 1.03)):
            plain, plugin = t[f"{label} plain.ini"], t[f"{label} plugin.ini"]
            print(f"{label:14}{plain:>11.2f}s{plugin:>12.2f}s{plugin / plain:>7.2f}x{target:>7.2f}x")
        plain, check = t["cold plain.ini"], t["check"]
        print(f"{'onellm check':14}{plain:>11.2f}s{check:>12.2f}s{check / plain:>7.2f}x{1.2:>7.2f}x")
    return 0


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


if __name__ == "__main__":
    os.environ.pop("MYPYPATH", None)
    sys.exit(main())
