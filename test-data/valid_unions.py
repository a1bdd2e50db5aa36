"""Discriminated record unions: implicit and explicit discriminators, nullable, nested, renamed.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

from dataclasses import dataclass
from typing import Annotated, Literal, NamedTuple, Optional, Union

from typing_extensions import TypedDict

from onellm_runtime import Description, Discriminator, JsonName, tool


@dataclass
class Start:
    """Start a job.

    Attributes:
        action: Never written: a discriminator property is only its tag.
        job: The job to start.
    """

    action: Literal["start"]
    job: str


@dataclass
class Stop:
    action: Literal["stop"]
    job: str
    force: bool = False


@dataclass
class Status:
    action: Literal["status"] = "status"
    verbose: bool = False


class ReadCmd(TypedDict):
    kind: Literal["read"]
    op: Literal["r"]
    path: str


class WriteCmd(TypedDict):
    kind: Literal["write"]
    op: Literal["w"]
    path: str
    text: str


class Circle(NamedTuple):
    shape: Literal["circle"]
    radius: float


class Square(NamedTuple):
    shape: Literal["square"]
    side: float


@dataclass
class RenameOp:
    op_kind: Literal["rename"]
    old_name: str
    new_name: str


@dataclass
class DeleteOp:
    op_kind: Literal["delete"]
    old_name: str


@dataclass
class Tagged:
    tag: Annotated[Literal["a"], JsonName("type")]
    value: int


@dataclass
class Other:
    tag: Annotated[Literal["b"], JsonName("type")]
    label: str


@dataclass
class Job:
    name: str
    step: Union[Start, Stop]


@tool
def manage_job(request: Start | Stop | Status) -> str:
    """An implicit discriminator; a tag's default is never written."""
    return ""


@tool
def files(command: Annotated[ReadCmd | WriteCmd, Discriminator("kind")]) -> str:
    """Two fields could be the tag; Discriminator names one."""
    return ""


@tool
def maybe_job(
    a: Start | Stop | None,
    b: Optional[Annotated[Start | Stop, Discriminator("action")]],
    c: Annotated[Start | Stop | None, Discriminator("action"), Description("Or nothing.")],
) -> str:
    """A nullable union gains a last null branch."""
    return ""


@tool
def shapes(items: list[Circle | Square], first: Annotated[Circle | Square, Description("The first one.")]) -> str:
    """NamedTuple members, a union inside a list, a described union."""
    return ""


@tool(naming="camelCase")
def batch(ops: list[RenameOp | DeleteOp]) -> str:
    """camelCase renames the discriminator's property too."""
    return ""


@tool
def renamed_tag(item: Tagged | Other) -> str:
    """JsonName on the discriminator field renames its property."""
    return ""


@tool
def run(job: Job) -> Start | Stop:
    """A union as a record field and as the return type."""
    return job.step
