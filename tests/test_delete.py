"""Deletion really deletes: the text is gone from every byte of the database files."""

import pytest

from rawrag_tui.errors import UserError

from .conftest import write_jsonl

SECRET = "Zanzibarquux passphrase is violet-armadillo-4471"


def store_bytes(home):
    return b"".join(p.read_bytes() for p in sorted(home.iterdir()) if p.name.startswith("rawrag.db"))


def history(tmp_path, name, conv, secret=None, n=12):
    rows = [{"conversation": conv, "id": f"{conv}-{i}", "timestamp": f"2025-03-01T10:{i:02d}:00Z", "speaker": "Kim",
             "text": f"ordinary chatter {i} about gardening and tomatoes " * 3} for i in range(n)]
    if secret:
        rows[5]["text"] = secret
    return write_jsonl(tmp_path / name, rows)


def test_delete_conversation_leaves_no_trace_in_the_file(open_memory, tmp_path, home):
    mem = open_memory()
    mem.import_path(history(tmp_path, "a.jsonl", "secret-chat", SECRET))
    mem.import_path(history(tmp_path, "b.jsonl", "other-chat"))
    mem.store.conn.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)")
    assert SECRET.encode() in store_bytes(home)  # the check below can fail
    cid = mem.store.conversation_id("jsonl", "secret-chat")
    removed = mem.delete_conversation(cid)
    assert removed["messages"] == 12 and removed["vectors"] >= 1
    raw = store_bytes(home)
    for needle in (SECRET, "Zanzibarquux", "zanzibarquux", "violet-armadillo", "armadillo"):
        assert needle.encode() not in raw, needle
    # everything derived from it is gone, the rest is intact
    s = mem.store
    assert s._one("SELECT COUNT(*) FROM windows WHERE conversation_id = ?", (cid,))[0] == 0
    assert s._rows("SELECT rowid FROM windows_fts WHERE windows_fts MATCH 'zanzibarquux'") == []
    assert s._one("SELECT COUNT(*) FROM vectors")[0] == s.counts()["windows"] > 0
    assert s.counts()["conversations"] == 1
    assert mem.search("gardening tomatoes").hits
    assert not any("armadillo" in m.text for m in mem.search("violet armadillo passphrase").evidence())


def test_delete_source_removes_what_that_import_added(open_memory, tmp_path, home):
    mem = open_memory()
    first = mem.import_path(history(tmp_path, "a.jsonl", "chat", n=6))
    rows = [{"conversation": "chat", "id": "late", "timestamp": "2025-04-01T10:00:00Z", "speaker": "Kim",
             "text": SECRET}]
    second = mem.import_path(write_jsonl(tmp_path / "b.jsonl", rows))
    assert second.messages_added == 1
    mem.delete_source(second.source_id)
    assert mem.store.counts()["messages"] == 6 and mem.store.counts()["sources"] == 1
    assert SECRET.encode() not in store_bytes(home) and b"armadillo" not in store_bytes(home)
    assert mem.status()["pending_embeddings"] == 0
    mem.delete_source(first.source_id)
    assert mem.store.counts() == {"sources": 0, "conversations": 0, "messages": 0, "windows": 0}
    assert b"gardening" not in store_bytes(home)


def test_deleting_unknown_ids_is_a_user_error(open_memory):
    mem = open_memory()
    with pytest.raises(UserError, match="no conversation with id 99"):
        mem.delete_conversation(99)
    with pytest.raises(UserError, match="no source with id 7"):
        mem.delete_source(7)


def test_every_connection_keeps_sqlite_temp_storage_in_memory(open_memory):
    """A statement journal or sort spill holds message text: never an unnamed file in /var/tmp."""
    mem = open_memory()
    assert mem.store.conn.execute("PRAGMA temp_store").fetchone()[0] == 2  # MEMORY
    assert mem.store.conn.execute("PRAGMA secure_delete").fetchone()[0] == 1


def test_delete_while_another_process_reads_says_so_and_the_next_open_erases(open_memory, home):
    """A reader's snapshot keeps the old pages: delete says so, and the next writer to open the
    store, once the reader is gone, finishes the erasure (checked on the files' bytes)."""
    import apsw

    from rawrag_tui.demo import demo_path

    mem = open_memory()
    mem.import_path(demo_path(), "jsonl", embed=False)
    conv = next(c for c in mem.conversations() if "Maya" in c["title"] or c["messages"] > 3)
    canary = "Fontainebleau-canary-7731"
    cid = conv["id"]
    mem.store.conn.execute("UPDATE messages SET text = text || ' ' || ? WHERE conversation_id = ?", (canary, cid))
    reader = apsw.Connection(str(mem.settings.db_path))
    cursor = reader.cursor()
    cursor.execute("BEGIN")
    assert cursor.execute("SELECT COUNT(*) FROM messages").fetchone()[0] > 0  # a snapshot is held
    removed = mem.delete_conversation(cid)
    assert removed["erased"] is False
    cursor.execute("COMMIT")
    reader.close()
    mem.close()
    again = open_memory()  # the next writer: nothing waits for it, the reader is gone
    assert again.counts()["conversations"] >= 1
    on_disk = b"".join(p.read_bytes() for p in home.iterdir() if p.name.startswith(again.settings.db_path.name))
    assert canary.encode() not in on_disk
    assert not (home / (again.settings.db_path.name + ".erase-pending")).exists()


def test_delete_with_no_other_reader_is_erased_at_once(open_memory):
    from rawrag_tui.demo import demo_path

    mem = open_memory()
    mem.import_path(demo_path(), "jsonl", embed=False)
    assert mem.delete_conversation(mem.conversations()[0]["id"])["erased"] is True


def test_rawrag_delete_says_plainly_when_another_process_holds_the_store(tmp_path):
    import apsw

    from rawrag_tui.demo import demo_path

    from .conftest import run_cli

    home = tmp_path / "h"
    assert run_cli("import", str(demo_path()), "--no-embed", home=home)[0] == 0
    reader = apsw.Connection(str(home / "rawrag.db"))
    cursor = reader.cursor()
    cursor.execute("BEGIN")
    cursor.execute("SELECT COUNT(*) FROM messages").fetchone()
    try:
        code, out, err = run_cli("delete", "--source", "1", "--yes", home=home)
    finally:
        cursor.execute("COMMIT")
        reader.close()
    assert code == 0 and out.startswith("deleted source 1"), err
    assert "has the store open" in err and err.strip().count("\n") == 0


def test_a_source_left_with_no_messages_after_deleting_its_conversations_goes(open_memory, tmp_path):
    mem = open_memory()
    one = mem.import_path(history(tmp_path, "a.jsonl", "only-chat", n=4), embed=False)
    two = mem.import_path(history(tmp_path, "b.jsonl", "kept-chat", n=4), embed=False)
    mem.delete_conversation(mem.store.conversation_id("jsonl", "only-chat"))
    assert [s["id"] for s in mem.sources()] == [two.source_id] != [one.source_id]
    # the same file imports again afresh (nothing remembers it as imported)
    again = mem.import_path(history(tmp_path, "a.jsonl", "only-chat", n=4), embed=False)
    assert again.messages_added == 4 and not again.already_imported
