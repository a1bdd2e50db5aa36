"""Constants that ``valid_interop_computed.py`` imports: values computed in another module."""

from typing import Final

SERVICE: Final = "weather"
MAX_DAYS = 7 * 2
UNIT = "cel" + "sius"
