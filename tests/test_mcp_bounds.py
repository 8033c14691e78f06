"""The MCP tools bounded whatever a client sends, side by side, and holding no read between calls.

In process, through the SDK's own client, on a real store (a small JSON lines
history imported and embedded with the real embedder): oversized text, ids
SQLite cannot hold, forged cursors and unknown arguments are refused in one
line before any work; a call held mid-search (a pause hook, not a sleep)
keeps no other call waiting; and after every call no connection holds a read
transaction, so a delete in another process erases at once (checked on the
files' bytes).
"""

from __future__ import annotations

import asyncio
import base64
import json
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest

from .conftest import REPO, run_cli, write_jsonl

mcp = pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402

from rawrag_tui.mcp_pool import Connections  # noqa: E402
from rawrag_tui.mcp_server import MAX_ECHO, MAX_ERROR, MAX_QUERY, build_server  # noqa: E402

CANARY = "Quillfeather-canary-5521"
#: Generous: a refusal is answered at once; this only keeps a broken server from hanging the suite.
PATIENCE_S = 120


def rows() -> list[dict]:
    out = []
    for conv, title, kind, speakers, day in (("c1", "100% done", "dm", ("Maya Lund", "Sam"), "2024-03-02"),
                                              ("c2", "a_b notes", "group", ("Neeraj Kumar", "Sam"), "2025-06-10"),
                                              ("c3", "abcd plain", "channel", ("Sam", "Ola"), "2025-07-01")):
        for i in range(8):
            out.append({"conversation": conv, "title": title, "kind": kind, "id": f"{conv}-{i}",
                        "timestamp": f"{day}T10:{i:02d}:00Z", "speaker": speakers[i % 2],
                        "text": f"{title}: talk {i} about the wedding venue and the lake trip in spring"})
    out[3]["text"] += f" the gate code is {CANARY}"
    return out


@pytest.fixture
def store(tmp_path, open_memory):
    mem = open_memory(tmp_path / "home")
    mem.import_path(write_jsonl(tmp_path / "history.jsonl", rows()))
    return mem


def call(server: Any, *calls: tuple[str, dict]) -> list[Any]:
    async def session() -> list[Any]:
        async with Client(server) as client:
            with anyio.fail_after(PATIENCE_S):
                return [await client.call_tool(name, args) for name, args in calls]

    return asyncio.run(session())


def one_line(result: Any) -> str:
    assert result.is_error, result
    line = result.content[0].text
    assert "\n" not in line and "internal error" not in line and "Traceback" not in line, line
    assert len(line) <= MAX_ERROR + 40, len(line)
    return line


def forged_offset(offset: str) -> str:
    """A cursor as this server encodes one, holding ``offset`` as written (Infinity, NaN, 1e400)."""
    body = '{"t":"get_messages","a":"x","o":' + offset + "}"
    return base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")


def test_what_a_client_sends_is_refused_in_one_line_before_any_work(store):
    server = build_server(store)
    out = call(server,
               ("search", {"query": "x" * 1_000_000}),
               ("search", {"query": "wedding", "afterr": "2024"}),
               ("get_messages", {"message_id": 2**63}),
               ("get_messages", {"conversation_id": -(2**70)}),
               ("get_messages", {"conversation_id": 1, "cursor": forged_offset("Infinity")}),
               ("get_messages", {"conversation_id": 1, "cursor": forged_offset("NaN")}),
               ("get_messages", {"conversation_id": 1, "cursor": forged_offset("1e400")}),
               ("list_conversations", {"title_contains": "%" * 60_000}),
               ("search", {"query": "wedding", "speaker": ["Sam"] * 51}),
               ("ask", {"question": "why? " * 1_000}),
               ("list_conversations", {"after": "2024", "since": "2024"}))
    lines = [one_line(r) for r in out]
    assert lines[0] == f"search: query: 1,000,000 characters; give at most {MAX_QUERY:,}"
    assert lines[1] == ("search: unknown argument 'afterr'; known: query, mode, k, after, before, speaker, source, "
                        "conversation, kind, cursor")
    assert lines[2] == f"get_messages: message_id: {2**63} is out of range"
    assert lines[3].startswith("get_messages: conversation_id: -1180591620717411303424")
    assert lines[4] == lines[5] == lines[6] == (
        "get_messages: cursor: not a cursor this server gave out; drop it to start from the first page")
    assert lines[7] == "list_conversations: title_contains: 60,000 characters; give at most 1,000"
    assert lines[8] == "search: speaker: 51 values; give at most 50"
    assert lines[9] == f"ask: question: 5,000 characters; give at most {MAX_QUERY:,}"
    assert lines[10] == "list_conversations: after/since: give one of the two names, not both"


