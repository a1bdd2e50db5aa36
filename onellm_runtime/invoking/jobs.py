"""Background jobs: calls a model asked to run with ``"invocationMode": "background"``.

A tool declared with ``invocation_mode="model_choice"`` lets the model choose, per call,
to wait for the result or to leave the work running (HPD's note "Framework Invocation
Mode Is Separate"). The invoker binds the arguments first (bad arguments stay an
immediate error result), then hands the call to its ``JobRegistry`` (``invoker.jobs``),
which runs it as an asyncio task the invoker owns and answers at once with the handle
``{"job": "job-1", "status": "running"}``.

Lifecycle. A job is ``running`` until its task ends, then exactly one of:
``completed`` (the tool returned; its result is not an error), ``failed`` (the tool
raised, its result could not be converted, or it returned an error ``ToolResult``),
``timed_out`` (the tool's ``timeout_seconds`` passed on the job's clock), or
``stopped`` (``stop`` was asked, or the invoker shut down). Each job keeps the
``ToolContext`` it was started with: its own cost lines, clock and
``CancellationToken``; stopping sets that token, as a timeout does. Its final
``ToolResult`` follows the invoker's errors-become-results rules, so it is exactly what
the model would have got by waiting (a stop adds ``Tool 'x' was stopped.``).

Retention (so memory does not grow without end). Running jobs are always kept. A
finished job is kept until its result has been read once (``read``), then forgotten.
Unread results are bounded twice: at most ``max_finished`` of them are kept (the
oldest-finished is dropped first), and one is dropped once ``max_age`` seconds have
passed since it finished, measured on the job's own clock (its context's clock, else the
event loop's). A read result is forgotten at once; the count is enforced whenever a job
finishes; age is applied at the next start, read, stop or listing of the registry.

Each of those costs O(1), amortised, whatever the number of jobs: the unread results are
kept in the order they finished, so the count and the age are checked at the oldest end
only (each job is dropped once), and a running job is never looked at. (With jobs on
clocks of their own, a result that expired behind one that did not is dropped when it is
looked up, or at the next listing, which walks every job anyway.)

Shutdown (``await invoker.aclose()``, or leaving ``async with ToolInvoker()``) refuses
new jobs, stops every running one and awaits every task the jobs created, so no asyncio
task outlives it. A sync tool's worker thread cannot be interrupted: its token is set
and a thread that honours it ends by itself; one that ignores it is abandoned (the
contract's rule for timeouts), never joined.
"""

from __future__ import annotations

import asyncio
import math
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from ..annotations import Description
from ..context import CancellationToken, CostLine, ToolContext
from ..errortext import describe
from ..results import JsonPart, ToolResult

if TYPE_CHECKING:
    from ..tool import Tool
    from .invoker import ToolInvoker

__all__ = ["Job", "JobRegistry", "JobStatus", "job_tools"]

JobStatus = Literal["running", "completed", "failed", "stopped", "timed_out"]

#: What the registry runs for a job: the invoker's call, told which job it serves.
JobRunner = Callable[["Job"], Awaitable[ToolResult]]


def _copy(result: ToolResult) -> ToolResult:
    """A result the reader may change without changing the job's own."""
    return replace(result, parts=list(result.parts), costs=list(result.costs))


def _unknown(job_id: str) -> ToolResult:
    """The answer for an id this registry does not hold; the id is echoed as the binder quotes values (cut short)."""
    from ..binding import excerpt

    return ToolResult.failure(
        f"Unknown job {excerpt(job_id)}. A finished job is forgotten once its result has been read, "
        "and an unread result expires."
    )


