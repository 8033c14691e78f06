"""Open WebUI: one chat exported on its own (the chat's menu > Download >
Export chat), as the bare ``chat`` object or as one row, at the top level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, ParseStats, open_webui
from tests.importers_support import parse_all, texts

from .test_importers_claude_code import assert_refused_store_unchanged, detected

NODES = {
    "u1": {"id": "u1", "parentId": None, "childrenIds": ["a1", "a2"], "role": "user",
           "content": "Wie lange kocht ein Ei?", "timestamp": 1731000000, "models": ["llama3.1:8b"]},
    "a1": {"id": "a1", "parentId": "u1", "childrenIds": [], "role": "assistant",
           "content": "Sieben Minuten für wachsweich.", "timestamp": 1731000004,
           "model": "llama3.1:8b", "modelName": "Llama 3.1 8B", "done": True},
    "a2": {"id": "a2", "parentId": "u1", "childrenIds": [], "role": "assistant",
           "content": "Etwa 6 bis 10 Minuten.", "timestamp": 1731000009,
           "model": "llama3.1:8b", "modelName": "Llama 3.1 8B", "done": True},
}
CHAT = {
    "id": "", "title": "Eier kochen", "models": ["llama3.1:8b"], "params": {}, "tags": [], "files": [],
    "timestamp": 1731000000123,
    "history": {"currentId": "a2", "messages": NODES},
    "messages": [NODES["u1"], NODES["a2"]],
}


def _write(tmp_path: Path, obj: object, name: str = "chat-export.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return path


def test_bare_chat_object_is_read_with_its_tree(tmp_path):
    path = _write(tmp_path, CHAT, "Eier kochen.json")
    assert detected(path) == "open_webui"
    [conv], _ = parse_all(open_webui, path)
    assert conv.title == "Eier kochen"
    assert [(m.text, m.on_main_branch) for m in conv.messages] == [
        ("Wie lange kocht ein Ei?", True),
        ("Etwa 6 bis 10 Minuten.", True),
        ("Sieben Minuten für wachsweich.", False),
    ]
    # no id in the chat object: a stable one from its title and time
    again, _ = parse_all(open_webui, path)
    assert again[0].external_id == conv.external_id


def test_one_row_on_its_own_keeps_the_row_id(tmp_path):
    row = {"id": "c0ffee00-0000-4000-8000-000000000001", "user_id": "u-9", "title": "Eier kochen",
           "chat": CHAT, "created_at": 1731000000, "updated_at": 1731000009, "archived": False}
    path = _write(tmp_path, row)
    assert detected(path) == "open_webui"
    [conv], _ = parse_all(open_webui, path)
    assert conv.external_id == row["id"]
    assert texts(conv)[:2] == ["Wie lange kocht ein Ei?", "Etwa 6 bis 10 Minuten."]


def test_bare_chat_object_with_only_the_flat_list_and_models(tmp_path):
    flat = {"title": "Eier", "models": ["llama3.1:8b"], "timestamp": 1731000000123,
            "messages": [{"role": "user", "content": "Und Wachteleier?", "timestamp": 1731000100},
                         {"role": "assistant", "content": "Zweieinhalb Minuten.", "timestamp": 1731000104,
                          "model": "llama3.1:8b"}]}
    path = _write(tmp_path, flat)
    assert detected(path) == "open_webui"
    [conv], _ = parse_all(open_webui, path)
    assert [(m.speaker, m.text) for m in conv.messages] == [
        ("User", "Und Wachteleier?"), ("llama3.1:8b", "Zweieinhalb Minuten.")
    ]


def test_plain_role_content_list_is_not_taken_for_open_webui(tmp_path):
    path = _write(tmp_path, {"messages": [{"role": "user", "content": "hi"}]})
    assert detected(path) != "open_webui"


def test_unreadable_single_chat_is_one_line_and_nothing_is_written(tmp_path, open_memory):
    broken = dict(CHAT, history={"currentId": "x", "messages": {"x": {"id": "x", "role": "wizard"}}})
    path = _write(tmp_path, broken)
    with ExportSource(path) as source, pytest.raises(ImportFormatError, match="chat"):
        list(open_webui.parse(source, ParseStats()))
    assert_refused_store_unchanged(open_memory, path, "unreadable")
