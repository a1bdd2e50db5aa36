"""What the mypy plugin costs: mypy on a generated project of tools, with and without it.

Generates a package of ``--modules`` modules with ``--tools`` tools each (default 50 x 10 =
500 tools) into a temporary directory: records, enums and ``Annotated`` aliases in a shared
module, tools with docstrings, defaults and nested records in the others. Then times
``python -m mypy`` on it, in a fresh process each run:

- cold: an empty cache directory every run;
- warm: the cache filled by a first run, nothing changed since;
- ``onellm check`` (the static extractor, no cache) against cold plain mypy.

Each figure is the median of ``--repeat`` runs; the printed ratios are plugin / plain
(targets: 1.10x cold, 1.02x warm; ``onellm check`` 1.2x). Run from anywhere::

    python benchmarks/mypy_overhead.py [--modules 50] [--tools 10] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
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


def generate(directory: Path, modules: int, tools: int) -> None:
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
        (directory / name).write_text(f"[mypy]\n{plugins}mypy_path = {ROOT}\n")


def _run(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1) or "INTERNAL ERROR" in done.stdout + done.stderr:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return elapsed


def mypy_time(directory: Path, config: str, warm: bool, repeat: int) -> float:
    cache = directory / f".cache-{config}"
    args = [sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", str(cache), "-p", "genproj"]
    times: list[float] = []
    if warm:
        shutil.rmtree(cache, ignore_errors=True)
        _run(args, directory)  # fill the cache
    for _ in range(repeat):
        if not warm:
            shutil.rmtree(cache, ignore_errors=True)
        times.append(_run(args, directory))
    return statistics.median(times)


def check_time(directory: Path, repeat: int) -> float:
    args = [sys.executable, "-m", "onellm_runtime", "check", "genproj"]
    return statistics.median(_run(args, directory) for _ in range(repeat))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=50)
    parser.add_argument("--tools", type=int, default=10, help="tools per module")
    parser.add_argument("--repeat", type=int, default=5)
    ns = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="onellm-mypy-bench-") as tmp:
        directory = Path(tmp)
        generate(directory, ns.modules, ns.tools)
        total = ns.modules * ns.tools
        print(f"mypy {_mypy_version()} on {total} tools in {ns.modules} modules; median of {ns.repeat} runs each")
        rows = []
        for label, warm in (("cold", False), ("warm", True)):
            plain = mypy_time(directory, "plain.ini", warm, ns.repeat)
            plugin = mypy_time(directory, "plugin.ini", warm, ns.repeat)
            target = 1.10 if not warm else 1.02
            rows.append((label, plain, plugin, plugin / plain, target))
        plain_cold = rows[0][1]
        check = check_time(directory, ns.repeat)
        print(f"{'':14}{'plain mypy':>12}{'with plugin':>13}{'ratio':>8}{'target':>8}")
        for label, plain, plugin, ratio, target in rows:
            print(f"{label:14}{plain:>11.2f}s{plugin:>12.2f}s{ratio:>7.2f}x{target:>7.2f}x")
        print(f"{'onellm check':14}{plain_cold:>11.2f}s{check:>12.2f}s{check / plain_cold:>7.2f}x{1.2:>7.2f}x")
    return 0


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


if __name__ == "__main__":
    os.environ.pop("MYPYPATH", None)
    sys.exit(main())
