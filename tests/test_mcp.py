"""`rawrag mcp` driven by the MCP SDK's own clients, over stdio and over HTTP.

The server is the real command in a subprocess, on a real store holding the
first four sessions of the LoCoMo dev conversation (the whole one takes four
times as long to embed and adds nothing these tests look at).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import LOCOMO, REPO

mcp = pytest.importorskip("mcp")
import httpx2  # noqa: E402  (the SDK's HTTP client)
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from rawrag_tui import toolkit  # noqa: E402

pytestmark = pytest.mark.skipif(not LOCOMO.exists(), reason="the LoCoMo dev conversation is not in shared/data")

READ_TOOLS = {"search", "get_messages", "list_sources", "list_conversations", "ask", "status"}


def locomo_slice(path: Path, sessions: int = 4) -> Path:
    sample = json.loads(LOCOMO.read_text(encoding="utf-8"))[0]
    conv = sample["conversation"]
    keep = {k: v for k, v in conv.items() if not k.startswith("session_")}
    for n in range(1, sessions + 1):
        keep[f"session_{n}"] = conv[f"session_{n}"]
        keep[f"session_{n}_date_time"] = conv[f"session_{n}_date_time"]
    path.write_text(json.dumps([{**sample, "conversation": keep}]), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    return locomo_slice(tmp_path_factory.mktemp("export") / "locomo-4-sessions.json")


@pytest.fixture(scope="module")
def store_home(tmp_path_factory, export, embedder) -> Path:
    from rawrag_tui.memory import Memory

    home = tmp_path_factory.mktemp("mcp") / "home"
    with Memory.open(home, embedder=embedder) as mem:
        mem.import_path(export)
    return home


def stdio(home: Path, *flags: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, cwd=str(REPO),
                                 args=["-m", "rawrag_tui.cli", "--home", str(home), "mcp", *flags])



def text(result) -> str:
    return result.content[0].text


async def _read_only_session(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == READ_TOOLS
    assert all(len(t.description) > 80 for t in tools.values())  # written for a model choosing a tool
    assert tools["search"].annotations.read_only_hint is True

    found = await client.call_tool("search", {"query": "the lake sunrise Melanie painted", "k": 5})
    assert not found.is_error, text(found)
    hits = found.structured_content["hits"]
    messages = {m["external_id"]: m for h in hits for m in h["messages"]}
    assert "D1:14" in messages
    painted = messages["D1:14"]
    assert painted["speaker"] == "Melanie"
    assert painted["conversation"] == "Caroline & Melanie (conv-26)"
    assert painted["timestamp"].startswith("2023-05-08")
    assert "lake sunrise" in painted["text"]

    around = await client.call_tool("get_messages", {"message_id": painted["message_id"], "before": 2, "after": 2})
    assert not around.is_error, text(around)
    body = around.structured_content
    assert [m["external_id"] for m in body["messages"]] == ["D1:12", "D1:13", "D1:14", "D1:15", "D1:16"]
    assert body["around"]["external_id"] == "D1:14" and body["more"] is False
    by_export_id = await client.call_tool("get_messages", {"external_id": "D1:14", "before": 2, "after": 2})
    assert by_export_id.structured_content["messages"] == body["messages"]

    refused = await client.call_tool("import", {"path": str(LOCOMO)})
    assert refused.is_error
    assert "read-only" in text(refused) and "--allow-write" in text(refused)
    assert "\n" not in text(refused)


def test_stdio_search_finds_a_locomo_turn_and_reads_around_it(store_home):
    async def session() -> None:
        async with Client(stdio(store_home)) as client:
            await _read_only_session(client)

    asyncio.run(session())


def test_stdio_results_are_bounded_and_paged(store_home):

    async def session() -> tuple[list[dict], int, list[str]]:
        async with Client(stdio(store_home, "--max-tokens", "500")) as client:
            pages, collected, cursor = [], [], None
            while True:
                args = {"conversation_id": 1, **({"cursor": cursor} if cursor else {})}
                result = await client.call_tool("get_messages", args)
                assert not result.is_error, text(result)
                pages.append(text(result))
                collected += result.structured_content["messages"]
                cursor = result.structured_content["cursor"]
                if not result.structured_content["more"]:
                    return collected, result.structured_content["total"], pages
                assert cursor

    messages, total, pages = asyncio.run(session())
    assert len(pages) > 3
    assert all(toolkit.count_tokens(p) <= 500 for p in pages)
    assert len(messages) == total
    assert [m["seq"] for m in messages] == list(range(total))


def test_stdio_errors_are_one_line(store_home):
    async def session() -> list[str]:
        async with Client(stdio(store_home)) as client:
            calls = [
                ("search", {"query": "painting", "after": "2023-13-01"}),
                ("search", {"query": "painting", "k": "many"}),
                ("search", {"query": "   "}),
                ("get_messages", {"external_id": "D99:1"}),
                ("get_messages", {"conversation_id": 1, "cursor": "not-a-cursor"}),
                ("list_conversations", {"source_id": 42}),
                ("no_such_tool", {}),
            ]
            out = []
            for name, args in calls:
                result = await client.call_tool(name, args)
                assert result.is_error, (name, args)
                out.append(text(result))
            return out

    lines = asyncio.run(session())
    assert all("\n" not in line and "Traceback" not in line for line in lines), lines
    assert lines[0] == ("search: after: '2023-13-01' is not a date "
                        "(give 2016, 2016-03, 2016-03-14, or 30d / 6w / 6m / 2y for that long ago)")
    assert lines[1].startswith("search: bad arguments: k:")
    assert lines[3] == "get_messages: no message with external id 'D99:1'"


def test_stdio_filters(store_home):
    async def session() -> tuple[Any, ...]:
        async with Client(stdio(store_home)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            for name in ("search", "ask"):
                assert {"after", "before", "speaker", "source", "conversation", "kind"} <= set(
                    tools[name].input_schema["properties"]), name
            late = await client.call_tool("search", {"query": "painting", "after": "2023-06", "k": 5})
            mel = await client.call_tool("search", {"query": "painting", "speaker": "melanie", "k": 5,
                                                    "after": "2023-05-08", "before": "2023-07"})
            none = await client.call_tool("search", {"query": "painting", "conversation": 999})
            one = await client.call_tool("search", {"query": "painting", "conversation": 1, "k": 3})
            typo = await client.call_tool("search", {"query": "painting", "speaker": "melany"})
            empty = await client.call_tool("search", {"query": "painting", "after": "2030"})
            assert not one.is_error, text(one)
            assert [h["conversation_id"] for h in one.structured_content["hits"]] == [1, 1, 1]
            convs = await client.call_tool("list_conversations", {"until": "2023-01-01"})
            return late, mel, none, typo, empty, convs

    late, mel, none, typo, empty, convs = asyncio.run(session())
    assert not late.is_error and not convs.is_error and not mel.is_error, (text(late), text(mel), text(convs))
    days = [m["timestamp"][:10] for h in late.structured_content["hits"] for m in h["messages"]]
    assert days and min(days) >= "2023-06-01"  # a hit shows only the messages that pass
    shown = [m for h in mel.structured_content["hits"] for m in h["messages"]]
    assert shown and all("2023-05-08" <= m["timestamp"][:10] <= "2023-07-31" for m in shown)
    assert all(any(m["speaker"] == "Melanie" for m in h["messages"]) for h in mel.structured_content["hits"])
    assert none.is_error and text(none) == "search: no conversation with id 999"
    assert typo.is_error and text(typo) == "search: no speaker named 'melany'; near: Melanie"
    assert not empty.is_error and empty.structured_content["hits"] == []
    assert empty.structured_content["summary"] == "no message passes the filters (after 2030-01-01)"
    assert convs.structured_content["conversations"] == []


def test_allow_write_imports_and_deletes_only_by_id_and_title(tmp_path, export):
    home = tmp_path / "writable"

    async def session() -> dict[str, Any]:
        async with Client(stdio(home, "--allow-write")) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == READ_TOOLS | {"import", "delete"}
            imported = await client.call_tool("import", {"path": str(export)})
            assert not imported.is_error, text(imported)
            wrong = await client.call_tool("delete", {"kind": "conversation", "id": 1, "title": "Caroline"})
            still = await client.call_tool("status", {})
            right = await client.call_tool("delete", {"kind": "conversation", "id": 1,
                                                      "title": "Caroline & Melanie (conv-26)"})
            after = await client.call_tool("status", {})
            return {"imported": imported.structured_content, "wrong": wrong, "still": still.structured_content,
                    "right": right.structured_content, "after": after.structured_content}

    out = asyncio.run(session())
    assert out["imported"]["format"] == "locomo" and out["imported"]["messages_added"] > 50
    assert out["wrong"].is_error and "nothing deleted" in text(out["wrong"])
    assert out["still"]["messages"] == out["imported"]["messages_added"]
    assert out["right"]["deleted"] == {"kind": "conversation", "id": 1, "title": "Caroline & Melanie (conv-26)"}
    assert out["after"]["messages"] == 0 and out["after"]["allow_write"] is True


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening_addresses(port: int) -> set[str]:
    """Local addresses listening on ``port`` (Linux /proc), e.g. {"127.0.0.1"}."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            addr, hexport = local.split(":")
            if state == "0A" and int(hexport, 16) == port:  # 0A: LISTEN
                found.add(socket.inet_ntoa(bytes.fromhex(addr)[::-1]) if len(addr) == 8 else addr)
    return found


