"""Tool modules the static and the runtime front ends must lower into identical models.

Run by tests/test_mypy_schemas.py: every tool here is valid; both sides' models, and the
schemas written from them, must be equal. They stress what mypy's types hide (metadata
in aliases and records of another module, defaults read through names, docstrings).
"""