class Job:
    """One background call. Made by ``JobRegistry.start``; read it through ``invoker.jobs``.

    ``status`` and ``result`` are settled from the task the moment it is seen to have
    ended, so they never lag behind the work.
    """

    def __init__(
        self,
        job_id: str,
        tool: Tool[..., Any],
        context: ToolContext,
        runner: JobRunner,
        on_finished: Callable[[Job], None],
        on_delivered: Callable[[Job], None] | None = None,
    ) -> None:
        loop = asyncio.get_running_loop()
        self.id = job_id
        self.tool: Tool[..., Any] = tool
        self.tool_name: str = tool.name
        self.context: ToolContext = context
        #: The tool's timeout in seconds (0 = none), measured on the job's clock.
        self.timeout_seconds: float = tool.timeout_seconds
        clock = context.clock
        self._now: Callable[[], float] = clock.monotonic if clock is not None else loop.time
        self.started_at: float = self._now()
        self.finished_at: float | None = None
        #: True once the final result has been handed out by ``read``.
        self.delivered: bool = False
        self._status: JobStatus = "running"
        self._result: ToolResult | None = None
        self._timed_out = False
        self._stop_reason: str | None = None
        self._on_finished = on_finished
        self._on_delivered = on_delivered
        #: Tasks the invoker made for this job (the tool's call, its timer), awaited at stop.
        self._spawned: set[asyncio.Future[Any]] = set()
        self._task: asyncio.Task[ToolResult] = loop.create_task(self._body(runner), name=f"onellm-{job_id}")
        self._task.add_done_callback(self._ended)

    def __repr__(self) -> str:
        return f"Job(id={self.id!r}, tool={self.tool_name!r}, status={self.status!r})"

    async def _body(self, runner: JobRunner) -> ToolResult:
        return await runner(self)

    def _ended(self, _task: asyncio.Future[ToolResult]) -> None:
        self._settle()
        self._on_finished(self)

    # -- what the invoker reports while running the job ---------------------------------------

    def adopt(self, task: asyncio.Future[Any]) -> None:
        """Record a task the invoker made for this job, so stopping awaits its end too."""
        if not task.done():
            self._spawned.add(task)
            task.add_done_callback(self._spawned.discard)

    def timed_out(self) -> None:
        """Called by the invoker when the tool's timeout passed (the result is its failure)."""
        self._timed_out = True

    # -- state --------------------------------------------------------------------------------

    @property
    def status(self) -> JobStatus:
        self._settle()
        return self._status

    @property
    def done(self) -> bool:
        return self.status != "running"

    @property
    def result(self) -> ToolResult | None:
        """The final result once the job has finished (None while running); reading it is not ``read``."""
        self._settle()
        return self._result

    @property
    def cancellation(self) -> CancellationToken:
        return self.context.cancellation

    @property
    def costs(self) -> list[CostLine]:
        """The cost lines so far (while running), or the final result's."""
        result = self.result
        return list(result.costs if result is not None else self.context.costs)

    def age(self) -> float:
        """Seconds since the job finished (0 while it runs), on the job's clock."""
        return 0.0 if self.finished_at is None else self._now() - self.finished_at

    def handle(self) -> ToolResult:
        """``{"job": id, "status": ...}`` as a JSON part: what a background call answers."""
        return ToolResult([JsonPart({"job": self.id, "status": self.status})])

    def _settle(self) -> None:
        task = self._task
        if self._result is not None or not task.done():
            return
        costs = list(self.context.costs)
        status: JobStatus
        if self._stop_reason is not None or task.cancelled():
            self.context.cancellation.cancel()  # also when the loop cancelled the task before it ran
            reason = f": {self._stop_reason}" if self._stop_reason else ""
            result = ToolResult.failure(f"Tool '{self.tool_name}' was stopped{reason}.", costs)
            status = "stopped"
        else:
            error = task.exception()
            if error is not None:  # the invoker turns failures into results; kept for safety
                original: BaseException = getattr(error, "original", error)
                result = ToolResult.failure(f"Tool '{self.tool_name}' failed: {describe(original)}", costs)
                status = "failed"
            else:
                result = task.result()
                status = "timed_out" if self._timed_out else "failed" if result.is_error else "completed"
        self._result, self._status, self.finished_at = result, status, self._now()

    # -- reading and stopping -------------------------------------------------------------------

    def read(self) -> ToolResult:
        """The handle while running; once finished, the final result (the job is then forgotten)."""
        result = self.result
        if result is None:
            return self.handle()
        if not self.delivered:
            self.delivered = True
            if self._on_delivered is not None:
                self._on_delivered(self)
        return _copy(result)

    async def wait(self) -> ToolResult:
        """Wait until the job has finished; its final result (this does not count as ``read``)."""
        if not self._task.done():
            await asyncio.wait((self._task,))
        result = self.result
        assert result is not None
        return _copy(result)

    async def stop(self, reason: str = "") -> ToolResult:
        """Stop the job if it still runs; answer its handle (``"stopped"``, or the status it reached).

        Sets the job's token, cancels its task and awaits the end of every task the job
        made. A sync tool's thread is not waited for: it sees the token, or is abandoned.
        """
        if not self._task.done():
            self._stop_reason = reason
            self.context.cancellation.cancel()
            self._task.cancel()
            await asyncio.wait((self._task,))
        pending = [t for t in self._spawned if not t.done()]
        if pending:
            await asyncio.wait(pending)
        return self.handle()


