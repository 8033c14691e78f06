"""Codex CLI rollouts: three generations of the log, forks, rollbacks, and a
log that is cut short or has one broken line."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, ParseStats, codex
from tests.importers_support import FIXTURES, parse_all, texts

from .conftest import run_cli
from .test_importers_claude_code import (
    assert_detection_is_exclusive,
    assert_refused_store_unchanged,
    assert_zip_and_folder_import_once,
    break_line,
    cli_import,
    detected,
)

BASE = FIXTURES / "codex"
S1 = "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5"
ROLLOUT = BASE / "modern" / "sessions" / "2025" / "10" / "29" / f"rollout-2025-10-28T17-59-38-{S1}.jsonl"


def test_envelope_log_reads_display_events_once():
    convs, stats = parse_all(codex, BASE / "modern")
    conv = convs[0]
    assert conv.external_id == S1 and conv.title == "Why is the cart total off by one cent?"
    # injected context and developer messages out; the answer once, not twice; commentary out
    assert texts(conv) == [
        "Why is the cart total off by one cent?",
        "Floats: sum the prices as Decimal, or in cents.",
        "Do it in cents",
        "Done: prices are integers of cents now.",
    ]
    assert [m.speaker for m in conv.messages] == ["User", "Codex", "User", "Codex"]
    assert conv.messages[0].timestamp == datetime(2025, 10, 29, 0, 59, 38, 318000, tzinfo=UTC)
    assert conv.messages[1].extra == {"model": "gpt-5-codex", "tools": ["shell"]}
    assert conv.messages[3].extra["tools"] == ["apply_patch"]
    assert conv.messages[2].parent_external_id == conv.messages[1].external_id
    assert dict(stats.skipped) == {
        "compaction_summary": 1,
        "other_record": 1,
        "thoughts": 1,
        "commentary": 1,
        "tool": 2,
    }


def test_paginated_log_reads_item_completed():
    conv = parse_all(codex, BASE / "paginated")[0][0]
    assert texts(conv) == [
        "Write a haiku about rain for the footer",
        "Soft rain on the roof\nthe kettle starts its whistle\nnobody hurries",
    ]
    assert conv.messages[0].captions == ("image",)
    assert conv.messages[1].extra["model"] == "gpt-5.2"


def test_bare_log_reads_messages_and_takes_the_session_time():
    convs, stats = parse_all(codex, BASE / "bare")
    conv = convs[0]
    assert conv.external_id == "44444444-4444-4444-8444-444444444444"
    assert texts(conv) == [
        "Rename fetchUser to loadUser everywhere",
        "Renamed in app.ts and api.ts; tests pass.",
        "thanks",
        "You're welcome.",
    ]  # IDE context before the request marker dropped
    assert {m.timestamp for m in conv.messages} == {datetime(2025, 5, 7, 17, 24, 21, 123000, tzinfo=UTC)}
    assert len({m.external_id for m in conv.messages}) == 4
    assert stats.skipped["injected"] == 1 and stats.skipped["tool"] == 1


def test_fork_skips_the_replayed_parent_and_marks_the_rolled_back_turn():
    convs, stats = parse_all(codex, BASE / "fork")
    parent, fork = convs
    assert parent.external_id == S1 and fork.external_id == "019a2e00-0000-7000-8000-000000000004"
    assert [(m.text, m.on_main_branch) for m in fork.messages] == [
        ("Try Decimal instead", True),
        ("Switched to Decimal with ROUND_HALF_UP.", True),
        ("Now make it banker's rounding", False),
        ("Using ROUND_HALF_EVEN.", False),
        ("Add a test for 0.1 + 0.2", True),
        ("Added test_decimal_sum.", True),
    ]
    assert fork.messages[4].parent_external_id == fork.messages[1].external_id
    assert stats.skipped["fork_replay"] == 2


def test_ids_are_stable_across_reads():
    first = [m.external_id for m in parse_all(codex, BASE / "modern")[0][0].messages]
    assert first == [m.external_id for m in parse_all(codex, BASE / "modern")[0][0].messages]


def test_renamed_file_detected_by_content(tmp_path):
    for variant in ("modern", "bare", "paginated"):
        src = next((BASE / variant).rglob("*.jsonl"))
        renamed = Path(shutil.copy(src, tmp_path / f"{variant}.txt"))
        assert detected(renamed) == "codex"
        assert texts(parse_all(codex, renamed)[0][0]) == texts(parse_all(codex, src)[0][0])


def test_damaged_first_line_falls_back_to_the_id_in_the_file_name(tmp_path):
    damaged = break_line(
        ROLLOUT, tmp_path / ROLLOUT.name, 1, '{"timestamp":"2025-10-29T00:59:38.317Z","type":"session_me'
    )
    convs, stats = parse_all(codex, damaged)
    assert convs[0].external_id == S1 and len(convs[0].messages) == 4
    assert [p["where"] for p in stats.places] == ["line 1"]


def test_log_cut_short_keeps_what_was_written(tmp_path):
    raw = ROLLOUT.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(raw[: raw.index(b"Done: prices")])
    convs, stats = parse_all(codex, cut)
    assert texts(convs[0])[-1] == "Do it in cents"
    assert stats.places[0]["problem"] == "incomplete last line (the log was still being written)"


def test_one_broken_line_in_the_middle_is_skipped_and_placed(tmp_path):
    broken = break_line(ROLLOUT, tmp_path / "r.jsonl", 13)  # the final answer's event
    convs, stats = parse_all(codex, broken)
    assert "Floats: sum the prices as Decimal, or in cents." not in texts(convs[0])
    assert len(convs[0].messages) == 3
    assert [p["where"] for p in stats.places] == ["line 13"]


def test_mostly_unreadable_file_is_refused(tmp_path):
    junk = tmp_path / "junk.jsonl"
    junk.write_text(ROLLOUT.read_text().splitlines()[0] + "\n" + "nope\n" * 4)
    with ExportSource(junk) as source, pytest.raises(ImportFormatError, match="4 of 5 lines unreadable"):
        list(codex.parse(source, ParseStats()))


def test_detection_is_exclusive():
    assert_detection_is_exclusive("codex")


def test_forcing_the_wrong_format_names_the_right_one(tmp_path):
    session = next((FIXTURES / "claude_code" / "v1").rglob("0a1b*.jsonl"))
    code, _, err = run_cli("import", str(session), "--format", "codex", "--no-embed", "--quiet", home=tmp_path / "home")
    errors = [line for line in err.splitlines() if "error" in line]
    assert code == 1 and len(errors) == 1 and "looks like a claude_code export" in errors[0]
    assert cli_import(ROLLOUT, tmp_path / "home", "--format", "codex")["format"] == "codex"


def test_cli_imports_renamed_rollout_with_broken_line(tmp_path):
    broken = break_line(ROLLOUT, tmp_path / "codex-session.txt", 13)
    report = cli_import(broken, tmp_path / "home")
    assert report["format"] == "codex" and report["messages_added"] == 3
    assert [u["where"] for u in report["unreadable"]] == ["line 13"]


@pytest.mark.parametrize("variant", ["modern", "paginated", "bare", "fork"])
def test_zip_and_folder_through_the_facade(variant, open_memory, tmp_path):
    assert_zip_and_folder_import_once(open_memory, BASE / variant, "codex", tmp_path)


def test_refused_file_leaves_the_store_as_it_was(open_memory, tmp_path):
    junk = tmp_path / ROLLOUT.name
    junk.write_text(ROLLOUT.read_text().splitlines()[0] + "\n" + "{]\n" * 3)
    assert "line 2" in assert_refused_store_unchanged(open_memory, junk, "unreadable")
