"""The store through the facade: atomic imports, idempotence, incremental merge, permissions."""

import os
import stat

import pytest

from rawrag_tui.errors import ImportFormatError, UserError
from rawrag_tui.storage import migrations

from .conftest import write_jsonl


def rows(conv="c1", n=3, start=0, title="Chat"):
    return [
        {"conversation": conv, "title": title, "id": f"{conv}-{i}",
         "timestamp": f"2025-01-{i // 24 + 1:02d}T{i % 24:02d}:00:00Z",
         "speaker": "Ann" if i % 2 else "Bob", "text": f"message number {i} about topic {i * 7}"}
        for i in range(start, start + n)
    ]


def dump(mem):
    """Everything a user could lose, as comparable data."""
    s = mem.store
    return (s.counts(), s._rows("SELECT * FROM messages ORDER BY id"), s._rows("SELECT * FROM windows ORDER BY id"),
            s._rows("SELECT rowid, text FROM windows_fts ORDER BY rowid"), s._rows("SELECT * FROM vectors ORDER BY id"),
            s._rows("SELECT * FROM sources ORDER BY id"))


def test_home_and_files_are_private_and_wal(open_memory, home, tmp_path):
    mem = open_memory()
    mem.import_path(write_jsonl(tmp_path / "a.jsonl", rows()), embed=True)
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700
    for name in os.listdir(home):
        assert stat.S_IMODE(os.stat(home / name).st_mode) == 0o600, name
    assert (home / "rawrag.db-wal").exists()
    assert mem.store._one("PRAGMA journal_mode")[0] == "wal"
    assert migrations.schema_version(mem.store.conn) == len(migrations.MIGRATIONS)


def test_reimport_adds_nothing_and_newer_export_adds_only_new(open_memory, tmp_path):
    mem = open_memory()
    first = mem.import_path(write_jsonl(tmp_path / "a.jsonl", rows(n=4)))
    assert (first.conversations, first.messages_added, first.embedded) == (1, 4, 1)
    before = dump(mem)
    again = mem.import_path(tmp_path / "a.jsonl")
    assert again.messages_added == 0 and again.already_imported and again.embedded == 0
    assert dump(mem) == before
    newer = mem.import_path(write_jsonl(tmp_path / "b.jsonl", rows(n=6) + rows("c2", n=2, title="Other")))
    assert newer.messages_added == 4 and not newer.already_imported
    assert mem.store.counts()["messages"] == 8 and mem.store.counts()["conversations"] == 2
    seqs = [m["seq"] for m in mem.messages(mem.store.conversation_id("jsonl", "c1"))]
    assert seqs == list(range(6))


def test_a_message_arriving_between_old_ones_is_ordered_by_time(open_memory, tmp_path):
    mem = open_memory()
    mem.import_path(write_jsonl(tmp_path / "a.jsonl", [rows(n=3)[0], rows(n=3)[2]]))
    mem.import_path(write_jsonl(tmp_path / "b.jsonl", rows(n=3)))
    texts = [m["text"] for m in mem.messages(mem.store.conversation_id("jsonl", "c1"))]
    assert texts == [r["text"] for r in rows(n=3)]


def test_growing_conversation_reuses_vectors_of_unchanged_windows(open_memory, tmp_path):
    mem = open_memory()
    long_rows = [dict(r, text=r["text"] + " " + "word " * 60) for r in rows(n=20)]
    first = mem.import_path(write_jsonl(tmp_path / "a.jsonl", long_rows[:15]))
    windows_before = mem.store.counts()["windows"]
    assert first.embedded == windows_before > 2
    second = mem.import_path(write_jsonl(tmp_path / "b.jsonl", long_rows))
    # only the tail window(s) changed; everything before is byte-identical
    assert 0 < second.embedded < windows_before
    assert mem.status()["pending_embeddings"] == 0


