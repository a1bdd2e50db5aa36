"""Types named through a dotted module path (``collections.abc.Sequence``), with string annotations.

Minimised from the generated differential: under ``from __future__ import annotations`` the
static side looked ``abc`` up as a name in ``collections`` instead of as its submodule, and
reported OLT002/OLT003 "cannot be resolved" where the runtime was right.
"""

from __future__ import annotations

import collections.abc

from onellm_runtime import tool


@tool
def count_items(items: collections.abc.Sequence[int]) -> int:
    """Count the items."""
    return len(items)


@tool
async def total_async(values: collections.abc.Set[int]) -> collections.abc.Awaitable[int]:
    """Add up distinct values."""
    raise NotImplementedError
