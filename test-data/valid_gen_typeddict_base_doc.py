"""A field described in a ``typing.TypedDict`` base's docstring, read through a subclass.

The case: on Python 3.10 and 3.11 a subclass of a
``typing.TypedDict`` keeps no trace of its bases (no ``__orig_bases__``, ``__bases__`` is
``(dict,)``), so a runtime reading only the class would miss the base's docstring, which mypy reads. The bases are
named here directly, through a grandparent, and through another module (``tb.Stamped``).
(One base each: with two, mypy orders the keys from the last base first, the runtime from
the first; see docs/generated-differential.md.)
Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

import typing

import _typeddict_bases as tb
from onellm_runtime import tool


class Named(typing.TypedDict):
    """Something with a name.

    Attributes:
        name: What it is called.
    """

    name: str


class Tagged(Named):
    tag: str


class Labelled(Tagged):
    """A label.

    Attributes:
        text: The label's text.
    """

    text: str


class Event(tb.Stamped):
    what: str


@tool
def tag_item(item: Tagged) -> None:
    """Tag an item."""


@tool
def label_item(label: Labelled) -> None:
    """Label an item."""


@tool
def log_event(event: Event) -> None:
    """Log an event."""
