"""Aliases for ``valid_gen_literal_order.py``, imported from another module (not a corpus module itself).

The values are written in the order opposite to the first use of the same set in that module.
"""

from typing import List, Optional

from typing_extensions import Literal, TypeAlias

Direction: TypeAlias = Optional[Literal["desc", "asc"]]
Steps = List[Literal[3, 2, 1]]