class JobRegistry(Mapping[str, Job]):
    """The jobs of one invoker, by id, in start order: ``invoker.jobs`` (see the module docstring).

    ``max_finished``: how many unread finished results are kept (an int, 0 or more);
    ``max_age``: seconds an unread result is kept after its job finished (0 or more;
    None or ``math.inf``: no age limit). Anything else is refused at once.
    """

    def __init__(self, *, max_finished: int = 100, max_age: float | None = 3600.0) -> None:
        given_count = cast(object, max_finished)
        given_age = cast(object, max_age)
        if isinstance(given_count, bool) or not isinstance(given_count, int):
            raise TypeError(f"max_finished must be an int, not {type(given_count).__name__}")
        if max_finished < 0:
            raise ValueError(f"max_finished must be 0 or more, not {max_finished!r}")
        if given_age is not None:
            if isinstance(given_age, bool) or not isinstance(given_age, (int, float)):
                raise TypeError(f"max_age must be None or a number of seconds, not {type(given_age).__name__}")
            if not given_age >= 0:  # NaN too
                raise ValueError(f"max_age must be None or 0 or more, not {given_age!r}")
        self.max_finished = max_finished
        self.max_age = max_age
        self._jobs: dict[str, Job] = {}
        #: The finished jobs whose result has not been read, oldest-finished first.
        self._unread: OrderedDict[str, Job] = OrderedDict()
        self._count = 0
        self._closed = False

    # -- Mapping ---------------------------------------------------------------------------------

    def __getitem__(self, job_id: str) -> Job:
        return self._jobs[job_id]

    def __iter__(self) -> Iterator[str]:
        self._expire_all()
        return iter(list(self._jobs))

    def __len__(self) -> int:
        self._expire_all()
        return len(self._jobs)

    # -- lifecycle -------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def start(self, tool: Tool[..., Any], context: ToolContext, runner: JobRunner) -> Job:
        """Run ``runner`` as a new job now (on the running loop); the invoker calls this."""
        if self._closed:
            raise RuntimeError("the job registry is closed: its invoker has been shut down")
        self._expire()
        self._count += 1
        job = Job(f"job-{self._count}", tool, context, runner, self._finished, self._forget)
        self._jobs[job.id] = job
        return job

    def read(self, job_id: str) -> ToolResult:
        """What ``read_job`` answers: the job's handle or final result; unknown id: an error result."""
        self._expire()
        job = self._lookup(job_id)
        if job is None:
            return _unknown(job_id)
        return job.read()

    async def stop(self, job_id: str) -> ToolResult:
        """What ``stop_job`` answers: the job's handle after stopping it; unknown id: an error result."""
        self._expire()
        job = self._lookup(job_id)
        if job is None:
            return _unknown(job_id)
        return await job.stop()

    async def aclose(self) -> None:
        """Refuse new jobs, stop the running ones, and await every task any job made."""
        self._closed = True
        jobs = list(self._jobs.values())
        if jobs:
            await asyncio.gather(*(job.stop("the invoker was shut down") for job in jobs))

    # -- retention (each step O(1), amortised) ---------------------------------------------------

    def _lookup(self, job_id: object) -> Job | None:
        """The job, unless it is unknown or its unread result has expired (then it is dropped)."""
        job = self._jobs.get(job_id) if isinstance(job_id, str) else None
        if job is not None and job.id in self._unread and self._expired(job):
            self._forget(job)
            return None
        return job

    def _expired(self, job: Job) -> bool:
        return self.max_age is not None and job.age() >= self.max_age

    def _finished(self, job: Job) -> None:
        """A job's task ended: keep its result unread, within ``max_finished``."""
        if job.delivered or self._jobs.get(job.id) is not job:
            return
        self._unread[job.id] = job
        while len(self._unread) > self.max_finished:
            _, oldest = self._unread.popitem(last=False)
            self._jobs.pop(oldest.id, None)

    def _forget(self, job: Job) -> None:
        """Drop a job whose result was read (or expired)."""
        if self._jobs.get(job.id) is job:
            del self._jobs[job.id]
        self._unread.pop(job.id, None)

    def _expire(self) -> None:
        """Drop the expired results at the oldest end (they finished first)."""
        if self.max_age is None or self.max_age == math.inf:
            return
        unread = self._unread
        while unread:
            oldest = next(iter(unread.values()))
            if not self._expired(oldest):
                return
            self._forget(oldest)

    def _expire_all(self) -> None:
        """Drop every expired result (a listing walks every job anyway)."""
        self._expire()
        if self.max_age is not None and self.max_age != math.inf:
            for job in [j for j in self._unread.values() if self._expired(j)]:
                self._forget(job)


def job_tools(
    invoker: ToolInvoker,
) -> tuple[Tool[[str], Coroutine[Any, Any, ToolResult]], Tool[[str], Coroutine[Any, Any, ToolResult]]]:
    """``read_job, stop_job``: two ordinary tools that let the model use ``invoker``'s jobs.

    Each takes ``{"job": "<id>"}``; an unknown id is an error result. Offer them beside
    the ``model_choice`` tools: ``tools = [*my_tools, *job_tools(invoker)]``.
    """
    from ..tool import Tool

    registry = invoker.jobs

    async def read_job(job: Annotated[str, Description("The job id a background call returned.")]) -> ToolResult:
        return registry.read(job)

    async def stop_job(job: Annotated[str, Description("The job id a background call returned.")]) -> ToolResult:
        return await registry.stop(job)

    read = Tool.create(
        read_job,
        name="read_job",
        description=(
            'Read a background job (a call made with "invocationMode": "background"). While it runs: '
            '{"job": id, "status": "running"}. Once it has finished: the tool\'s own result, given once.'
        ),
    )
    stop = Tool.create(
        stop_job,
        name="stop_job",
        description=(
            "Stop a running background job. Answers its status; read_job then gives its result, "
            "which says it was stopped."
        ),
    )
    return read, stop
