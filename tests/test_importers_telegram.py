"""Telegram Desktop JSON: full and single-chat exports, entities, media, times."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, telegram
from tests.importers_support import FIXTURES, by_id, detect_format, parse_all, texts, zip_folder

FULL = FIXTURES / "telegram" / "full"
SINGLE = FIXTURES / "telegram" / "single"


def test_full_export_chats_and_left_chats():
    convs, stats = parse_all(telegram, FULL)
    assert [(c.external_id, c.title, c.kind, len(c.messages)) for c in convs] == [
        ("1001", "Mum", "dm", 6),
        ("1002", "Climbing club", "group", 4),
        ("1003", "Saved Messages", "chat", 1),  # null name
        ("1004", "Old News", "channel", 1),  # from left_chats
    ]
    assert dict(stats.skipped) == {"system": 3, "empty_conversation": 1}


def test_text_entities_media_replies_and_utc_times():
    mum = by_id(parse_all(telegram, FULL)[0])["1001"]
    got = {m.external_id: m for m in mum.messages}
    assert got["2"].timestamp == datetime(2024, 6, 1, 10, 0, tzinfo=UTC)  # date_unixtime, not local date
    assert got["3"].text == "Yes, the 9:15 one, see ticket (https://example.org/t/1)"
    assert (got["3"].parent_external_id, got["3"].extra) == ("2", {"edited": True})
    assert got["4"].attachments == ("photo_1@01-06-2024_12-02-00.jpg",)
    assert got["5"].attachments == ("sticker 👍",)
    assert got["6"].attachments == ("voice message",)  # file not included in the export
    assert (got["7"].text, got["7"].attachments) == ("Here is the plan", ("plan.pdf",))


def test_deleted_account_poll_location_and_forward():
    convs = by_id(parse_all(telegram, FULL)[0])
    club = {m.external_id: m for m in convs["1002"].messages}
    assert club["12"].speaker == "Deleted Account user13"
    assert club["13"].text == "Poll: Where?\n- Wall\n- Crag"
    assert club["14"].attachments == ("location",)
    assert convs["1003"].messages[0].extra == {"forwarded_from": "Climbing club"}


def test_single_chat_without_unixtime_is_naive_local():
    [conv], _ = parse_all(telegram, SINGLE)
    assert (conv.external_id, conv.title, conv.kind) == ("2001", "Alex", "dm")
    assert texts(conv) == ["Dinner at 8?", "Sure", "see https://example.org/menu"]
    assert conv.messages[0].timestamp == datetime(2019, 3, 9, 18, 30)
    assert conv.messages[1].parent_external_id == "1"


def test_zip_and_detection(tmp_path):
    archive = zip_folder(FULL, tmp_path / "Telegram Desktop.zip", prefix="DataExport_2024-06-10/")
    assert parse_all(telegram, archive)[0] == parse_all(telegram, FULL)[0]
    with ExportSource(archive) as source:
        assert detect_format(source) == "telegram"
    with ExportSource(SINGLE / "ChatExport_2019-03-10" / "result.json") as source:
        assert detect_format(source) == "telegram"


def test_truncated_single_chat_names_the_message(tmp_path):
    data = (SINGLE / "ChatExport_2019-03-10" / "result.json").read_bytes()
    path = tmp_path / "result.json"
    path.write_bytes(data[: data.index(b'"Sure"')])
    with pytest.raises(ImportFormatError, match=r"messages\[1\]"):
        parse_all(telegram, path)


def test_no_chats_is_an_error(tmp_path):
    (tmp_path / "result.json").write_text(
        json.dumps({"about": "x", "personal_information": {"user_id": 1}, "chats": {"about": "", "list": []}})
    )
    with pytest.raises(ImportFormatError, match="no chats"):
        parse_all(telegram, tmp_path)


def test_other_json_not_claimed():
    with ExportSource(FIXTURES / "chatgpt" / "single") as source:
        assert not telegram.detect(source)
    with ExportSource(FIXTURES / "slack" / "workspace") as source:
        assert not telegram.detect(source)
