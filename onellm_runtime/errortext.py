"""How an exception is worded in an error result: ``ValueError: message``, bounded and always a string.

The exception is the tool's (or a record constructor's): its ``__str__`` is user code, so
it may raise, return something that is not a string, or return a megabyte. None of that may
escape the invoker or grow a result without bound.
"""

from __future__ import annotations

__all__ = ["MESSAGE_LIMIT", "cut", "describe", "install_hint"]

#: The longest exception text an error result repeats, in characters (the last one is ``…``).
MESSAGE_LIMIT = 2000


def cut(text: str) -> str:
    """``text`` if it has at most ``MESSAGE_LIMIT`` characters, else its start ending ``…``.

    Lone surrogates are written as ``\\udXXX`` escapes, so the result can always be encoded.
    """
    if len(text) > MESSAGE_LIMIT:
        text = text[: MESSAGE_LIMIT - 1] + "…"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = text.encode("utf-8", "backslashreplace").decode("utf-8")
            if len(text) > MESSAGE_LIMIT:  # the escapes made it longer
                text = text[: MESSAGE_LIMIT - 1] + "…"
    return text


def _text_of(error: BaseException) -> str | None:
    """``str(error)`` as a plain ``str``; None when it raises or is not a string."""
    try:
        text = str(error)  # raises TypeError when __str__ returns something else than a str
    except BaseException:  # user code: whatever it raises, the type alone describes the error
        return None
    return str.__str__(text)  # a str subclass as a plain str: no more user code


def describe(error: BaseException) -> str:
    """``TypeName: message`` (the message cut by ``cut``), or ``TypeName`` when there is no usable message.

    A ``RuntimeError`` that Python made from a ``StopIteration`` leaving a coroutine
    (PEP 479) is described as the ``StopIteration`` the tool raised.
    """
    cause = error.__cause__
    if type(error) is RuntimeError and isinstance(cause, StopIteration):
        if _text_of(error) == "coroutine raised StopIteration":
            error = cause
    name = type(error).__name__
    text = _text_of(error)
    return f"{name}: {cut(text)}" if text else name


def install_hint(extra: str) -> str:
    """How a message says to install one of onellm's extras: from a clone of the repository,
    which works today, and by the distribution's name once it is on the package index."""
    return f"pip install -e '.[{extra}]' in a clone of onellm (once published: pip install 'onellm-tools[{extra}]')"
