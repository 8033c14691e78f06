"""Claude Code session logs: what is the person's, what is the harness's, and
a log that is still being written or has one broken line.

The helpers at the top are shared by the tests of the other sources added
with it (Codex, Gemini, Open WebUI): the real CLI and the facade into a real
store, alone, zipped and as a folder, and a refused file leaving the store
as it was.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rawrag_tui.errors import ImportFormatError, UserError
from rawrag_tui.importers import ExportSource, ParseStats, claude_code, scores
from tests.importers_support import FIXTURES, by_id, parse_all, texts, zip_folder

from .conftest import run_cli
from .test_store_import import dump

BASE = FIXTURES / "claude_code"
MODERN = BASE / "modern"
S1 = "5f0c1e2a-7b3d-4c8e-9a10-2b3c4d5e6f70"
SESSION = MODERN / "-Users-ann-src-app" / f"{S1}.jsonl"
OTHERS = (
    "chatgpt",
    "claude",
    "slack",
    "discord",
    "telegram",
    "whatsapp",
    "claude_code",
    "codex",
    "gemini",
    "open_webui",
)


# -- shared by the four new sources' tests -------------------------------------------


def fixture_dirs(fmt: str) -> list[Path]:
    return sorted(p for p in (FIXTURES / fmt).iterdir() if p.is_dir())


def detected(path: Path) -> str | None:
    with ExportSource(path) as source:
        found = scores(source)
    return found[0][0] if found else None


def assert_detection_is_exclusive(fmt: str) -> None:
    """Every fixture of ``fmt`` is taken as ``fmt``, and no other format's fixture is."""
    for folder in fixture_dirs(fmt):
        assert detected(folder) == fmt, folder
    for other in OTHERS:
        if other == fmt or not (FIXTURES / other).is_dir():
            continue
        for folder in fixture_dirs(other):
            assert detected(folder) != fmt, folder


def cli_import(path: Path, home: Path, *extra: str) -> dict:
    """`rawrag import PATH --json`, the real entry point, into a real store under ``home``."""
    code, out, err = run_cli("import", str(path), "--no-embed", "--json", "--quiet", *extra, home=home)
    assert code == 0, err
    return json.loads(out)


def assert_zip_and_folder_import_once(open_memory, folder: Path, fmt: str, tmp_path: Path) -> None:
    """The zip and the unpacked folder are one export: detected, imported once, re-imported as nothing."""
    mem = open_memory()
    archive = zip_folder(folder, tmp_path / f"{fmt}-export.zip")
    first = mem.import_path(archive, embed=False)
    assert first.format == fmt and first.conversations > 0 and first.messages_added > 0
    counts = mem.store.counts()
    assert counts["windows"] > 0
    again = mem.import_path(archive, embed=False)
    assert again.messages_added == 0 and mem.store.counts() == counts
    unzipped = mem.import_path(folder, embed=False)  # the same export, unpacked: a second source, no new message
    assert unzipped.format == fmt and unzipped.messages_added == 0
    assert mem.store.counts()["messages"] == counts["messages"]


def assert_refused_store_unchanged(open_memory, path: Path, match: str) -> str:
    """A refused file: one line naming it, nothing written (every table compared), the database sound."""
    mem = open_memory()
    mem.import_path(FIXTURES / "whatsapp" / "android_en", embed=False)
    before = dump(mem)
    with pytest.raises(UserError, match=match) as info:
        mem.import_path(path, embed=False)
    message = str(info.value)
    assert "\n" not in message and str(path.name) in message
    assert dump(mem) == before
    assert mem.store._one("PRAGMA integrity_check")[0] == "ok"
    return message


def break_line(src: Path, dst: Path, lineno: int, junk: str = '{"type": "user", "uuid": broken') -> Path:
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[lineno - 1] = junk + "\n"
    dst.write_text("".join(lines), encoding="utf-8")
    return dst


# -- the formats' facts --------------------------------------------------------------


