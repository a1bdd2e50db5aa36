"""The tool part of the contract: names, descriptions from the three docstring styles, metadata.

Annotations here are evaluated eagerly (no ``from __future__ import annotations``).
"""

from typing import Annotated

from typing_extensions import Doc

from onellm_runtime import Description, tool


@tool
async def get_docket_async(case_id: str) -> str:
    """Fetch a docket by its case id."""
    return case_id


class Dockets:
    # Its name is get_docket's too: a method, so not one of the module's tools (OLT007).
    @tool
    def GetDocketAsync(self, case_id: str) -> str:
        return case_id


@tool
def HTTPRequest(url: str) -> str:
    """Send one HTTP request."""
    return url


@tool
def fetchURL(url: str) -> str:
    """Fetch a URL."""
    return url


@tool(name="lookup-case_2")
def find_case(query: str) -> str:
    """Find a case."""
    return query


@tool
def search_google(query: str, limit: int) -> str:
    """Search the archive.

    Results come back newest first,
    one per line.

    Args:
        query: The words to look for;
            several words are all required.
        limit (int): How many results to return.

    Returns:
        The results as text.
    """
    return query


@tool
def search_numpy(query: str, limit: int) -> str:
    """Search the archive, NumPy style.

    Parameters
    ----------
    query : str
        The words to look for.
    limit : int
        How many results
        to return.

    Returns
    -------
    str
        The results.
    """
    return query


@tool
def search_sphinx(query: str, limit: int) -> str:
    """Search with :class:`~archive.Index` and ``limit`` results.

    :param query: The words to look for.
    :param int limit: How many results to return.
    :returns: The results.
    """
    return query


@tool(description="Explicit description wins.")
def described(query: str) -> str:
    """The docstring summary loses.

    Args:
        query: From the docstring.
    """
    return query


@tool
def precedence(
    a: Annotated[str, Description("From Description.")],
    b: Annotated[str, Doc("From Doc.")],
    c: Annotated[str, Doc("Doc loses."), Description("Description wins over Doc.")],
    d: str,
    e: str,
) -> str:
    """Descriptions: Description, Doc, then the docstring.

    Args:
        a: Docstring loses to Description.
        b: Docstring loses to Doc.
        c: Docstring loses to both.
        d: Only the docstring.
    """
    return a


@tool
def undocumented(x: int) -> str:
    return str(x)


@tool(ends_loop=True, requires_approval=True, parallel_safe=False, timeout_seconds=5)
def finish(answer: str) -> int:
    """Give the final answer."""
    return len(answer)


@tool(timeout_seconds=2.5, parallel_safe=True)
def slow(x: int) -> str:
    """Take a while."""
    return str(x)


@tool(invocation_mode="model_choice")
def long_job(path: str, depth: int = 1) -> str:
    """Walk a tree; the model may run it in the background."""
    return path
