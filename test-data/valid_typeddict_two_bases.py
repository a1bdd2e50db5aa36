"""A TypedDict with two TypedDict bases: its keys are the first base's, then the second's, then
its own ("bases first", in the order Python merges them). mypy lists the later base's keys
first; the plugin reorders them as the runtime sees them.
"""

from typing_extensions import NotRequired, TypedDict

from onellm_runtime import tool


class Sender(TypedDict):
    sender: str
    reply_to: NotRequired[str]


class Recipient(TypedDict):
    recipient: str


class Envelope(Sender, Recipient):
    subject: str


class Registered(Envelope):
    tracking: int


@tool
def post(letter: Registered) -> str:
    """Post a registered letter."""
    return letter["subject"]
