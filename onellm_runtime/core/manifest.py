"""A tool's manifest entry (``onellm schemas``, ``onellm lock``), written from its model alone.

Both front ends' models go through this one function, so on the same code the static and the
runtime manifests are the same bytes.
"""

from __future__ import annotations

from typing import Any

from . import rules, schema
from .model import ToolModel
from .options import MANIFEST_OPTIONS

__all__ = ["ManifestEntry", "entry"]

ManifestEntry = dict[str, Any]


def entry(module: str, qualname: str, model: ToolModel) -> ManifestEntry:
    """The contract's manifest entry for one (checked) tool: its options last, those
    ``ToolOptions`` marks for the manifest, in field order."""
    return {
        "module": module,
        "qualname": qualname,
        "name": rules.tool_name(model),
        "description": rules.tool_description(model),
        "input_schema": schema.input_schema(model),
        "output_schema": schema.output_schema(model),
        **{option: getattr(model.options, option) for option in MANIFEST_OPTIONS},
    }
