"""onellm's benchmarks, measured side by side with the Python peers.

Run ``python benchmarks/run.py`` (or ``--smoke`` for tiny counts); see ``README.md`` here.
"""