def test_modern_session_keeps_the_persons_words_and_claudes_answers():
    convs, stats = parse_all(claude_code, MODERN)
    conv = by_id(convs)[S1]
    assert conv.title == "Login test fails on CI"  # /rename wins over the AI title
    assert texts(conv) == [
        "Why does the login test fail on CI but not locally?",
        "Let me look at the CI config first.",  # three streamed lines of one response, thinking left out
        "CI runs with TZ=UTC; your test assumes local time, so the expiry check is off by your offset.",
        "/model opus",  # the slash command as typed
        "Rewrite the test with freezegun",
        "Here is the test with freezegun.",
        "Fix it by passing tz=UTC to the helper instead",
        "Done: the helper now takes tz=UTC.",
        "! git status",
        "! pytest -q tests/test_login.py",
        "The login test passes now.",
    ]
    first, reply = conv.messages[0], conv.messages[1]
    assert (first.speaker, first.role, reply.speaker, reply.role) == ("User", "user", "Claude", "assistant")
    assert first.timestamp == datetime(2025, 10, 20, 9, 0, tzinfo=UTC)
    assert reply.external_id == "a1" and reply.parent_external_id == "u1"
    assert reply.extra == {"model": "claude-sonnet-4-5-20250929", "tools": ["Read"]}
    assert first.extra == {"cwd": "/Users/ann/src/app"}
    assert by_id_msg(conv, "u3").captions == ("image: pasted image/png",)
    assert dict(stats.skipped) == {
        "thoughts": 1,
        "tool": 1,
        "tool_result": 1,
        "meta": 1,
        "injected": 3,
        "sidechain": 1,
        "synthetic": 1,
        "compaction_summary": 1,
        "api_error": 1,
    }
    assert stats.errors == []


def by_id_msg(conv, mid):
    return next(m for m in conv.messages if m.external_id == mid)


def test_rewind_marks_the_abandoned_prompt_but_recorder_forks_hide_nothing():
    conv = by_id(parse_all(claude_code, MODERN)[0])[S1]
    off = [m.external_id for m in conv.messages if not m.on_main_branch]
    assert off == ["u2", "a5"]  # the prompt rewound away and its answer
    # the hook line after a4 and the compaction boundary are forks of the recorder, not of the user
    assert by_id_msg(conv, "a4").on_main_branch and by_id_msg(conv, "u4").on_main_branch
    assert by_id_msg(conv, "u4").parent_external_id == "a6"  # across the compaction, through logicalParentUuid


def test_older_log_with_summary_title_and_subagent_file():
    convs, stats = parse_all(claude_code, BASE / "v1")
    assert [c.external_id for c in convs] == [
        "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
    ]  # agent-*.jsonl is no conversation
    conv = convs[0]
    assert conv.title == "Plan a trip to Lisbon"
    assert texts(conv) == [
        "Plan three days in Lisbon in March",
        "Day 1: Alfama and the castle.",
        "Evening: fado at Tasca do Chico.",
    ]
    assert conv.messages[1].extra["tools"] == ["Task"]
    assert stats.skipped["sidechain"] == 2


def test_newer_log_string_content_ai_title_and_subagents_folder():
    convs, stats = parse_all(claude_code, BASE / "v2_1")
    assert len(convs) == 1
    conv = convs[0]
    assert conv.title == "Dark mode for settings"
    assert texts(conv)[1] == "Dark mode is wired to the prefers-color-scheme media query."
    assert conv.messages[0].extra == {"cwd": "C:\\work\\site"}
    assert [m.parent_external_id for m in conv.messages] == [None, "d1", "d2", "d3"]  # through the system line
    assert stats.skipped["sidechain"] == 1


def test_resumed_session_replays_are_imported_once():
    convs, stats = parse_all(claude_code, BASE / "resumed")
    original, resumed = convs
    assert [m.external_id for m in original.messages] == ["b1", "b2", "b4"]
    assert [m.external_id for m in resumed.messages] == ["f1", "f2"]
    assert stats.skipped["resumed_replay"] == 2


# -- real files as people have them ----------------------------------------------------


def test_renamed_file_detected_by_content(tmp_path):
    renamed = shutil.copy(SESSION, tmp_path / "my notes.txt")
    assert detected(Path(renamed)) == "claude_code"
    assert parse_all(claude_code, renamed)[0] == parse_all(claude_code, SESSION)[0]


def test_log_still_being_written_keeps_everything_before_the_cut(tmp_path):
    raw = SESSION.read_bytes()
    cut = tmp_path / f"{S1}.jsonl"
    cut.write_bytes(raw[: raw.rindex(b"\n", 0, len(raw) - 1) + 40])  # the last line half written
    convs, stats = parse_all(claude_code, cut)
    assert texts(convs[0])[-1] == "The login test passes now."
    last = len(raw.splitlines())
    assert stats.places == [
        {"file": str(cut), "where": f"line {last}", "problem": "incomplete last line (the log was still being written)"}
    ]


def test_one_broken_line_in_the_middle_is_skipped_and_placed(tmp_path):
    broken = break_line(SESSION, tmp_path / "s.jsonl", 7)  # a4, CI runs with TZ=UTC...
    convs, stats = parse_all(claude_code, broken)
    assert len(convs[0].messages) == 10 and "CI runs with TZ=UTC" not in " ".join(texts(convs[0]))
    assert [p["where"] for p in stats.places] == ["line 7"] and stats.skipped["unreadable"] == 1
    assert "not JSON" in stats.places[0]["problem"]
    # a line that is JSON but not a usable entry is placed the same way
    odd = break_line(
        SESSION,
        tmp_path / "t.jsonl",
        2,
        json.dumps(
            {
                "type": "user",
                "uuid": "x",
                "parentUuid": None,
                "sessionId": S1,
                "message": {"role": "user", "content": 5},
            }
        ),
    )
    _, stats = parse_all(claude_code, odd)
    assert [p["where"] for p in stats.places] == ["line 2"] and "unexpected value type" in stats.places[0]["problem"]


