"""`rawrag sync` on a fake HOME with real-shaped Claude Code and Codex session trees.

The sessions are written from the formats' documentation (tests/sync_support.py):
the real importers, the real store, the real CLI where the exit code matters.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest

from .conftest import run_cli
from .sync_support import ClaudeSession, fake_home


@pytest.fixture
def tree(tmp_path, monkeypatch):
    made = fake_home(tmp_path)
    monkeypatch.setenv("HOME", str(made["home"]))
    for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(key, raising=False)
    return made


def texts(mem) -> list[tuple[str, str]]:
    rows = mem.store.conn.cursor().execute(
        "SELECT c.external_id, m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id"
        " ORDER BY c.external_id, m.seq")
    return list(rows)


def test_first_sync_imports_all_and_a_second_adds_nothing(tree, open_memory):
    mem = open_memory()
    first = mem.syncing().run(embed=False)
    assert first.ok and first.added == tree["messages"] == 20
    # 3 Claude Code sessions, the subagent file left out, 2 Codex rollouts (one archived)
    assert first.files_seen == 5 and first.files_read == 5
    assert {s["kind"] for s in first.sources} == {"claude_code", "codex"}
    assert mem.counts()["conversations"] == 5
    second = mem.syncing().run(embed=False)
    assert second.ok and second.added == 0 and second.files_read == 0 and second.files_seen == 5
    assert mem.status()["last_sync"]["added"] == 0
    assert mem.status()["last_sync"]["files_seen"] == 5


def test_appending_three_lines_adds_exactly_those_messages(tree, open_memory):
    mem = open_memory()
    mem.syncing().run(embed=False)
    before = texts(mem)
    session: ClaudeSession = tree["claude"][1]
    new = session.prompt("and the tax line?") + session.reply("Round the tax once, at the end.") + \
        session.prompt("thanks")
    assert len(new) == 3
    session.write(new)
    report = mem.syncing().run(embed=False)
    assert report.added == 3 and report.files_read == 1
    after = texts(mem)
    assert sorted(set(after) - set(before)) == sorted(
        (session.id, t) for t in ("and the tax line?", "Round the tax once, at the end.", "thanks"))
    assert len(after) == len(before) + 3


def test_codex_rollout_appended_adds_the_new_turn(tree, open_memory):
    mem = open_memory()
    mem.syncing().run(embed=False)
    rollout = tree["codex"][0]
    rollout.write(rollout.turn("now the shipping fee", "Shipping is cents too."))
    report = mem.syncing().run(embed=False)
    assert report.added == 2
    assert (rollout.id, "now the shipping fee") in texts(mem)


def test_deleting_the_session_file_keeps_its_messages(tree, open_memory):
    mem = open_memory()
    mem.syncing().run(embed=False)
    before = texts(mem)
    tree["claude"][0].path.unlink()
    report = mem.syncing().run(embed=False)
    assert report.ok and report.added == 0
    assert texts(mem) == before


def test_a_corrupt_new_line_is_skipped_reported_once_and_the_rest_read(tree, open_memory):
    mem = open_memory()
    mem.syncing().run(embed=False)
    session: ClaudeSession = tree["claude"][2]
    lines_before = session.path.read_bytes().count(b"\n")
    session.path.open("a").write('{"type": "user", "message": {"role": "us\n')
    session.write(session.turn("after the bad line", "still read"))
    report = mem.syncing().run(embed=False)
    assert report.added == 2 and report.unreadable_count == 1
    assert report.unreadable[0]["where"] == f"line {lines_before + 1}"
    assert report.unreadable[0]["file"] == str(session.path)
    # appended again: the old bad line is not reported a second time
    session.write(session.turn("one more", "ok"))
    again = mem.syncing().run(embed=False)
    assert again.added == 2 and again.unreadable_count == 0


def test_a_line_still_being_written_waits_for_the_next_sync(tree, open_memory):
    mem = open_memory()
    mem.syncing().run(embed=False)
    session: ClaudeSession = tree["claude"][0]
    line = json.dumps(session.prompt("half written")[0]) + "\n"
    with session.path.open("a") as fh:
        fh.write(line[:40])
    report = mem.syncing().run(embed=False)
    assert report.added == 0 and report.unreadable_count == 0
    with session.path.open("a") as fh:
        fh.write(line[40:])
    assert mem.syncing().run(embed=False).added == 1


def test_a_rewritten_file_is_read_again_safely(tree, open_memory):
    mem = open_memory()
    mem.syncing().run(embed=False)
    session: ClaudeSession = tree["claude"][0]
    # rewritten in place (same length, first line changed): the hash of the last line read still matches,
    # so shrink it instead: a rewrite that drops the bookkeeping line and adds a turn
    session.lines = session.lines[1:] + session.turn("rewritten with a new turn", "fine")
    session.write()
    report = mem.syncing().run(embed=False)
    assert report.added == 2 and report.files_read == 1
    assert len(texts(mem)) == 22


def test_claude_config_dir_and_codex_home_are_followed(tmp_path, monkeypatch, open_memory):
    made = fake_home(tmp_path / "elsewhere", claude_sessions=1, codex_sessions=1)
    monkeypatch.setenv("HOME", str(tmp_path / "empty-home"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", f"{tmp_path / 'none'},{made['home'] / '.claude'}")
    monkeypatch.setenv("CODEX_HOME", str(made["home"] / ".codex"))
    report = open_memory().syncing().run(embed=False)
    assert report.ok and report.added == 8


def _export_zip(path: Path, rows: list[dict]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("history.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_an_added_folder_takes_new_export_zips_and_a_reexport_adds_only_new_messages(tree, tmp_path, open_memory):
    downloads = tree["home"] / "Downloads"
    downloads.mkdir()
    mem = open_memory()
    mem.syncing().add(downloads)
    rows = [{"conversation": "trip", "id": f"m{i}", "timestamp": f"2024-05-0{i + 1}T10:00:00Z",
             "speaker": ("Ada", "Bo")[i % 2], "text": f"packing list item {i}"} for i in range(5)]
    _export_zip(downloads / "export-1.zip", rows)
    (downloads / "photos.zip").write_bytes(_export_zip(tmp_path / "p.zip", []).read_bytes())
    (downloads / "notes.txt").write_text("not matched by *.zip")
    first = mem.syncing().run(embed=False)
    assert first.ok and first.added == 20 + 5
    assert len(first.ignored) == 1 and "photos.zip" in first.ignored[0]
    more = rows + [{"conversation": "trip", "id": "m5", "timestamp": "2024-05-07T10:00:00Z", "speaker": "Ada",
                    "text": "and the passports"}]
    _export_zip(downloads / "export-2.zip", more)
    second = mem.syncing().run(embed=False)
    assert second.ok and second.added == 1 and second.ignored == []


def test_an_unreadable_source_fails_loudly_one_line_each(tree, tmp_path):
    home = tmp_path / "rr"
    gone = tmp_path / "gone"
    gone.mkdir()
    code, out, err = run_cli("sync", "add", str(gone), "--json", home=home)
    assert code == 0, err
    assert json.loads(out)["path"] == str(gone)
    gone.rmdir()
    code, out, err = run_cli("sync", "--no-embed", "--quiet", home=home)
    assert code == 1
    failed = [line for line in err.splitlines() if line.startswith("rawrag: sync failed:")]
    assert failed == [f"rawrag: sync failed: {gone}: cannot read this folder: no such folder"]
    assert "20 messages added" in out  # the other sources were read all the same
    code, out, err = run_cli("status", home=home)
    assert code == 0 and "1 failed" in out and f"failed: {gone}" in out
    status = json.loads(run_cli("status", "--json", home=home)[1])
    assert status["last_sync"]["failed_count"] == 1 and status["last_sync"]["added"] == 20


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_a_folder_without_permission_is_a_failure_not_an_empty_source(tree, open_memory):
    codex = tree["home"] / ".codex" / "sessions"
    codex.chmod(0)
    try:
        report = open_memory().syncing().run(embed=False)
    finally:
        codex.chmod(0o700)
    assert len(report.failed) == 1 and str(codex) in report.failed[0]


def test_list_add_remove_with_json(tree, tmp_path):
    home = tmp_path / "rr"
    code, out, err = run_cli("sync", "list", "--json", home=home)
    assert code == 0, err
    listed = json.loads(out)
    assert [s["kind"] for s in listed["sources"]] == ["claude_code", "codex", "codex"]
    assert listed["last_sync"] is None
    claude = listed["sources"][0]["path"]
    code, out, err = run_cli("sync", "remove", claude, "--json", home=home)
    assert code == 0, err
    assert "set aside" in json.loads(out)["removed"]
    assert [s["kind"] for s in json.loads(run_cli("sync", "list", "--json", home=home)[1])["sources"]] == \
        ["codex", "codex"]
    code, out, _ = run_cli("sync", "--json", "--no-embed", home=home)
    assert code == 0 and json.loads(out)["added"] == 8  # Codex only
    assert run_cli("sync", "add", claude, home=home)[0] == 0  # found again
    code, out, _ = run_cli("sync", "--json", "--no-embed", home=home)
    assert json.loads(out)["added"] == 12
    code, _, err = run_cli("sync", "remove", str(tmp_path / "never"), home=home)
    assert code == 1 and err.startswith("rawrag: error:") and "not a sync source" in err
    code, _, err = run_cli("sync", "add", str(tmp_path / "missing"), home=home)
    assert code == 1 and "no such folder" in err


def test_sync_embeds_what_it_added(tree, open_memory):
    mem = open_memory()
    report = mem.syncing().run()
    assert report.embedded > 0 and mem.status()["pending_embeddings"] == 0
    assert mem.search("cart total drift cent").hits


def test_a_session_just_begun_is_not_a_failure(tree, open_memory):
    mem = open_memory()
    mem.syncing().run(embed=False)
    project = tree["claude"][0].path.parent
    fresh = ClaudeSession(project.parent, project.name, "just-begun")
    line = json.dumps(fresh.prompt("first words")[0])
    fresh.path.write_text(line[:30])  # the first line, half written
    bookkeeping = ClaudeSession(project.parent, project.name, "bookkeeping-only")
    bookkeeping.write()  # a file-history-snapshot line and nothing else yet
    report = mem.syncing().run(embed=False)
    assert report.ok and report.added == 0 and report.files_read == 2
    fresh.path.write_text(line + "\n")
    bookkeeping.write(bookkeeping.turn("now a question", "and its answer"))
    report = mem.syncing().run(embed=False)
    assert report.ok and report.added == 3


def test_mcp_status_reports_the_last_sync(tree, tmp_path):
    """An agent asks the real MCP server (stdio) whether its memory is current."""
    import asyncio
    import sys

    mcp = pytest.importorskip("mcp")
    from .conftest import REPO

    home = tmp_path / "rr"
    assert run_cli("sync", "--no-embed", "--quiet", home=home)[0] == 0

    async def ask_status() -> dict:
        params = mcp.StdioServerParameters(command=sys.executable, cwd=str(REPO), env=dict(os.environ),
                                           args=["-m", "rawrag_tui.cli", "--home", str(home), "mcp"])
        async with mcp.Client(params) as client:
            return json.loads((await client.call_tool("status", {})).content[0].text)

    last = asyncio.run(ask_status())["last_sync"]
    assert last["added"] == 20 and last["failed"] == [] and last["files_seen"] == 5


RESUMED = Path(__file__).parent / "fixtures" / "claude_code" / "resumed"


def stored(mem) -> set[tuple[str, str, str]]:
    return set(mem.store.conn.cursor().execute(
        "SELECT c.external_id, m.external_id, m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id"))


@pytest.mark.parametrize("resumed_later", [False, True])
def test_a_resumed_session_keeps_its_replayed_messages_once(resumed_later, tmp_path, monkeypatch, open_memory):
    """Claude Code's resume copies earlier messages, under their uuids, into the new session's file:
    synced together or one after the other, the store is what `rawrag import` of both makes."""
    project = tmp_path / "user" / ".claude" / "projects" / "-home-bo-notes"
    project.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(key, raising=False)
    original, resumed = sorted(RESUMED.glob("*.jsonl"), key=lambda p: not p.name.startswith("0a1b"))
    mem = open_memory(tmp_path / "synced")
    # named to sort after the resumed one: the session that began first must still be read first
    (project / f"z-{original.name}").write_bytes(original.read_bytes())
    if resumed_later:
        mem.syncing().run(embed=False)
    (project / resumed.name).write_bytes(resumed.read_bytes())
    report = mem.syncing().run(embed=False)
    assert report.ok and report.skipped == {"resumed_replay": 2}
    imported = open_memory(tmp_path / "imported")
    imported.import_path(RESUMED, "claude_code", embed=False)
    assert stored(mem) == stored(imported)


@pytest.mark.parametrize("what", ["conversation", "source"])
def test_a_conversation_deleted_in_rawrag_is_not_brought_back_by_its_growing_session(what, tree, open_memory):
    mem = open_memory()
    mem.syncing().run(embed=False)
    session: ClaudeSession = tree["claude"][0]
    cid = mem.conversation_id("claude_code", session.id)
    if what == "conversation":
        mem.delete_conversation(cid)
    else:
        mem.delete_source(mem.conversation(cid)["source_id"])
    before = texts(mem)
    assert not [t for t in before if t[0] == session.id]
    session.write(session.turn("a later question", "a later answer"))
    report = mem.syncing().run(embed=False)
    assert report.ok and report.added == 0 and report.skipped == {"deleted_in_rawrag": 6}
    assert texts(mem) == before
    # a session that never was deleted still grows
    other: ClaudeSession = tree["claude"][1]
    other.write(other.turn("more", "sure"))
    assert mem.syncing().run(embed=False).added == 2


CODEX_FORK = Path(__file__).parent / "fixtures" / "codex" / "fork" / "sessions"


@pytest.mark.parametrize("fork_later", [False, True])
def test_a_forked_codex_rollout_keeps_its_parents_turns_once(fork_later, tmp_path, monkeypatch, open_memory):
    """A fork begins by replaying its parent: synced together or one after the other, the store is
    what `rawrag import` of both makes."""
    import shutil

    sessions = tmp_path / "user" / ".codex" / "sessions"
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(key, raising=False)
    parent, fork = sorted(CODEX_FORK.glob("**/*.jsonl"))
    mem = open_memory(tmp_path / "synced")
    for n, rollout in enumerate((parent, fork)):
        target = sessions / rollout.relative_to(CODEX_FORK)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(rollout, target)
        if fork_later and n == 0:
            mem.syncing().run(embed=False)
    report = mem.syncing().run(embed=False)
    assert report.ok and report.skipped == {"fork_replay": 2}
    imported = open_memory(tmp_path / "imported")
    imported.import_path(CODEX_FORK.parent, "codex", embed=False)
    assert stored(mem) == stored(imported)
