"""No face keeps a read transaction open between calls.

The app and an MCP server keep their connections open for hours. A read
left open between calls (an unfinished cursor, a BEGIN never ended) pins
the WAL snapshot: a delete in another process then cannot copy its rebuilt
pages over the old ones, and the deleted text stays in the file. Every
facade call the app and the MCP server make is run here, and SQLite itself
says after each one whether this connection still holds a read.
"""

from __future__ import annotations

import contextlib

import pytest

from rawrag_tui.errors import UserError
from rawrag_tui.search.types import Filters
from rawrag_tui.tui.service import MemoryGate

from .conftest import write_jsonl

NONE = 0  # SQLITE_TXN_NONE


@pytest.fixture
def memory(tmp_path, open_memory):
    mem = open_memory()
    rows = [{"conversation": f"c{c}", "title": f"chat {c}", "id": f"c{c}-{i}", "speaker": ("Ana", "Bo")[i % 2],
             "timestamp": f"2025-0{c + 1}-0{i % 9 + 1}T10:00:00Z", "text": f"message {i} about the harbour {c}"}
            for c in range(3) for i in range(12)]
    mem.import_path(write_jsonl(tmp_path / "h.jsonl", rows))
    return mem


def test_every_read_the_app_and_mcp_make_ends_its_transaction(memory):
    gate = MemoryGate(memory)
    filters = Filters(after="2025-02", speakers=("ana",))
    calls = {
        "status": gate.status, "sources": gate.sources, "conversations": gate.conversations,
        "conversation": lambda: gate.conversation(1), "messages": lambda: gate.messages(1),
        "search hybrid": lambda: gate.search("harbour"),
        "search lexical": lambda: gate.search("harbour", mode="lexical"),
        "search dense": lambda: gate.search("harbour", mode="dense"),
        "search filtered": lambda: memory.search("harbour", filters=filters),
        "conversations filtered": lambda: memory.conversations(filters=filters),
        "conversations titled": lambda: memory.conversations(text_filter="chat_%"),
        "page of messages": lambda: memory.messages(1, 3, 4), "counts": memory.counts,
        "locate": lambda: memory.locate_message(external_id="c1-3"), "show": lambda: memory.show("1", "c1-3", 2),
        "export": lambda: memory.export("jsonl", conversation="1"),
        "unknown speaker": lambda: memory.search("harbour", filters=Filters(speakers=("zed",))),
        "missing message": lambda: memory.locate_message(message_id=10**9),
    }
    held = {}
    for name, call in calls.items():
        with contextlib.suppress(UserError):  # a failure shown as one line must end its read too
            call()
        held[name] = memory.store.conn.txn_state("main")
    assert held == dict.fromkeys(calls, NONE)
    unfinished = memory.store.conn.cursor().execute("SELECT id FROM messages")
    next(unfinished)
    assert memory.store.conn.txn_state("main") != NONE  # the probe sees a read left open
    unfinished.close()
