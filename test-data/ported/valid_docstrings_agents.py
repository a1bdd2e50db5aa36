"""Docstrings written the way openai-agents, pydantic-ai and LangChain tools write them.

Habits followed: Google ``Args:`` with typed entries and ``Returns:``/``Raises:``/``Examples:``
sections after them; sections indented deeper than the summary; ``Keyword Args:`` and text after
the last section; NumPy ``Parameters`` with ``Returns`` and ``Notes``; Sphinx ``:param:`` fields
with ``:returns:`` and ``:rtype:``; ``@tool(description=...)`` over a docstring whose entries are
still read. Only the decorator is onellm's. Annotations are evaluated eagerly (no ``from
__future__ import annotations``).
"""

from onellm_runtime import tool


# openai-agents: typed Google entries, then Returns and Raises.
@tool
def get_order_status(order_id: str, include_items: bool = False) -> str:
    """Look up the status of an order.

    Args:
        order_id (str): The order number, e.g. ``A-1001``.
        include_items (bool): Whether to list the ordered items too.

    Returns:
        str: A short status line.

    Raises:
        KeyError: When no such order exists.
    """
    return order_id


# pydantic-ai: Examples after the entries.
@tool
def roll(sides: int = 6, times: int = 1) -> str:
    """Roll dice and return the faces.

    Args:
        sides: Faces on each die.
        times: How many dice to roll.

    Examples:
        roll(6, 2) gives two faces between 1 and 6.
    """
    return str(sides * times)


# pydantic-ai: the sections indented deeper than the summary, an upper-case heading.
@tool
def convert_amount(amount: float, currency: str) -> str:
    """Convert an amount of euros into another currency.

    Uses the rates published each morning.

        ARGS:
            amount: The amount in euros.
            currency: The ISO code of the target currency.

        Note:
            Rates are one day old.
    """
    return currency


# LangChain: Args and Keyword Args, then a closing paragraph.
@tool
def send_message(channel: str, text: str, urgent: bool = False) -> str:
    """Post a message to a chat channel.

    Args:
        channel: The channel name, without the leading #.
        text: The message text.

    Keyword Args:
        urgent: Notify everyone in the channel.

    Only channels the bot has joined can be used; ask a person to
    invite it first.
    """
    return channel


# A data-science tool: NumPy sections.
@tool
def trimmed_mean(values: list[float], trim: float = 0.0) -> float:
    """Compute the trimmed mean of some values.

    Parameters
    ----------
    values : list of float
        The values to average.
        Must not be empty.
    trim : float, optional
        Share of the values cut at each end.

    Returns
    -------
    float
        The mean.

    Notes
    -----
    Uses the midpoint for an even count.
    """
    return sum(values) / len(values)


# LangChain: Sphinx fields.
@tool
def search_wiki(query: str, lang: str = "en") -> str:
    """Search the wiki and return the best page's summary.

    :param query: Words to search for.
    :param str lang: Language edition, as a two-letter code,
        such as ``de``.
    :returns: The page summary, or an empty string.
    :rtype: str
    """
    return query


# openai-agents: description_override's place taken by @tool(description=); the entries still read.
@tool(description="Translate a text into another language.")
def translate_text(text: str, target: str) -> str:
    """Translate with the configured engine.

    Args:
        text: The text to translate.
        target: The target language code, such as ``fr``.
    """
    return text