def test_mostly_unreadable_file_is_refused(tmp_path):
    lines = SESSION.read_text(encoding="utf-8").splitlines()
    junk = tmp_path / "junk.jsonl"
    junk.write_text("\n".join(lines[:3] + ["not json at all"] * 10) + "\n", encoding="utf-8")
    with ExportSource(junk) as source, pytest.raises(ImportFormatError, match="10 of 13 lines unreadable"):
        list(claude_code.parse(source, ParseStats()))


def test_detection_is_exclusive():
    assert_detection_is_exclusive("claude_code")
    with ExportSource(FIXTURES / "codex" / "modern") as source:
        assert not claude_code.detect(source)  # the payload envelope is Codex's


# -- end to end ------------------------------------------------------------------------


def test_cli_imports_renamed_session_with_broken_line_and_reports_the_place(tmp_path):
    broken = break_line(SESSION, tmp_path / "session-backup.log", 7)
    report = cli_import(broken, tmp_path / "home")
    assert report["format"] == "claude_code"
    assert report["conversations"] == 1 and report["messages_added"] == 10
    assert report["unreadable"] == [
        {"file": str(broken), "where": "line 7", "problem": report["unreadable"][0]["problem"]}
    ]
    assert report["skipped"]["unreadable"] == 1


@pytest.mark.parametrize("variant", ["modern", "v1", "v2_1", "resumed"])
def test_zip_and_folder_through_the_facade(variant, open_memory, tmp_path):
    assert_zip_and_folder_import_once(open_memory, BASE / variant, "claude_code", tmp_path)


def test_refused_file_leaves_the_store_as_it_was(open_memory, tmp_path):
    lines = SESSION.read_text(encoding="utf-8").splitlines()
    junk = tmp_path / f"{S1}.jsonl"
    junk.write_text("\n".join(lines[:2] + ["{garbage"] * 5) + "\n", encoding="utf-8")
    message = assert_refused_store_unchanged(open_memory, junk, "unreadable")
    assert "line 3" in message


def test_a_line_longer_than_the_sniff_window_is_still_recognised(tmp_path):
    """A pasted file makes one line megabytes long; the sniff judges it by its start."""
    row = {
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": S1,
        "type": "user",
        "message": {"role": "user", "content": "log: " + "x" * (2 * claude_code.SNIFF_LINE_BYTES)},
        "uuid": "big",
        "timestamp": "2025-10-20T08:00:00Z",
    }
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert detected(big) == "claude_code"
    conv = parse_all(claude_code, big)[0][0]
    assert conv.messages[0].text.startswith("log: xxx")


NEW_SOURCES = ("claude_code", "codex", "gemini", "open_webui")


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_mutated_logs_and_exports_import_cleanly_or_fail_cleanly(data, open_memory, tmp_path_factory):
    """Cut, flipped or inserted bytes in any of the four new sources: a clean
    import (bad lines placed) or one clear line with the store untouched."""
    fmt = data.draw(st.sampled_from(NEW_SOURCES))
    variant = data.draw(st.sampled_from(fixture_dirs(fmt)))
    tmp = tmp_path_factory.mktemp("mut")
    folder = tmp / "export"
    shutil.copytree(variant, folder)
    members = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl", ".html"))
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
    mem.import_path(FIXTURES / "whatsapp" / "android_en", embed=False)
    before = dump(mem)
    try:
        report = mem.import_path(folder, data.draw(st.sampled_from([fmt, "auto"])), embed=False)
    except UserError as exc:
        assert "\n" not in str(exc)
        assert dump(mem) == before
    else:
        assert report.format == fmt
        assert all(set(place) == {"file", "where", "problem"} for place in report.unreadable)


def test_summary_of_another_session_is_not_this_ones_title(tmp_path):
    src = next((BASE / "v2_1").glob("*/*.jsonl"))
    foreign = json.dumps({"type": "summary", "summary": "Fix flaky CI", "leafUuid": "not-in-this-file"})
    (tmp_path / src.name).write_text(foreign + "\n" + src.read_text(encoding="utf-8"), encoding="utf-8")
    assert parse_all(claude_code, tmp_path / src.name)[0][0].title == "Dark mode for settings"