def test_changing_window_settings_rewindows_and_reembeds_only_what_changed(open_memory, tmp_path, home):
    mem = open_memory()
    mem.import_path(write_jsonl(tmp_path / "a.jsonl", rows(n=3) + rows("c2", n=40, title="Long")))
    n_short = len(mem.store._rows("SELECT id FROM windows WHERE conversation_id = 1"))
    assert n_short == 1
    old_hashes = {r[0] for r in mem.store._rows("SELECT content_hash FROM windows")}
    mem.close()
    mem = open_memory(window={"tokens": 128, "stride": 112})
    done = mem.index()
    new_hashes = {r[0] for r in mem.store._rows("SELECT content_hash FROM windows")}
    # the short conversation fits one window either way: same text, no new vector;
    # only texts never embedded before are embedded
    assert done["windows_written"] > 0
    assert done["embedded"] == len(new_hashes - old_hashes) >= mem.store.counts()["windows"] - 2
    assert mem.status()["pending_embeddings"] == 0
    assert mem.store._one("SELECT COUNT(*) FROM vectors")[0] == mem.store.counts()["windows"]


@pytest.mark.parametrize(
    "content, message",
    [
        # One unreadable line is skipped and reported; a file mostly unreadable is refused whole.
        ('{"conversation": "c", "speaker": "a", "text": "ok"}\n'
         '{"conversation": "c", "speaker": "a", "text": "x"\n{\n', "line 2"),
        ('{"conversation": "c", "speaker": "a", "text": "ok"}\n{"conversation": "c", "text": "x"}\n{"text": "y"}\n',
         "missing field"),
        ('{"conversation": "c", "speaker": "a", "text": "ok", "timestamp": "yesterday"}\n', "bad timestamp"),
        ("\n\n", "no messages"),
    ],
)
def test_bad_input_leaves_the_store_exactly_as_it_was(open_memory, tmp_path, content, message):
    mem = open_memory()
    mem.import_path(write_jsonl(tmp_path / "good.jsonl", rows(n=2)))
    before = dump(mem)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content)
    with pytest.raises(UserError, match=message) as info:
        mem.import_path(bad, "jsonl")
    assert str(bad) in str(info.value) and "\n" not in str(info.value)
    assert dump(mem) == before


def test_failure_after_many_conversations_rolls_back_all_of_them(open_memory, tmp_path):
    mem = open_memory()
    good = [r for c in range(30) for r in rows(f"conv{c}", n=3)]
    path = write_jsonl(tmp_path / "x.jsonl", good)
    with open(path, "a") as fh:  # more bad lines than good ones, all after the good: refused at the end
        fh.writelines('{"conversation": "late", "speaker": 5, "text": "bad"}\n' for _ in range(91))
    with pytest.raises(ImportFormatError, match=r"91 of 181 records unreadable.*line 91"):
        mem.import_path(path)
    assert mem.store.counts() == {"sources": 0, "conversations": 0, "messages": 0, "windows": 0}


def test_unknown_format_and_missing_path_are_user_errors(open_memory, tmp_path):
    mem = open_memory()
    (tmp_path / "notes.txt").write_text("just some notes\n")
    with pytest.raises(UserError, match="no known export format"):
        mem.import_path(tmp_path / "notes.txt")
    with pytest.raises(UserError, match="no such file"):
        mem.import_path(tmp_path / "nope.json")
    with pytest.raises(UserError, match="unknown format"):
        mem.import_path(tmp_path / "notes.txt", "myspace")


def test_dry_run_counts_without_writing(open_memory, tmp_path):
    mem = open_memory()
    mem.import_path(write_jsonl(tmp_path / "a.jsonl", rows(n=2)))
    before = dump(mem)
    report = mem.import_path(write_jsonl(tmp_path / "b.jsonl", rows(n=5)), dry_run=True)
    assert (report.conversations, report.messages_seen, report.messages_added) == (1, 5, 3)
    assert dump(mem) == before


def test_no_embed_defers_and_index_completes(open_memory, tmp_path):
    mem = open_memory()
    report = mem.import_path(write_jsonl(tmp_path / "a.jsonl", rows(n=3)), embed=False)
    assert report.embedded == 0
    status = mem.status()
    assert status["pending_embeddings"] == 1 and status["windows"] == 1
    assert mem.index()["embedded"] == 1
    assert mem.status()["pending_embeddings"] == 0
