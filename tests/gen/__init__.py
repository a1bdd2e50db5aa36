"""Generated tool modules and the harness that runs both front ends over them.

``generator`` writes random but well-formed tool modules from the contract's type grammar,
each tool with the verdict the contract gives it; ``harness`` imports them (runtime), reads
them through mypy (static), binds argument documents, and reports every disagreement.
"""