def test_http_on_loopback_only(store_home):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "rawrag_tui.cli", "--home", str(store_home), "mcp", "--http",
                             "--port", str(port)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()[1].decode()
                assert time.monotonic() < deadline, "the HTTP server did not start"
                time.sleep(0.2)  # polling interval for a condition (the port answers), not a wait for speed
        if Path("/proc/net/tcp").exists():
            assert _listening_addresses(port) == {"127.0.0.1"}

        token = (store_home / "mcp-token").read_text().strip()  # made by the server on its first start

        async def session() -> None:
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"},
                                          timeout=httpx2.Timeout(30, read=300)) as http, \
                    Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http)) as client:
                await _read_only_session(client)

        asyncio.run(session())
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert b"Traceback" not in err, err.decode()


def test_bad_flags_are_one_line(store_home):
    from .conftest import run_cli

    code, _, err = run_cli("mcp", "--max-tokens", "10", home=store_home)
    assert code == 1 and err.strip() == "rawrag: error: --max-tokens 10: give at least 500"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = run_cli("mcp", "--http", "--port", str(port), home=store_home)
    assert code == 1 and err.startswith(f"rawrag: error: --port {port}: cannot listen on 127.0.0.1:{port}: ")
    assert err.count("\n") == 1


@pytest.mark.reader
@pytest.mark.slow  # ~35 s on the busy 2-core VM: the reader's process start and prompt
def test_stdio_ask_answers_with_cited_messages(store_home):
    from rawrag_tui.models.gguf import TEST_READER, part_paths

    from .conftest import reader_installed

    if not reader_installed(TEST_READER):
        pytest.skip("llama-cpp-python or the SmolLM2 test reader is not installed")
    (gguf,) = part_paths(TEST_READER)
    params = stdio(store_home)
    params.env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""),
                  "RAWRAG_MODELS_READER_MODEL": str(gguf),
                  # a short prompt and answer: this checks the tool, not the reader (tests/test_reader_*)
                  "RAWRAG_READER_EVIDENCE_TOKENS": "256", "RAWRAG_READER_ANSWER_TOKENS": "16"}

    async def session() -> Any:
        async with Client(params) as client:
            return await client.call_tool("ask", {"question": "What did Melanie paint?", "date": "2023-06-01"})

    result = asyncio.run(session())
    assert not result.is_error, text(result)
    body = result.structured_content
    assert body["question"] == "What did Melanie paint?" and isinstance(body["answer"], str) and body["answer"]
    assert body["evidence_tokens"] > 0
    for citation in body["citations"]:
        assert citation["external_id"].startswith("D") and citation["speaker"] in ("Caroline", "Melanie")
