"""Every export format through the real store: detect, import, re-import, and
mutated exports that end in a clean import or a clean error with the store untouched."""

import json
import shutil
import time
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rawrag_tui.errors import UserError
from rawrag_tui.importers import FORMATS
from rawrag_tui.memory import Memory
from tests.importers_support import FIXTURES, zip_folder

from .test_store_import import dump

CASES = {
    "chatgpt/single": "chatgpt", "chatgpt/sharded": "chatgpt", "claude/export": "claude",
    "slack/workspace": "slack", "discord/guild": "discord", "discord/dm": "discord",
    "telegram/full": "telegram", "telegram/single": "telegram",
    "whatsapp/android_en": "whatsapp", "whatsapp/ios_de": "whatsapp", "whatsapp/android_es": "whatsapp",
}


@pytest.mark.parametrize("fixture", sorted(CASES))
def test_fixture_imports_whole_and_reimports_as_nothing(fixture, open_memory, tmp_path):
    mem = open_memory()
    target = zip_folder(FIXTURES / fixture, tmp_path / "export.zip")
    first = mem.import_path(target, embed=False)
    assert first.format == CASES[fixture]
    assert first.conversations > 0 and first.messages_added > 0
    counts = mem.store.counts()
    assert counts["messages"] == first.messages_added and counts["windows"] > 0
    again = mem.import_path(target, embed=False)
    assert again.messages_added == 0 and mem.store.counts() == counts
    unzipped = mem.import_path(FIXTURES / fixture, embed=False)  # the unpacked folder is the same export
    assert unzipped.messages_added == 0


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(fixture=st.sampled_from(sorted(CASES)), data=st.data())
def test_mutated_exports_import_cleanly_or_fail_cleanly(fixture, data, open_memory, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mut")
    folder = tmp / "export"
    shutil.copytree(FIXTURES / fixture, folder)
    members = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".json", ".txt"))
    victim = data.draw(st.sampled_from(members))
    raw = bytearray(victim.read_bytes())
    cut = data.draw(st.integers(0, len(raw)))
    how = data.draw(st.sampled_from(["truncate", "flip", "insert"]))
    if how == "truncate":
        raw = raw[:cut]
    elif how == "flip" and raw:
        raw[min(cut, len(raw) - 1)] ^= data.draw(st.integers(1, 255))
    else:
        raw[cut:cut] = data.draw(st.binary(min_size=1, max_size=8))
    victim.write_bytes(bytes(raw))
    mem = open_memory(tmp / "home")
    mem.import_path(FIXTURES / "whatsapp/android_en", embed=False)
    before = dump(mem)
    try:
        mem.import_path(folder, CASES[fixture], embed=False)
    except UserError as exc:
        assert "\n" not in str(exc)
        assert dump(mem) == before
    else:
        assert mem.store.counts()["messages"] >= before[0]["messages"]


# -- bad input, every format: the store is left exactly as it was -------------------------------


