"""Open WebUI chat exports: the history tree over the flat list, embedded
reasoning and tool blocks, three generations of the file, and messages that
cannot be read."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, ParseStats, chatgpt, open_webui
from tests.importers_support import FIXTURES, by_id, parse_all, texts

from .test_importers_claude_code import (
    assert_detection_is_exclusive,
    assert_refused_store_unchanged,
    assert_zip_and_folder_import_once,
    cli_import,
    detected,
)

BASE = FIXTURES / "open_webui"
USER_EXPORT = BASE / "user_export" / "chat-export-1730200000000.json"
SOUP = "3f1c2a9e-0c1d-4e55-9a0b-7d2f3c4b5a61"
HELLO = "8b2d4e6f-1a3c-4b5d-8e7f-9a0b1c2d3e4f"


def test_history_tree_every_branch_kept_the_shown_one_main():
    convs, stats = parse_all(open_webui, BASE / "user_export")
    soup = by_id(convs)[SOUP]
    assert soup.title == "Leek soup"
    assert [(m.external_id, m.on_main_branch, m.parent_external_id) for m in soup.messages] == [
        ("m1", True, None),
        ("m3", True, "m1"),
        ("m4", True, "m3"),
        ("m5", True, "m4"),
        ("m2", False, "m1"),  # the regenerated-away answer
    ]
    assert texts(soup)[:2] == [
        "Give me a quick leek soup recipe",
        "Leek soup: leeks, potatoes, stock; simmer and blend.",
    ]
    assert (
        soup.messages[4].text == "Sweat two leeks, add a potato and stock, simmer 20 minutes, blend."
    )  # reasoning cut
    assert soup.messages[1].speaker == "Llama 3.1 8B" and soup.messages[0].speaker == "User"
    assert soup.messages[1].extra == {"model": "llama3.1:8b", "tools": ["web_search"]}
    freeze = soup.messages[2]
    assert freeze.text == "Can I freeze it?" and freeze.attachments == ("fridge-manual.pdf",)
    assert freeze.captions == ("image", "image") and "base64" not in freeze.text
    assert soup.messages[0].timestamp == datetime.fromtimestamp(1730000000, UTC)
    assert dict(stats.skipped) == {"tool": 1, "thoughts": 1, "system": 1, "error": 1, "empty": 1}


def test_parallel_answers_of_two_models_and_a_default_title():
    hello = by_id(parse_all(open_webui, BASE / "user_export")[0])[HELLO]
    assert hello.title == "Say hello in French"  # "New Chat" is no title
    assert [(m.speaker, m.text, m.on_main_branch) for m in hello.messages] == [
        ("User", "Say hello in French", True),
        ("GPT-4o", "Bonjour !", True),
        ("Mistral 7B", "Salut !", False),
    ]


def test_newer_admin_export_output_items_content_parts_and_no_current_id():
    convs, stats = parse_all(open_webui, BASE / "admin_export")
    capitals = by_id(convs)["c0ffee00-0000-4000-8000-000000000001"]
    assert texts(capitals) == ["What is the capital of Australia?", "Canberra.", "And of New Zealand?", "Wellington."]
    assert all(m.on_main_branch for m in capitals.messages)  # the shown branch found by following the last child
    assert capitals.messages[1].extra["tools"] == ["wiki_lookup"]
    assert capitals.messages[2].timestamp == datetime.fromtimestamp(1760000060, UTC)  # milliseconds recognised
    assert texts(by_id(convs)["c0ffee00-0000-4000-8000-000000000002"]) == ["Remember: dentist on Friday 10:30"]
    assert dict(stats.skipped) == {"thoughts": 1, "tool": 1}


def test_legacy_export_of_bare_chat_objects():
    conv = parse_all(open_webui, BASE / "legacy")[0][0]
    assert (conv.external_id, conv.title) == ("legacy-1", "Old chat")
    assert [(m.external_id, m.speaker, m.text) for m in conv.messages] == [
        ("o1", "User", "What's a good name for a cat?"),
        ("o2", "llama2", "Miso."),
    ]


def test_renamed_file_detected_by_content_not_chatgpt(tmp_path):
    renamed = Path(shutil.copy(USER_EXPORT, tmp_path / "conversations.json"))  # even under ChatGPT's name
    assert detected(renamed) == "open_webui"
    with ExportSource(renamed) as source:
        assert not chatgpt.detect(source)
    assert parse_all(open_webui, renamed)[0] == parse_all(open_webui, USER_EXPORT)[0]


def test_partial_export_missing_optional_keys(tmp_path):
    rows = json.loads(USER_EXPORT.read_text())
    for row in rows:
        for key in ("share_id", "archived", "pinned", "meta", "folder_id", "updated_at"):
            row.pop(key)
        row["chat"]["history"].pop("currentId")
        for msg in row["chat"]["history"]["messages"].values():
            msg.pop("timestamp")
            msg.pop("childrenIds")
    (tmp_path / "p.json").write_text(json.dumps(rows))
    convs, stats = parse_all(open_webui, tmp_path / "p.json")
    soup = by_id(convs)[SOUP]
    assert len(soup.messages) == 5 and all(m.timestamp is None for m in soup.messages)
    assert stats.places == []


def test_export_cut_short_keeps_the_chats_before_the_cut(tmp_path):
    raw = USER_EXPORT.read_bytes()
    cut = tmp_path / "chat-export-1.json"
    cut.write_bytes(raw[: raw.index(b"Say hello in French")])
    convs, stats = parse_all(open_webui, cut)
    assert [c.external_id for c in convs] == [SOUP]
    assert len(stats.places) == 1 and stats.places[0]["where"].startswith("chats[1]")


def test_one_unreadable_message_is_skipped_and_placed(tmp_path):
    rows = json.loads(USER_EXPORT.read_text())
    rows[0]["chat"]["history"]["messages"]["m4"]["content"] = {"oops": 1}
    rows[1]["chat"]["history"]["messages"]["n3"]["timestamp"] = "noon"
    (tmp_path / "b.json").write_text(json.dumps(rows))
    convs, stats = parse_all(open_webui, tmp_path / "b.json")
    soup = by_id(convs)[SOUP]
    assert [m.external_id for m in soup.messages] == ["m1", "m3", "m5", "m2"]
    assert soup.messages[2].parent_external_id == "m3"  # the chain closes over the skipped message
    assert [p["where"] for p in stats.places] == [
        "chats[0].chat.history.messages['m4']",
        "chats[1].chat.history.messages['n3']",
    ]


def test_mostly_unreadable_file_is_refused(tmp_path):
    rows = json.loads(USER_EXPORT.read_text())
    for msg in rows[0]["chat"]["history"]["messages"].values():
        msg["role"] = 7
    for msg in rows[1]["chat"]["history"]["messages"].values():
        msg["content"] = ["not", "parts"] if msg["id"] != "n1" else msg["content"]
        msg["timestamp"] = "x"
    (tmp_path / "r.json").write_text(json.dumps(rows))
    with ExportSource(tmp_path / "r.json") as source, pytest.raises(ImportFormatError, match="messages unreadable"):
        list(open_webui.parse(source, ParseStats()))


def test_detection_is_exclusive():
    assert_detection_is_exclusive("open_webui")


def test_cli_imports_renamed_export_and_reports_the_path_of_a_bad_message(tmp_path):
    rows = json.loads(USER_EXPORT.read_text())
    rows[0]["chat"]["history"]["messages"]["m4"]["role"] = None
    bad = tmp_path / "webui-backup.json"
    bad.write_text(json.dumps(rows))
    report = cli_import(bad, tmp_path / "home")
    assert report["format"] == "open_webui" and report["conversations"] == 2 and report["messages_added"] == 7
    assert [u["where"] for u in report["unreadable"]] == ["chats[0].chat.history.messages['m4']"]


@pytest.mark.parametrize("variant", ["user_export", "admin_export", "legacy"])
def test_zip_and_folder_through_the_facade(variant, open_memory, tmp_path):
    assert_zip_and_folder_import_once(open_memory, BASE / variant, "open_webui", tmp_path)


def test_refused_file_leaves_the_store_as_it_was(open_memory, tmp_path):
    rows = json.loads(USER_EXPORT.read_text())
    for row in rows:
        for msg in row["chat"]["history"]["messages"].values():
            msg["role"] = "robot"
    bad = tmp_path / "chat-export-2.json"
    bad.write_text(json.dumps(rows))
    assert "chats[0]" in assert_refused_store_unchanged(open_memory, bad, "unreadable")
