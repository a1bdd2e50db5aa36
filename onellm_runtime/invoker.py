"""Placeholder: the invoker (issue 3) replaces this module."""


class ToolInvoker:
    pass
