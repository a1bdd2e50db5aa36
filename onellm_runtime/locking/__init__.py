"""Tool sets under review: the lock file, the schema differ, token estimates, refusal cases.

Everything here reads schemas as JSON (the manifest's entries), never a live tool, so the
static manifest (``onellm lock``), the runtime one (``--runtime``) and ``onellm_runtime.testing``
go through the same code. See docs/ci.md and docs/testing.md.
"""
