"""Telegram exports whose messages carry no ``id`` (some tools and older
clients leave it out): each message gets an id made from its chat, time,
sender, text and rank among identical ones, instead of the file being refused."""

from __future__ import annotations

import json
from pathlib import Path

from rawrag_tui.importers import telegram
from tests.importers_support import parse_all, texts


def _msg(date: int, sender: str, text: object, **more: object) -> dict:
    return {"type": "message", "date": "2024-06-01T12:00:00", "date_unixtime": str(date),
            "from": sender, "from_id": f"user{sum(map(ord, sender))}", "text": text, **more}


SINGLE = {"name": "Mum", "type": "personal_chat", "id": 4242, "messages": [
    _msg(1717236000, "Mum", "Did you get the tickets?"),
    _msg(1717236060, "Ann", "Yes"),
    _msg(1717236060, "Ann", "Yes"),  # the same words in the same minute: two messages
    _msg(1717236120, "Ann", [{"type": "plain", "text": "Train at "}, {"type": "bold", "text": "9:15"}]),
    _msg(1717236180, "Mum", "", photo="photos/photo_1@01-06-2024.jpg"),
    {"type": "service", "date": "2024-06-01T12:04:00", "date_unixtime": "1717236240",
     "actor": "Mum", "action": "pin_message"},
]}


def _write(tmp_path: Path, obj: object, name: str = "result.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return path


def test_single_chat_without_message_ids_is_read_with_stable_ids(tmp_path):
    path = _write(tmp_path, SINGLE)
    [conv], stats = parse_all(telegram, path)
    assert texts(conv) == ["Did you get the tickets?", "Yes", "Yes", "Train at 9:15", ""]
    ids = [m.external_id for m in conv.messages]
    assert len(set(ids)) == 5
    assert stats.unreadable == 0 and stats.skipped["system"] == 1
    assert ids == [m.external_id for m in parse_all(telegram, path)[0][0].messages]


def test_later_export_of_the_same_chat_keeps_the_ids_and_adds_the_new(tmp_path, open_memory):
    first = _write(tmp_path, SINGLE, "first.json")
    later = dict(SINGLE, messages=SINGLE["messages"] + [_msg(1717300000, "Mum", "Safe trip!")])
    second = _write(tmp_path, later, "second.json")
    old = [m.external_id for m in parse_all(telegram, first)[0][0].messages]
    new = [m.external_id for m in parse_all(telegram, second)[0][0].messages]
    assert new[:5] == old
    mem = open_memory()
    assert mem.import_path(first, embed=False).messages_added == 5
    assert mem.import_path(second, embed=False).messages_added == 1


def test_full_export_mixing_messages_with_and_without_ids(tmp_path):
    with_ids = [dict(_msg(1717236000 + i, "Bo", f"route {i}"), id=i + 1) for i in range(3)]
    export = {"about": "Here is the data you requested.", "chats": {"list": [
        {"name": "Climbing club", "type": "private_supergroup", "id": 77, "messages": with_ids},
        {"name": "Mum", "type": "personal_chat", "id": 4242, "messages": SINGLE["messages"]},
    ]}}
    convs, stats = parse_all(telegram, _write(tmp_path, export))
    club, mum = convs
    assert [m.external_id for m in club.messages] == ["1", "2", "3"]
    assert len(mum.messages) == 5 and stats.unreadable == 0
    # the same message in another chat gets another id: the chat is part of it
    other = dict(SINGLE, id=4343)
    [elsewhere], _ = parse_all(telegram, _write(tmp_path, other, "other.json"))
    assert {m.external_id for m in elsewhere.messages}.isdisjoint(m.external_id for m in mum.messages)


def test_headerless_chat_without_ids(tmp_path):
    bare = {"messages": [_msg(1717236000, "Ann", "hi"), _msg(1717236001, "Bo", "hi"),
                         _msg(1717236002, "Ann", "hi")]}
    [conv], _ = parse_all(telegram, _write(tmp_path, bare, "messages.json"))
    assert conv.external_id.startswith("people:") and conv.title == "Telegram chat: Ann, Bo"
    assert len({m.external_id for m in conv.messages}) == 3
