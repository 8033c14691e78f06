"""The MCP server's connections: each tool call in flight holds a Memory of its own.

An apsw connection serves one call at a time, and the SDK runs each tool on a
worker thread, so with one connection a slow call (an import, a question to
the reader) made every other call wait, ``status`` included. Here a call
takes an idle Memory, or opens a sibling of the first one (its own SQLite
connection, the same models), up to a few; more calls than that wait for one
to come back. ``ask`` always takes the first Memory: the reader, a model in
its own process, is started once and answers one question at a time.

A Memory that is idle holds no read transaction: every store read runs to its
end before the call returns, so a delete in another process can erase at
once (tests/test_mcp_bounds.py checks it on the file's bytes).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from .memory import Memory

#: The most Memories (SQLite connections) one server opens; a further call waits for one to be free.
MOST = 4


class Connections:
    def __init__(self, first: Memory, most: int = MOST):
        self.first = first
        self.most = max(1, most)
        self._idle: list[Memory] = [first]
        self._siblings: list[Memory] = []
        self._opening = 0
        self._changed = threading.Condition()
        self._held = threading.local()

    @contextlib.contextmanager
    def use(self, *, first: bool = False) -> Iterator[Memory]:
        """A Memory for this thread's call (``first``: the one that owns the reader), given back after."""
        memory = self._take(first)
        self._held.memory = memory
        try:
            yield memory
        finally:
            self._held.memory = None
            with self._changed:
                self._idle.append(memory)
                self._changed.notify_all()

    def _take(self, first: bool) -> Memory:
        with self._changed:
            while True:
                if first and self.first in self._idle:
                    self._idle.remove(self.first)
                    return self.first
                if not first:
                    # the first is kept for questions while a sibling, idle or new, can serve this call
                    siblings = [m for m in self._idle if m is not self.first]
                    if siblings:
                        self._idle.remove(siblings[-1])
                        return siblings[-1]
                    if 1 + len(self._siblings) + self._opening < self.most:
                        self._opening += 1
                        break
                    if self.first in self._idle:
                        self._idle.remove(self.first)
                        return self.first
                self._changed.wait()
        try:
            sibling = self.first.sibling()  # outside the lock: opening a connection takes a moment
        except BaseException:
            with self._changed:
                self._opening -= 1
                self._changed.notify_all()
            raise
        with self._changed:
            self._opening -= 1
            self._siblings.append(sibling)
        return sibling

    def held(self) -> Memory:
        """The Memory the calling thread's tool call holds."""
        memory = getattr(self._held, "memory", None)
        if memory is None:
            raise RuntimeError("no tool call holds a memory on this thread")
        return memory

    def all(self) -> list[Memory]:
        """Every Memory opened so far (the first, then its siblings)."""
        with self._changed:
            return [self.first, *self._siblings]

    def close(self) -> None:
        """Close the siblings (the first belongs to whoever opened it)."""
        with self._changed:
            siblings, self._siblings = self._siblings, []
        for memory in siblings:
            memory.close()


class HeldMemory:
    """Stands for the Memory the current tool call holds, so the tool bodies read as plain Memory calls."""

    def __init__(self, connections: Connections):
        self._connections = connections

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connections.held(), name)
