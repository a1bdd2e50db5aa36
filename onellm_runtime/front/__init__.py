"""The runtime front end: Python functions and ``typing`` objects, lowered into the core's model.

The static front end, its mirror, is ``onellm_mypy``; the two never import each other.
"""
