"""ChatGPT export: both layouts, branches, multimodal parts, hidden turns, bad input."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, chatgpt
from tests.importers_support import FIXTURES, by_id, copy_fixture, detect_format, parse_all, zip_folder

SINGLE = FIXTURES / "chatgpt" / "single"
SHARDED = FIXTURES / "chatgpt" / "sharded"


def test_single_file_layout_main_branch_then_kept_branches():
    convs, _stats = parse_all(chatgpt, SINGLE)
    assert [c.external_id for c in convs] == ["c-0001", "c-0002", "c-0004", chatgpt.PROFILE_ID]
    assert [(m.text, m.extra) for m in convs[-1].messages] == [
        ("I live in Porto.", {"custom_instructions": "about_user"}),
        ("Be brief.", {"custom_instructions": "how_to_respond"}),
    ]
    lisbon = by_id(convs)["c-0001"]
    assert lisbon.title == "Trip to Lisbon" and lisbon.kind == "chat"
    main = [m for m in lisbon.messages if m.on_main_branch]
    assert [m.external_id for m in main] == ["n3", "n5", "n6", "n10", "n11", "n13"]
    assert [m.text for m in main] == [
        "What should I see in Lisbon in May?",
        "Visit Belém, Alfama and take tram 28.",
        "Is this the tram?",
        "Yes, that is tram 28 &amp; it is yellow.",  # ChatGPT text is kept exactly as exported
        "Thanks, and where do I eat?",  # voice: the transcription becomes the text
        "Try Time Out Market.",
    ]
    off = [m for m in lisbon.messages if not m.on_main_branch]
    assert [(m.external_id, m.text, m.parent_external_id) for m in off] == [
        ("n4", "Belém Tower and the Alfama.", "n3")
    ]
    first = lisbon.messages[0]
    assert first.speaker == "User" and first.role == "user"
    assert first.timestamp == datetime(2024, 5, 1, 8, 0, tzinfo=UTC)
    assert main[1].speaker == "ChatGPT" and main[1].extra == {"model": "gpt-4o"}
    # The image pointer names the file that lies beside the JSON.
    assert main[2].captions == ("image: file-AbC123-tram.png",)
    # Hidden tool turns between n6 and n10 are skipped; the parent link skips them too.
    assert main[3].parent_external_id == "n6"


def test_single_file_skips_are_counted_and_broken_conversation_reported():
    _, stats = parse_all(chatgpt, SINGLE)
    assert dict(stats.skipped) == {
        "hidden": 1,
        "thoughts": 2,
        "tool": 2,
        "system": 1,
        "unreadable": 1,  # the broken conversation, with its place
    }
    assert stats.places[0]["where"].startswith("conversations[2]")
    assert len(stats.errors) == 1
    assert "conversations[2]" in stats.errors[0] and "c-0003" in stats.errors[0]
    assert "mapping" in stats.errors[0]


def test_null_title_null_times_and_missing_current_node():
    convs, _ = parse_all(chatgpt, SINGLE)
    conv = by_id(convs)["c-0002"]
    assert conv.title == "Always answer in French."  # no title: the first message's start
    assert [(m.role, m.speaker, m.text) for m in conv.messages] == [
        ("system", "System", "Always answer in French."),  # is_user_system_message: kept
        ("user", "User", "hello there"),
        ("assistant", "ChatGPT", "Bonjour !"),
    ]
    assert all(m.timestamp is None for m in conv.messages)
    assert all(m.on_main_branch for m in conv.messages)


def test_edit_branch_shown_path_first():
    convs, _ = parse_all(chatgpt, SINGLE)
    conv = by_id(convs)["c-0004"]
    assert [(m.external_id, m.on_main_branch) for m in conv.messages] == [
        ("q2", True),
        ("a2", True),
        ("q1", False),
        ("a1", False),
    ]


def test_sharded_layout_with_object_top_level_and_duplicates(tmp_path):
    convs, stats = parse_all(chatgpt, SHARDED)
    assert [c.external_id for c in convs] == ["c-0100", "c-0101", "c-0102"]
    assert stats.skipped["duplicate_conversation"] == 1
    garden = by_id(convs)["c-0102"].messages[0]
    assert garden.text == "What plant is this?"
    assert garden.captions == ("image: IMG_2041.jpeg",)
    assert garden.attachments == ("IMG_2041.jpeg",)


@pytest.mark.parametrize("folder", [SINGLE, SHARDED])
def test_zip_equals_folder_and_detection(tmp_path, folder):
    archive = zip_folder(folder, tmp_path / "abc123-2026-01-02-03-04-05-def456.zip")
    from_zip, _ = parse_all(chatgpt, archive)
    from_folder, _ = parse_all(chatgpt, folder)
    assert from_zip == from_folder
    with ExportSource(archive) as source:
        assert detect_format(source) == "chatgpt"
    with ExportSource(folder / ("conversations.json" if folder == SINGLE else "conversations-000.json")) as source:
        assert chatgpt.detect(source)


def test_reimport_gives_identical_ids():
    first, _ = parse_all(chatgpt, SINGLE)
    second, _ = parse_all(chatgpt, SINGLE)
    assert [(c.external_id, [m.external_id for m in c.messages]) for c in first] == [
        (c.external_id, [m.external_id for m in c.messages]) for c in second
    ]


def test_truncated_file_raises_located_error(tmp_path):
    folder = copy_fixture("chatgpt/single", tmp_path / "export")
    path = folder / "conversations.json"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFormatError) as info:
        parse_all(chatgpt, folder)
    message = str(info.value)
    assert "conversations.json" in message and "chatgpt" in message and "conversations[" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"", "empty file"),
        (b"[]", "no conversations"),
        (b'{"conversations": []}', "no conversations"),
        (b'"just a string"', "expected a JSON list"),
        (b"[1, 2, 3]", "all 3 conversations are broken"),
    ],
)
def test_empty_or_wrong_content(tmp_path, content, problem):
    (tmp_path / "conversations.json").write_bytes(content)
    with pytest.raises(ImportFormatError, match=problem):
        parse_all(chatgpt, tmp_path)


def test_claude_export_not_claimed(tmp_path):
    with ExportSource(FIXTURES / "claude" / "export") as source:
        assert not chatgpt.detect(source)


def test_not_claimed_without_mapping(tmp_path):
    (tmp_path / "conversations.json").write_text(json.dumps([{"sample_id": "x", "conversation": {}}]))
    with ExportSource(tmp_path) as source:
        assert not chatgpt.detect(source)
