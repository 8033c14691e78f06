"""Claude.ai export: content blocks, branches from parent uuids, attachments."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, chatgpt, claude
from tests.importers_support import FIXTURES, by_id, detect_format, parse_all, texts, zip_folder

EXPORT = FIXTURES / "claude" / "export"


def test_branches_rebuilt_newest_leaf_shown():
    convs, _ = parse_all(claude, EXPORT)
    assert [c.external_id for c in convs] == ["c1-uuid", "c2-uuid"]
    conv = by_id(convs)["c1-uuid"]
    assert conv.title == "Rust lifetimes" and conv.kind == "chat"
    assert [(m.external_id, m.on_main_branch, m.parent_external_id) for m in conv.messages] == [
        ("h1", True, None),
        ("a1", True, "h1"),
        ("h2", True, "a1"),
        ("a2b", True, "h2"),
        ("a2a", False, "h2"),
    ]
    assert texts(conv) == [
        "Explain lifetimes in Rust",
        "A lifetime is how long a reference stays valid.",  # thinking block left out
        "See my notes",
        "Let me search.\n\nFound it: the Rust book, chapter 10.",  # tool blocks left out
        "First try at an answer.",
    ]
    assert [m.speaker for m in conv.messages[:2]] == ["User", "Claude"]
    assert conv.messages[2].attachments == ("notes.txt",)
    assert conv.messages[0].timestamp == datetime(2025, 2, 1, 10, tzinfo=UTC)


def test_old_linear_export_null_time_and_files_only_message():
    conv = by_id(parse_all(claude, EXPORT)[0])["c2-uuid"]
    assert conv.title == "What is in this photo of my garden?"  # empty name
    assert [m.parent_external_id for m in conv.messages] == [None, "x1", "x2"]
    assert conv.messages[0].timestamp is None
    assert (conv.messages[2].text, conv.messages[2].attachments) == ("", ("second.jpg",))


def test_skips_counted_and_broken_conversation_reported():
    _, stats = parse_all(claude, EXPORT)
    assert dict(stats.skipped) == {"tool": 2, "thoughts": 1, "empty_conversation": 1, "unreadable": 1}
    assert len(stats.errors) == 1 and "conversations[2]" in stats.errors[0] and "c3-uuid" in stats.errors[0]


def test_zip_detection_and_not_chatgpt(tmp_path):
    archive = zip_folder(EXPORT, tmp_path / "data-2025-02-03-batch-0000.zip")
    assert parse_all(claude, archive)[0] == parse_all(claude, EXPORT)[0]
    with ExportSource(archive) as source:
        assert detect_format(source) == "claude"
        assert not chatgpt.detect(source)


def test_chatgpt_export_not_claimed():
    with ExportSource(FIXTURES / "chatgpt" / "single") as source:
        assert not claude.detect(source)


@pytest.mark.parametrize("content, problem", [
    (b"[]", "no conversations"),
    (b"{}", "all 1 conversations are broken"),
    (b'"text"', "expected a JSON array"),
    (b'[{"uuid": ', "malformed JSON"),
])
def test_bad_files(tmp_path, content, problem):
    (tmp_path / "conversations.json").write_bytes(content)
    with pytest.raises(ImportFormatError, match=problem):
        parse_all(claude, tmp_path)
