"""Codex rollouts whose two sides are written by different record families.

Some real rollouts keep the typed prompt only as an ``event_msg``
``user_message`` and the answer only as a ``response_item`` message (or the
other way round). Each side is read from the family that has it, once.
"""

from __future__ import annotations

import json
from pathlib import Path

from rawrag_tui.importers import codex
from tests.importers_support import parse_all, texts

SID = "019b0000-1111-7222-8333-444455556666"


def _rollout(tmp_path: Path, *records: tuple[str, dict]) -> Path:
    lines = [{"timestamp": "2025-11-02T10:00:00.000Z", "type": "session_meta",
              "payload": {"id": SID, "timestamp": "2025-11-02T10:00:00.000Z", "cwd": "/w"}}]
    for i, (kind, payload) in enumerate(records, 1):
        lines.append({"timestamp": f"2025-11-02T10:00:{i:02d}.000Z", "type": kind, "payload": payload})
    path = tmp_path / f"rollout-2025-11-02T10-00-00-{SID}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _user_event(text: str) -> tuple[str, dict]:
    return ("event_msg", {"type": "user_message", "message": text, "images": []})


def _agent_event(text: str) -> tuple[str, dict]:
    return ("event_msg", {"type": "agent_message", "message": text})


def _item(role: str, text: str) -> tuple[str, dict]:
    part = "input_text" if role != "assistant" else "output_text"
    return ("response_item", {"type": "message", "role": role, "content": [{"type": part, "text": text}]})


def test_prompts_only_as_events_answers_only_as_response_items(tmp_path):
    path = _rollout(
        tmp_path,
        _item("user", "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"),
        _user_event("Why does the build fail on CI only?"),
        _item("assistant", "CI runs Python 3.12; the lock file pins 3.11 wheels."),
        _user_event("Pin it to 3.12 then"),
        _item("assistant", "Done: the lock file is regenerated for 3.12."),
    )
    [conv], stats = parse_all(codex, path)
    assert [(m.role, m.text) for m in conv.messages] == [
        ("user", "Why does the build fail on CI only?"),
        ("assistant", "CI runs Python 3.12; the lock file pins 3.11 wheels."),
        ("user", "Pin it to 3.12 then"),
        ("assistant", "Done: the lock file is regenerated for 3.12."),
    ]
    assert conv.title == "Why does the build fail on CI only?"
    assert stats.skipped["injected"] == 1


def test_both_families_for_both_sides_import_each_turn_once(tmp_path):
    path = _rollout(
        tmp_path,
        _item("user", "Rename the flag"),
        _user_event("Rename the flag"),
        _item("assistant", "Renamed --fast to --quick."),
        _agent_event("Renamed --fast to --quick."),
        _item("user", "and the docs"),
        _user_event("and the docs"),
        _agent_event("Docs updated."),
        _item("assistant", "Docs updated."),
    )
    [conv], _ = parse_all(codex, path)
    assert texts(conv) == ["Rename the flag", "Renamed --fast to --quick.", "and the docs", "Docs updated."]


def test_answers_only_as_events_prompts_only_as_response_items(tmp_path):
    path = _rollout(
        tmp_path,
        _item("user", "List the open ports"),
        _agent_event("22 and 8080 are open."),
        _item("user", "Close 8080"),
        _agent_event("Closed; only 22 remains."),
    )
    [conv], _ = parse_all(codex, path)
    assert [(m.speaker, m.text) for m in conv.messages] == [
        ("User", "List the open ports"),
        ("Codex", "22 and 8080 are open."),
        ("User", "Close 8080"),
        ("Codex", "Closed; only 22 remains."),
    ]


def test_prompts_as_events_and_nothing_else_still_import(tmp_path):
    path = _rollout(tmp_path, _user_event("first prompt, the session crashed before any answer"))
    [conv], _ = parse_all(codex, path)
    assert [(m.role, m.text) for m in conv.messages] == [
        ("user", "first prompt, the session crashed before any answer")
    ]
