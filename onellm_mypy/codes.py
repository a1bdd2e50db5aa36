"""The OLT codes as mypy error codes, registered when the plugin is loaded.

mypy checks ``disable_error_code`` right after loading plugins, so the codes must exist
by then. Loading the plugin should cost almost nothing on a warm cache (where no hook
runs), so the meanings come from ``onellm_runtime.core.codes``, a leaf module, not from the
checker that reports them.
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode

from onellm_runtime.core.codes import CODES

__all__ = ["ERROR_CODES", "MEANINGS", "UNCHECKED"]

#: Each code's meaning, from the shared core (the contract's Diagnostics table).
MEANINGS: dict[str, str] = CODES

#: One mypy error code per OLT code, in the category "onellm".
ERROR_CODES: dict[str, ErrorCode] = {code: ErrorCode(code, meaning, "onellm") for code, meaning in MEANINGS.items()}

#: The note at a tool the plugin could not read (so none of its checks ran); a note, not an
#: error, since nothing is known to be wrong. ``disable_error_code = onellm-unchecked`` hides it.
UNCHECKED = ErrorCode("onellm-unchecked", "A tool could not be read, so it was not checked", "onellm")
