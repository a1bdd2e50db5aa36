"""Whether a ``requires_approval`` tool may run, for one MCP call.

With ``serve_mcp(..., approve=callback)`` the callback decides, and its answer is held to
``True`` or ``False`` exactly: any other answer, or an exception, refuses that call alone
with a message naming what happened. Without a callback the client is asked through MCP
elicitation (a form with no fields, whose message names the tool and its arguments) when it
declared that capability; accepting runs the call. A decline, a cancel, a client without
the capability, or a question that cannot be sent refuses it with ``Tool 'x' requires
approval.``
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from ..errortext import cut, describe

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext

    from ..providers import Approver, DispatchedCall

__all__ = ["approver_refusal", "asked_client", "question"]


def _shown(answer: object) -> str:
    try:
        return cut(repr(answer))
    except Exception:  # a repr that raises: the type names it
        return f"a {type(answer).__name__}"


async def approver_refusal(approve: Approver, call: DispatchedCall) -> str | None:
    """None when ``approve`` answered exactly True; else the error text for this call."""
    try:
        answer: object = approve(call)
        if inspect.isawaitable(answer):
            answer = await answer
    except Exception as e:
        return f"Tool '{call.name}' was not approved: the approver raised {describe(e)}."
    if answer is True:
        return None
    if answer is False:
        return f"Tool '{call.name}' requires approval."
    return f"Tool '{call.name}' was not approved: the approver answered {_shown(answer)}, not True or False."


def question(name: str, arguments: str) -> str:
    """The elicitation message: the tool and its arguments as the client sent them."""
    return f"Allow the tool '{name}' to run with these arguments?\n{cut(arguments)}"


async def asked_client(ctx: ServerRequestContext[Any, Any], name: str, arguments: str) -> bool:
    """Ask the client through elicitation; True only when it accepted."""
    from mcp_types import ClientCapabilities, ElicitationCapability

    session = ctx.session
    if not session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability())):
        return False
    try:
        answer = await session.elicit_form(
            question(name, arguments), {"type": "object", "properties": {}}, related_request_id=ctx.request_id
        )
    except Exception:  # no channel back to the client, or the client answered with an error
        return False
    return answer.action == "accept"
