"""The app with a reader server: the Status screen finds servers on loopback
and names the reader in use; an answer says where it was read; a server
that fails is one line and the app answers again once it is back (a
stand-in server on 127.0.0.1; the real server's run is in
test_reader_endpoint_server.py)."""

from __future__ import annotations

import dataclasses

from tests.reader_endpoint_support import MODEL, StandIn
from tests.test_mcp import export, store_home  # noqa: F401
from tests.tui_fixtures import app_for, filled, open_ask, run_async, tui_template, until  # noqa: F401

SIZE = (100, 30)


def read_with(mem, endpoint: str) -> None:
    mem.settings = dataclasses.replace(mem.settings, reader=dataclasses.replace(
        mem.settings.reader, endpoint=endpoint, model=MODEL))


@run_async
async def test_status_lists_loopback_servers_and_the_reader_in_use(filled, monkeypatch):
    import rawrag_tui.models.endpoint as endpoint

    with StandIn() as server:
        monkeypatch.setattr(endpoint, "KNOWN_SERVERS", {"ollama": ("Ollama", server.port)})
        mem = filled
        read_with(mem, server.endpoint)
        app = app_for(mem)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("s")
            await until(pilot, lambda: "Reader servers" in getattr(app.screen, "rows", {}), timeout=60)
            rows = app.screen.rows
    assert rows["Read by"] == f"{MODEL} at {server.endpoint}"
    assert rows["Reader"] == "available (loads on the first question)"
    assert f"Ollama at {server.endpoint}: {MODEL}" in rows["Reader servers"]
    assert f"rawrag reader use ollama:{MODEL}" in rows["Reader servers"]


@run_async
async def test_ask_says_where_it_was_read_and_survives_a_failing_server(filled):
    with StandIn() as server:
        mem = filled
        read_with(mem, server.endpoint)
        app = app_for(mem)
        async with app.run_test(size=SIZE) as pilot:
            screen, ask = await open_ask(app, pilot)

            shown = lambda: str(screen.query_one("#answer").render())  # noqa: E731
            await ask("What must Ben renew?")
            await until(pilot, lambda: screen.answer is not None, timeout=60)
            assert screen.answer.answer == "Jordan lives in Lisbon."
            title = str(screen.query_one("#citations-title").render())
            assert f"read by {MODEL} at {server.endpoint}" in title

            for status in (500, 401, 429):
                server.mode, server.body = status, {"error": {"message": "stand-in failure"}}
                await ask("When does Ben travel?")
                await until(pilot, lambda: server.endpoint in shown() and not app.gate.busy, timeout=60)
                assert screen.answer is None and "\n" not in shown().strip()

            server.mode = "ok"
            await ask("What must Ben renew?")
            await until(pilot, lambda: screen.answer is not None, timeout=60)
            assert screen.answer.answer == "Jordan lives in Lisbon."


def test_mcp_ask_says_where_it_was_read(store_home):
    """The MCP face: `ask` reads with the server the environment names and says so in `reader`."""
    import asyncio
    import os

    from mcp import Client

    from tests.test_mcp import stdio

    with StandIn() as server:
        params = stdio(store_home)
        params.env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""),
                      "RAWRAG_READER_ENDPOINT": server.endpoint, "RAWRAG_READER_MODEL": MODEL}

        async def session():
            async with Client(params) as client:
                return await client.call_tool("ask", {"question": "What did Melanie paint?", "date": "2023-06-01"})

        result = asyncio.run(session())
    body = result.structured_content
    assert not result.is_error and body["answer"] == "Jordan lives in Lisbon."
    assert body["reader"] == {"backend": "openai-compatible", "model": MODEL, "endpoint": server.endpoint}


def test_eval_locomo_reader_reads_with_the_chosen_server(tmp_path, home):
    """`rawrag eval locomo --reader`: its stores (folders of their own) read with the
    reader the user chose in their home (`rawrag reader use`), here a stand-in server."""
    from rawrag_tui import toolkit
    from rawrag_tui.eval import locomo, runner
    from rawrag_tui.eval.compare import Setting
    from tests.eval_fixtures import write_locomo

    fixture = write_locomo(tmp_path / "locomo-fixture.json")
    with StandIn() as server:
        toolkit.reader_use(server.endpoint, MODEL)  # the default home: RAWRAG_HOME, this test's own
        result = runner.run("locomo", str(fixture), locomo.load(fixture), [Setting("lexical", 1, 128)],
                            primary="evidence", root=tmp_path / "stores", reader=True)
    answered = [o for o in result.outcomes[0] if o.answer and o.answer != "Not in your history."]
    assert answered and all(o.answer == "Jordan lives in Lisbon." for o in answered)
    assert {r["model"] for r in server.requests} == {MODEL}
