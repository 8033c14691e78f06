"""Slack: bots named from wherever the export names them, and user ids in
file comments resolved through users.json like those in messages."""

from __future__ import annotations

import json
from pathlib import Path

from rawrag_tui.importers import slack
from tests.importers_support import parse_all

USERS = [
    {"id": "U064SRKPD", "name": "ann.k", "profile": {"display_name": "Ann", "real_name": "Ann Kowalski"}},
    {"id": "U0BOBBBBB", "name": "bob", "profile": {"display_name": "", "real_name": "Bob Stone"}},
    {"id": "U0CIBOT01", "name": "ci-bot", "is_bot": True,
     "profile": {"bot_id": "B0CIBOT01", "real_name": "CI Bot", "display_name": ""}},
]


def _export(tmp_path: Path, day: list[dict], **extra: object) -> Path:
    root = tmp_path / "ws"
    (root / "general").mkdir(parents=True)
    (root / "users.json").write_text(json.dumps(USERS), encoding="utf-8")
    (root / "channels.json").write_text(json.dumps([{"id": "C01", "name": "general"}]), encoding="utf-8")
    (root / "general" / "2016-01-20.json").write_text(json.dumps(day), encoding="utf-8")
    for name, obj in extra.items():
        (root / f"{name}.json").write_text(json.dumps(obj), encoding="utf-8")
    return root


def _bot(ts: str, bot_id: str, text: str, **more: object) -> dict:
    return {"type": "message", "subtype": "bot_message", "bot_id": bot_id, "text": text, "ts": ts, **more}


def _speakers(root: Path) -> list[tuple[str, str]]:
    [conv], _ = parse_all(slack, root)
    return [(m.speaker, m.text) for m in conv.messages]


def test_bot_named_from_bot_profile_from_its_user_and_unnamed_kept_by_id(tmp_path):
    root = _export(tmp_path, [
        _bot("1453327839.000002", "B0PROFILE", "Build 41 passed", bot_profile={"id": "B0PROFILE", "name": "jenkins"}),
        _bot("1453327840.000002", "B0CIBOT01", "Deployed to staging"),
        _bot("1453327841.000002", "B0UNKNOWN", "ping"),
    ])
    assert _speakers(root) == [
        ("jenkins", "Build 41 passed"), ("CI Bot", "Deployed to staging"), ("bot B0UNKNOWN", "ping")
    ]


def test_bot_named_from_the_integration_logs(tmp_path):
    logs = [
        {"user_id": "U064SRKPD", "user_name": "ann.k", "bot_id": "B0JL6RASU", "service_type": "Bot",
         "service_name": "standup-reminder", "date": "1453300000", "change_type": "added"},
        {"user_id": "U064SRKPD", "user_name": "ann.k", "bot_id": "B0GITHUB1", "service_type": "GitHub",
         "date": "1453300001", "change_type": "enabled", "channel": "general"},
        {"user_id": "U064SRKPD", "user_name": "ann.k", "service_id": "1234", "service_type": "Google Drive",
         "date": "1453300002", "change_type": "added"},
    ]
    day = [_bot("1453327839.000002", "B0JL6RASU", "Standup in 5"),
           _bot("1453327899.000002", "B0GITHUB1", "PR #12 merged")]
    assert _speakers(_export(tmp_path, day, integration_logs=logs)) == [
        ("standup-reminder", "Standup in 5"), ("GitHub", "PR #12 merged")
    ]
    # the {"logs": [...]} wrapper of the API's answer reads the same
    other = _export(tmp_path / "b", day, integration_logs={"ok": True, "logs": logs})
    assert _speakers(other)[0][0] == "standup-reminder"


def test_old_file_comment_author_and_mentions_resolved(tmp_path):
    day = [{
        "type": "message", "subtype": "file_comment", "ts": "1453327839.000003", "is_intro": False,
        "text": "<@U064SRKPD> commented on <@U0BOBBBBB>’s file <https://t.slack.com/files/bob/F1/plan.pdf|plan.pdf>: "
                "looks good, <@U0BOBBBBB>",
        "file": {"id": "F1", "name": "plan.pdf", "user": "U0BOBBBBB"},
        "comment": {"id": "Fc1", "created": 1453327839, "user": "U064SRKPD", "comment": "looks good, <@U0BOBBBBB>"},
    }]
    [conv], _ = parse_all(slack, _export(tmp_path, day))
    [msg] = conv.messages
    assert msg.speaker == "Ann"
    assert msg.text == ("@Ann commented on @Bob Stone’s file plan.pdf (https://t.slack.com/files/bob/F1/plan.pdf): "
                        "looks good, @Bob Stone")
    assert msg.attachments == ("plan.pdf",)


def test_file_comment_with_only_the_comment_and_a_share_with_initial_comment(tmp_path):
    day = [
        {"type": "message", "subtype": "file_comment", "ts": "1453327839.000004", "text": "",
         "comment": {"user": "U0BOBBBBB", "comment": "<@U064SRKPD> can you check page 2?"}},
        {"type": "message", "subtype": "file_share", "user": "U064SRKPD", "ts": "1453327840.000004",
         "text": "<@U064SRKPD|ann.k> uploaded a file: <https://t.slack.com/files/ann/F2/p2.png|p2.png> "
                 "and commented: for <@U0BOBBBBB>",
         "file": {"id": "F2", "name": "p2.png", "initial_comment": {"comment": "for <@U0BOBBBBB>"}}},
        {"type": "message", "user": "U0UNKNOWN", "ts": "1453327841.000004", "text": "hi <@U0UNKNOWN>"},
    ]
    assert [(m.speaker, m.text, m.attachments) for m in parse_all(slack, _export(tmp_path, day))[0][0].messages] == [
        ("Bob Stone", "@Ann can you check page 2?", ()),
        ("Ann", "@ann.k uploaded a file: p2.png (https://t.slack.com/files/ann/F2/p2.png)"
                " and commented: for @Bob Stone", ("p2.png",)),
        ("unknown user U0UNKNOWN", "hi @unknown user U0UNKNOWN", ()),
    ]
