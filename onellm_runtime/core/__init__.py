"""The shared core: the neutral model both front ends lower into, and everything decided from it.

Model, rules, schema writer, diagnostics, docstrings, codes, patterns and value formats. It
imports nothing from the front ends (``onellm_runtime.front``, ``onellm_mypy``), the binder,
the invoker or the commands, so both sides describe a tool with the very same code.
"""