def dump_every_table(mem) -> dict:
    """Every stored row of every real table (virtual tables live in their
    shadow tables, which are real), compared as data, not as counts."""
    names = [r[0] for r in mem.store._rows(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")]
    assert "messages" in names and any(n.startswith("windows_fts") for n in names)
    return {name: sorted(mem.store._rows(f'SELECT * FROM "{name}"'), key=repr) for name in names}


def assert_untouched(mem, before: dict) -> None:
    assert dump_every_table(mem) == before
    assert mem.store._rows("PRAGMA integrity_check") == [("ok",)]


@pytest.fixture
def filled(open_memory, tmp_path):
    """A store holding an embedded import, and its full content."""
    mem = open_memory(tmp_path / "home")
    mem.import_path(FIXTURES / "whatsapp/android_en", embed=True)
    return mem, dump_every_table(mem)


def _truncated_fixture(fmt: str, tmp_path) -> Path | None:
    """The format's own fixture cut at 80%: the parser reads (and the store
    writes) the first conversations, then meets the damage."""
    folder = FIXTURES / fmt
    if not folder.is_dir():
        return None
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl", ".txt", ".html"))
    if not files:
        return None
    biggest = max(files, key=lambda p: p.stat().st_size)
    target = tmp_path / f"cut-{fmt}{biggest.suffix}"
    data = biggest.read_bytes()
    target.write_bytes(data[: int(len(data) * 0.8)])
    return target


GARBAGE = {
    "empty": b"",
    "binary": bytes(range(256)) * 64,
    "cut JSON": b'{"messages": [{"id": 1, "text": "a"}, {"id": 2, "te',
    "a JSON string": b'"hello"',
    "prose": b"Just some notes\nnothing here is a chat\n" * 30,
}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_bad_input_for_every_format_leaves_the_store_exactly_as_it_was(fmt, filled, tmp_path):
    mem, before = filled
    cases = [(name, tmp_path / f"bad-{i}.dat", data) for i, (name, data) in enumerate(GARBAGE.items())]
    for name, path, data in cases:
        path.write_bytes(data)
        with pytest.raises(UserError) as info:
            mem.import_path(path, fmt, embed=False)
        message = str(info.value)
        assert "\n" not in message and str(path) in message, (name, message)
        assert_untouched(mem, before)
    cut = _truncated_fixture(fmt, tmp_path)
    if cut is not None:
        try:
            mem.import_path(cut, fmt, embed=False)
        except UserError as exc:
            assert "\n" not in str(exc)
            assert_untouched(mem, before)
        else:  # line formats keep what was complete: a clean import, the store still sound
            assert mem.store._rows("PRAGMA integrity_check") == [("ok",)]


def test_auto_detection_of_garbage_is_one_line(filled, tmp_path):
    mem, before = filled
    for i, data in enumerate(GARBAGE.values()):
        path = tmp_path / f"x{i}.json"
        path.write_bytes(data)
        with pytest.raises(UserError, match="no known export format"):
            mem.import_path(path, embed=False)
    assert_untouched(mem, before)


def test_truncated_zip_from_a_partial_download(filled, tmp_path):
    mem, before = filled
    whole = zip_folder(FIXTURES / "chatgpt/sharded", tmp_path / "export.zip").read_bytes()
    cut = tmp_path / "export-partial.zip"
    cut.write_bytes(whole[: len(whole) // 2])
    for fmt in ("auto", "chatgpt"):
        with pytest.raises(UserError, match="zip is truncated or damaged") as info:
            mem.import_path(cut, fmt, embed=False)
        assert "\n" not in str(info.value)
    assert_untouched(mem, before)


@pytest.mark.slow
def test_zip_with_100000_members_ends_in_one_line_quickly(filled, tmp_path):
    mem, before = filled
    target = tmp_path / "many.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as zf:
        for i in range(100_000):
            zf.writestr(f"d{i % 100}/f{i}.txt", b"x")
    started = time.perf_counter()
    with pytest.raises(UserError, match="no known export format") as info:
        mem.import_path(target, embed=False)
    assert "\n" not in str(info.value)
    assert time.perf_counter() - started < 60
    assert_untouched(mem, before)


@pytest.mark.slow
def test_200_mb_single_message_is_reported_and_the_rest_imported(open_memory, tmp_path):
    mem = open_memory(tmp_path / "home")
    path = tmp_path / "big.jsonl"
    with open(path, "w") as fh:
        fh.write(json.dumps({"conversation": "c", "speaker": "a", "text": "before"}) + "\n")
        fh.write('{"conversation": "c", "speaker": "a", "text": "')
        chunk = "x" * (1 << 20)
        for _ in range(200):
            fh.write(chunk)
        fh.write('"}\n')
        fh.write(json.dumps({"conversation": "c", "speaker": "b", "text": "after"}) + "\n")
    report = mem.import_path(path, embed=False)
    assert report.messages_added == 2 and report.skipped == {"unreadable": 1}
    assert "209,715,200 characters" in report.unreadable[0]["problem"]
    assert mem.store._rows("PRAGMA integrity_check") == [("ok",)]


@pytest.mark.parametrize("fmt", ["auto", "chatgpt", "claude", "telegram", "discord"])
def test_json_nested_100000_deep_is_one_line_not_a_hang(fmt, filled, tmp_path):
    mem, before = filled
    path = tmp_path / "deep.json"
    path.write_bytes(b'{"messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    started = time.perf_counter()
    with pytest.raises(UserError) as info:
        mem.import_path(path, fmt, embed=False)
    assert "\n" not in str(info.value)
    assert time.perf_counter() - started < 30
    assert_untouched(mem, before)


def test_cli_reports_unreadable_places_in_dry_run_json_and_import(tmp_path):
    from .conftest import run_cli

    path = tmp_path / "WhatsApp Chat with Ann.txt"
    path.write_text("01/03/21, 00:08 a. m. - Ana: hola\n31/02/21, 10:00 - Ana: ???\n13/03/21, 09:00 - Bo: hi\n",
                    encoding="utf-8")
    home = tmp_path / "h"
    code, out, err = run_cli("import", str(path), "--dry-run", "--quiet", home=home)
    assert code == 0 and "skipped 1 unreadable" in out and "(line 2)" in out and "Traceback" not in err
    code, out, _ = run_cli("import", str(path), "--dry-run", "--json", "--quiet", home=home)
    report = json.loads(out)
    assert report["unreadable"][0]["where"] == "line 2" and report["messages_seen"] == 2
    code, out, _ = run_cli("import", str(path), "--no-embed", "--quiet", home=home)
    assert code == 0 and "(line 2)" in out
    with Memory.open(home) as mem:
        assert mem.store.counts()["messages"] == 2
