"""The ``onellm`` commands (``check``, ``schemas``, ``lsp``, ``serve-mcp``) and the manifest they print.

The only part of the runtime package that imports the static side (``onellm_mypy``); nothing
imports it but the ``onellm`` entry point and ``python -m onellm_runtime``.
"""
