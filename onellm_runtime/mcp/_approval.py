"""Whether a ``requires_approval`` tool may run, for one MCP call.

With ``serve_mcp(..., approve=callback)`` the callback decides, and its answer is held to
``True`` or ``False`` exactly: any other answer, or an exception, refuses that call alone
with a message naming what happened. Without a callback the client is asked through MCP
elicitation (a form with no fields, whose message names the tool and its arguments) when it
declared that capability (see ``client_decision``); accepting runs the call. A decline, a cancel, a client without
the capability, or a question that cannot be sent refuses it with ``Tool 'x' requires
approval.``
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from ..errortext import cut

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from mcp_types import CallToolRequestParams, InputRequiredResult

    from ..providers import Approver, DispatchedCall

__all__ = ["QUESTION_KEY", "approver_refusal", "client_decision", "question"]


async def approver_refusal(approve: Approver, call: DispatchedCall) -> str | None:
    """None when ``approve`` answered exactly True; else the error text for this call (the
    answer held to True/False by ``dispatch``'s own rule, so both surfaces word it alike)."""
    from ..providers._dispatch import ask_approver

    answer = await ask_approver(approve, call)
    if answer is True:
        return None
    if answer is False:
        return f"Tool '{call.name}' requires approval."
    return answer.error


def question(name: str, arguments: str) -> str:
    """The elicitation message: the tool and its arguments as the client sent them."""
    return f"Allow the tool '{name}' to run with these arguments?\n{cut(arguments)}"


#: The key of the approval question in an ``InputRequiredResult`` (protocol 2026-07-28 on).
QUESTION_KEY = "onellm/approval"


def _state(name: str, arguments: str) -> str:
    """What the retried call must echo: the approval answers the question for these arguments only."""
    return hashlib.sha256(json.dumps([name, arguments]).encode("utf-8", "backslashreplace")).hexdigest()


async def client_decision(
    ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams, name: str, arguments: str
) -> bool | InputRequiredResult:
    """Ask the client through elicitation: True only when it accepted.

    Up to protocol 2025-11-25 the question is a request of its own on the session's back
    channel. From 2026-07-28 on, the call is answered with an ``InputRequiredResult``
    holding the question, and the client retries it with the answer and the echoed state;
    an answer whose state is not that of this tool and these arguments is asked again.
    """
    from mcp_types import (
        ClientCapabilities,
        ElicitationCapability,
        ElicitRequest,
        ElicitRequestFormParams,
        ElicitResult,
        InputRequiredResult,
    )
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    session = ctx.session
    if not session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability())):
        return False
    asked = question(name, arguments)
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        state = _state(name, arguments)
        answer = (params.input_responses or {}).get(QUESTION_KEY)
        if isinstance(answer, ElicitResult) and params.request_state == state:
            return answer.action == "accept"
        form = ElicitRequestFormParams(message=asked, requested_schema={"type": "object", "properties": {}})
        return InputRequiredResult(input_requests={QUESTION_KEY: ElicitRequest(params=form)}, request_state=state)
    try:
        reply = await session.elicit_form(
            asked, {"type": "object", "properties": {}}, related_request_id=ctx.request_id
        )
    except Exception:  # no channel back to the client, or the client answered with an error
        return False
    return reply.action == "accept"
