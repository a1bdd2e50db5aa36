"""A ``typing.TypedDict`` base for ``valid_gen_typeddict_base_doc.py``, from another module
(not a corpus module itself)."""

import typing


class Stamped(typing.TypedDict):
    """Something with a time.

    Attributes:
        stamp: When it happened, as text.
    """

    stamp: str