def test_the_schemas_say_unknown_arguments_are_refused(store):
    async def session() -> dict[str, Any]:
        async with Client(build_server(store)) as client:
            return {t.name: t.input_schema for t in (await client.list_tools()).tools}

    schemas = asyncio.run(session())
    assert all(schema["additionalProperties"] is False for schema in schemas.values()), schemas


def test_results_echo_no_more_than_a_bounded_part_of_the_query(store):
    long_query = "wedding venue " + "lake " * ((MAX_QUERY - 20) // 5)
    (found,) = call(build_server(store), ("search", {"query": long_query, "mode": "lexical", "k": 1}))
    assert not found.is_error, found.content[0].text
    echoed = found.structured_content["query"]
    assert len(echoed) < MAX_ECHO + 40 and echoed.startswith("wedding venue lake")
    assert f"[{len(long_query):,} characters]" in echoed


def test_title_contains_is_taken_literally(store):
    out = call(build_server(store), *(("list_conversations", {"title_contains": t}) for t in ("%", "_", "a_b", "abc")))
    titles = [[c["title"] for c in r.structured_content["conversations"]] for r in out]
    assert titles == [["100% done"], ["a_b notes"], ["a_b notes"], ["abcd plain"]]


def test_list_conversations_takes_the_filters_search_takes(store):
    out = call(build_server(store),
               ("list_conversations", {"after": "2025"}),
               ("list_conversations", {"before": "2024-12"}),
               ("list_conversations", {"speaker": "neeraj"}),
               ("list_conversations", {"speaker": ["maya", "Ola"]}),
               ("list_conversations", {"kind": "channel"}),
               ("list_conversations", {"conversation": "a_b notes"}),
               ("list_conversations", {"source": "history.jsonl", "after": "2025-07"}),
               ("list_conversations", {"since": "2025-06-10", "until": "2025-06-10"}),  # the older names
               ("list_conversations", {"source_id": 1}),
               ("list_conversations", {"speaker": "melany"}))
    titles = [sorted(c["title"] for c in r.structured_content["conversations"]) for r in out[:-1]]
    assert titles == [["a_b notes", "abcd plain"], ["100% done"], ["a_b notes"], ["100% done", "abcd plain"],
                      ["abcd plain"], ["a_b notes"], ["abcd plain"], ["a_b notes"],
                      ["100% done", "a_b notes", "abcd plain"]]
    assert one_line(out[-1]).startswith("list_conversations: no speaker named 'melany'")


def test_status_answers_while_a_search_is_held_and_a_huge_query_is_refused_meanwhile(store, monkeypatch):
    """A pause hook holds one search inside the store; the other calls must not wait for it."""
    from rawrag_tui.memory import Memory

    entered, release = threading.Event(), threading.Event()
    real_search = Memory.search

    def held_search(self, query, **kwargs):
        if query == "the lake trip, held":
            entered.set()
            assert release.wait(PATIENCE_S), "never released"
        return real_search(self, query, **kwargs)

    monkeypatch.setattr(Memory, "search", held_search)
    connections = Connections(store)
    server = build_server(connections)

    async def session() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(server) as client:
            with anyio.fail_after(PATIENCE_S):
                async with anyio.create_task_group() as tasks:
                    async def slow() -> None:
                        out["held"] = await client.call_tool("search", {"query": "the lake trip, held", "k": 2})

                    tasks.start_soon(slow)
                    await anyio.to_thread.run_sync(entered.wait)
                    out["status"] = await client.call_tool("status", {})
                    out["other"] = await client.call_tool("search", {"query": "lake trip", "k": 2})
                    out["huge"] = await client.call_tool("search", {"query": "y" * 1_048_576})
                    out["still_held"] = not release.is_set() and "held" not in out
                    release.set()
        return out

    try:
        out = asyncio.run(session())
    finally:
        release.set()
    assert out["still_held"]  # status, a second search and the refusal all came back while it waited
    assert not out["status"].is_error and out["status"].structured_content["messages"] == 24
    assert not out["other"].is_error and out["other"].structured_content["hits"]
    assert one_line(out["huge"]) == f"search: query: 1,048,576 characters; give at most {MAX_QUERY:,}"
    assert not out["held"].is_error and out["held"].structured_content["hits"]
    assert len(connections.all()) >= 2  # the held search kept its own connection
    connections.close()


def test_no_connection_holds_a_read_transaction_between_calls(store):
    connections = Connections(store)
    server = build_server(connections)
    calls = [("search", {"query": "lake trip", "k": 3}), ("search", {"query": "wedding", "mode": "lexical"}),
             ("search", {"query": "wedding", "speaker": "sam", "after": "2025"}),
             ("get_messages", {"conversation_id": 1, "before": 1}), ("get_messages", {"message_id": 3}),
             ("get_messages", {"external_id": "nope"}), ("list_sources", {}),
             ("list_conversations", {"title_contains": "a"}), ("list_conversations", {"speaker": "maya"}),
             ("status", {})]

    async def session() -> list[tuple[str, list[int]]]:
        states = []
        async with Client(server) as client:
            with anyio.fail_after(PATIENCE_S):
                for name, args in calls:
                    await client.call_tool(name, args)
                    states.append((name, [m.store.conn.txn_state("main") for m in connections.all()]))
        return states

    states = asyncio.run(session())
    assert all(set(held) == {0} for _, held in states), states  # 0: SQLITE_TXN_NONE
    unfinished = store.store.conn.cursor().execute("SELECT id FROM messages")
    next(unfinished)
    assert store.store.conn.txn_state("main") == 1  # the probe sees a read left open
    unfinished.close()
    connections.close()


def test_a_delete_in_another_process_erases_while_the_mcp_server_stays_open(tmp_path, store):
    """After searches and reads through a running `rawrag mcp`, `rawrag delete` erases at once."""
    home = store.settings.home
    cid = next(c["id"] for c in store.conversations() if c["title"] == "100% done")
    store.close()
    params = StdioServerParameters(command=sys.executable, cwd=str(REPO),
                                   args=["-m", "rawrag_tui.cli", "--home", str(home), "mcp"])

    def store_bytes() -> bytes:
        return b"".join(p.read_bytes() for p in sorted(Path(home).iterdir()) if p.name.startswith("rawrag.db"))

    async def session() -> tuple[Any, ...]:
        async with Client(params) as client:
            with anyio.fail_after(PATIENCE_S):
                found = await client.call_tool("search", {"query": "gate code", "k": 2})
                read = await client.call_tool("get_messages", {"conversation_id": cid})
                await client.call_tool("list_conversations", {"speaker": "maya"})
                before = store_bytes()
                deleted = await anyio.to_thread.run_sync(
                    lambda: run_cli("delete", "--conversation", str(cid), "--yes", home=home))
                after = store_bytes()
                listed = await client.call_tool("list_conversations", {})
                return found, read, before, deleted, after, listed

    found, read, before, (code, out, err), after, listed = asyncio.run(session())
    assert not found.is_error and CANARY in json.dumps(found.structured_content)
    assert not read.is_error
    assert CANARY.encode() in before  # the check below can fail
    assert code == 0 and out.startswith(f"deleted conversation {cid}"), err
    assert "has the store open" not in err, err
    assert CANARY.encode() not in after
    assert "100% done" not in json.dumps(listed.structured_content)


def test_connections_keep_the_first_for_questions_and_open_no_more_than_allowed(store):
    connections = Connections(store, most=2)
    got: list[Any] = []
    entered = threading.Event()

    def third_call() -> None:
        with connections.use() as memory:
            got.append(memory)
            entered.set()

    with connections.use() as call:
        assert call is not store  # a sibling: the first stays free for a question
        with connections.use(first=True) as question:
            assert question is store
            waiting = threading.Thread(target=third_call)
            waiting.start()
        assert entered.wait(PATIENCE_S)  # it had the first once the question gave it back
    waiting.join(PATIENCE_S)
    assert got == [store] and connections.all() == [store, call]  # never a third connection
    assert call.store.conn is not store.store.conn and call.embedder is store.embedder  # own connection, shared model
    connections.close()


def test_status_answers_while_an_import_is_held(store, tmp_path, monkeypatch):
    """The issue's case: `status` during an import (held by a pause hook inside Memory.import_path)."""
    from rawrag_tui.memory import Memory

    entered, release = threading.Event(), threading.Event()
    real_import = Memory.import_path

    def held_import(self, path, *args, **kwargs):
        entered.set()
        assert release.wait(PATIENCE_S), "never released"
        return real_import(self, path, *args, **kwargs)

    monkeypatch.setattr(Memory, "import_path", held_import)
    more = write_jsonl(tmp_path / "more.jsonl", [{"conversation": "c9", "id": "c9-1", "speaker": "Ola",
                                                  "timestamp": "2025-08-01T09:00:00Z", "text": "a new harbour"}])
    server = build_server(store, allow_write=True)

    async def session() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(server) as client:
            with anyio.fail_after(PATIENCE_S):
                async with anyio.create_task_group() as tasks:
                    async def slow() -> None:
                        out["import"] = await client.call_tool("import", {"path": str(more)})

                    tasks.start_soon(slow)
                    await anyio.to_thread.run_sync(entered.wait)
                    out["status"] = await client.call_tool("status", {})
                    out["sources"] = await client.call_tool("list_sources", {})
                    out["still_held"] = "import" not in out
                    release.set()
                out["after"] = await client.call_tool("status", {})
        return out

    try:
        out = asyncio.run(session())
    finally:
        release.set()
    assert out["still_held"] and out["status"].structured_content["messages"] == 24
    assert len(out["sources"].structured_content["sources"]) == 1
    assert not out["import"].is_error and out["import"].structured_content["messages_added"] == 1
    assert out["after"].structured_content["messages"] == 25
