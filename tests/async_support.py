"""Helpers for the async tests of the invoker and the jobs: a fake clock, and bounded waits."""

from __future__ import annotations

import asyncio
import threading
from typing import Awaitable, Callable, TypeVar

T = TypeVar("T")
WAIT = 10.0  # seconds: a bound on waits for worker threads, never reached when things work


def run(scenario: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(scenario())  # type: ignore[arg-type]


class FakeClock:
    """A clock whose time moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.now + seconds, future))
        await future

    async def until_sleeping(self) -> None:
        while not any(not f.done() for _, f in self.sleepers):
            await asyncio.sleep(0)

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        for deadline, future in self.sleepers:
            if deadline <= self.now and not future.done():
                future.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)


async def in_thread(event: threading.Event) -> bool:
    """Wait for a threading.Event without blocking the loop (bounded)."""
    return await asyncio.get_running_loop().run_in_executor(None, event.wait, WAIT)
