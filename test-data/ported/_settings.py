"""Constants the ported modules import: the "imported constant" row of the contract's
"Values in markers, defaults, options and enum members". Not a corpus module (no tools).
"""

SERVICE = "Northwind Travel"
DEFAULT_TZ = "UTC"
MAX_RESULTS = 50
