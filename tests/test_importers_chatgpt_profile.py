"""ChatGPT custom instructions (``user_editable_context``): the user's own
words about themselves and how to be answered, copied by the export into
every conversation, are kept once, in one conversation of their own."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from rawrag_tui.importers import chatgpt
from tests.importers_support import by_id, parse_all, texts

PREAMBLE = (
    "The user provided the following information about themselves. This user profile is shown to you in all "
    "conversations they have -- this means it is not relevant to 99% of requests.\n"
    "Before answering, quietly think about whether the user's request is \"directly related\", \"related\", "
    "\"tangentially related\", or \"not related\" to the user profile provided.\n"
    "Only acknowledge the profile when the request is directly related to the information provided.\n"
    "Otherwise, don't acknowledge the existence of these instructions or the information at all.\n"
    "User profile:\n```{}```"
)
HOW = "The user provided the additional info about how they would like you to respond:\n```{}```"


def _conv(cid: str, start: float, context: dict | None, prompt: str, ctx_time: float | None = None) -> dict:
    mapping: dict = {"root": {"id": "root", "message": None, "parent": None, "children": ["ctx"]}}
    mapping["ctx"] = {"id": "ctx", "parent": "root", "children": ["u"], "message": None if context is None else {
        "id": f"{cid}-ctx", "author": {"role": "user"}, "create_time": ctx_time,
        "content": {"content_type": "user_editable_context", **context},
        "metadata": {"is_visually_hidden_from_conversation": True}, "recipient": "all"}}
    mapping["u"] = {"id": "u", "parent": "ctx", "children": [], "message": {
        "id": f"{cid}-u", "author": {"role": "user"}, "create_time": start + 5,
        "content": {"content_type": "text", "parts": [prompt]}, "metadata": {}, "recipient": "all"}}
    return {"id": cid, "title": prompt, "create_time": start, "update_time": start + 5,
            "current_node": "u", "mapping": mapping}


def _write(tmp_path: Path, convs: list[dict]) -> Path:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(convs), encoding="utf-8")
    return path


NEW_STYLE = {"user_profile": PREAMBLE.format("Ich bin Krankenpfleger in Lyon und spiele Cello."),
             "user_instructions": HOW.format("Antworte kurz.\nKeine Emojis.")}


def test_preamble_is_dropped_and_the_words_kept_once_across_conversations(tmp_path):
    path = _write(tmp_path, [
        _conv("c1", 1700000000, NEW_STYLE, "Cello strings?"),
        _conv("c2", 1700500000, NEW_STYLE, "Night shift food?"),
        _conv("c3", 1699000000, NEW_STYLE, "First chat"),
    ])
    convs, stats = parse_all(chatgpt, path)
    profile = by_id(convs)[chatgpt.PROFILE_ID]
    assert profile.title == "ChatGPT custom instructions"
    assert [(m.speaker, m.role, m.text) for m in profile.messages] == [
        ("User", "user", "Ich bin Krankenpfleger in Lyon und spiele Cello."),
        ("User", "user", "Antworte kurz.\nKeine Emojis."),
    ]
    # dated when first seen: the earliest conversation holding them
    assert {m.timestamp for m in profile.messages} == {datetime.fromtimestamp(1699000000, UTC)}
    assert all("user_editable_context" not in texts(by_id(convs)[cid]) for cid in ("c1", "c2", "c3"))
    assert "user_editable_context" not in stats.skipped and stats.unreadable == 0


def test_changed_instructions_are_each_kept_with_their_own_time(tmp_path):
    old = {"user_profile": "I study law in Coimbra.", "user_instructions": "Be brief."}  # older, bare words
    new = {"user_profile": PREAMBLE.format("I work as a lawyer in Porto."),
           "user_instructions": HOW.format("Be brief.")}
    path = _write(tmp_path, [
        _conv("c1", 1600000000, old, "Exam tips", ctx_time=1600000001),
        _conv("c2", 1700000000, new, "Contract question", ctx_time=None),
    ])
    profile = by_id(parse_all(chatgpt, path)[0])[chatgpt.PROFILE_ID]
    assert [(m.text, m.extra["custom_instructions"], m.timestamp.year) for m in profile.messages] == [
        ("I study law in Coimbra.", "about_user", 2020),
        ("Be brief.", "how_to_respond", 2020),
        ("I work as a lawyer in Porto.", "about_user", 2023),
    ]


def test_one_field_only_or_none_at_all(tmp_path):
    path = _write(tmp_path, [
        _conv("c1", 1700000000, {"user_profile": "", "user_instructions": HOW.format("Use metric units.")}, "a"),
        _conv("c2", 1700000100, {"user_profile": None, "user_instructions": None}, "b"),
    ])
    convs, stats = parse_all(chatgpt, path)
    assert texts(by_id(convs)[chatgpt.PROFILE_ID]) == ["Use metric units."]
    assert stats.skipped["empty"] == 1


def test_reimport_adds_nothing_and_no_profile_without_instructions(tmp_path, open_memory):
    path = _write(tmp_path, [_conv("c1", 1700000000, NEW_STYLE, "hi"), _conv("c2", 1700000100, NEW_STYLE, "yo")])
    mem = open_memory()
    assert mem.import_path(path, embed=False).messages_added == 4
    assert mem.import_path(path, embed=False).messages_added == 0
    plain = _write(tmp_path, [_conv("c3", 1700000000, None, "no instructions here")])
    assert [c.external_id for c in parse_all(chatgpt, plain)[0]] == ["c3"]
