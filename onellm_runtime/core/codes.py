"""The OLT codes and their meanings (the contract's Diagnostics table).

A leaf module of its own: the mypy plugin registers the codes when mypy loads it, on every
run, a warm one too (where no hook runs), so it reads them from here without loading the
checker (``diagnostics.py``) and the model behind it.
"""

from __future__ import annotations

__all__ = ["CODES"]

CODES: dict[str, str] = {
    "OLT001": "@tool must decorate a function directly",
    "OLT002": "A parameter type has no schema",
    "OLT003": "The return type is not supported",
    "OLT004": "The function is generic",
    "OLT005": "A class used as a record is not a dataclass, NamedTuple, TypedDict or pydantic BaseModel",
    "OLT006": "A type refers to itself",
    "OLT007": "Two tools in one class, one module, or one tool set have the same name",
    "OLT008": "The tool name is not 1-64 letters, digits, '_' or '-'",
    "OLT009": "More than one ToolContext or CancellationToken parameter",
    "OLT010": "The containing class is generic",
    "OLT011": "naming is something other than 'camelCase' or None",
    "OLT012": "A union of records has no usable discriminator",
    "OLT013": "An annotation does not fit its type",
    "OLT014": "A value that would be written cannot be computed from the source",
    "OLT015": "A parameter is named 'invocationMode' on a tool whose invocation_mode is 'model_choice'",
}
