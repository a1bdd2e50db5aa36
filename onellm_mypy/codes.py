"""The OLT codes as mypy error codes, registered when the plugin is loaded.

mypy checks ``disable_error_code`` right after loading plugins, so the codes must exist
by then; this module is kept free of ``onellm_runtime`` imports so that loading the plugin
costs almost nothing on a warm cache (where no hook runs). The meanings are the
contract's Diagnostics table, as ``onellm_runtime.diagnostics.CODES`` words them
(``tests/test_mypy_plugin.py`` keeps the two equal).
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode

__all__ = ["ERROR_CODES", "MEANINGS"]

MEANINGS: dict[str, str] = {
    "OLT001": "@tool must decorate a function directly",
    "OLT002": "A parameter type has no schema",
    "OLT003": "The return type is not supported",
    "OLT004": "The function is generic",
    "OLT005": "A class used as a record is not a dataclass, NamedTuple or TypedDict",
    "OLT006": "A type refers to itself",
    "OLT007": "Two tools in one class have the same name",
    "OLT008": "The tool name is not 1-64 letters, digits, '_' or '-'",
    "OLT009": "More than one ToolContext or CancellationToken parameter",
    "OLT010": "The containing class is generic",
    "OLT011": "naming is something other than 'camelCase' or None",
    "OLT012": "A union of records has no usable discriminator",
    "OLT013": "An annotation does not fit its type",
    "OLT014": "A default value that would be written cannot be read from the source",
    "OLT015": "A parameter is named 'invocationMode' on a tool whose invocation_mode is 'model_choice'",
}

#: One mypy error code per OLT code, in the category "onellm".
ERROR_CODES: dict[str, ErrorCode] = {code: ErrorCode(code, meaning, "onellm") for code, meaning in MEANINGS.items()}
