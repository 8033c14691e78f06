"""DiscordChatExporter JSON: parts joined, DMs, threads, replies, bots, noise."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, discord
from tests.importers_support import FIXTURES, by_id, copy_fixture, detect_format, parse_all, texts, zip_folder

GUILD = FIXTURES / "discord" / "guild"
DM = FIXTURES / "discord" / "dm"


def test_parts_joined_in_order_without_duplicates():
    convs, stats = parse_all(discord, GUILD)
    assert [(c.external_id, c.title, c.kind) for c in convs] == [
        ("456", "Hiking Club / #general", "channel"),
        ("789", "Hiking Club / Route ideas", "thread"),
    ]
    general = by_id(convs)["456"]
    assert [m.external_id for m in general.messages] == ["5001", "5002", "5004", "5006", "5007"]
    assert dict(stats.skipped) == {"join_leave": 1, "duplicate": 1, "system": 1, "empty": 1}


def test_messages_speakers_times_replies():
    general = by_id(parse_all(discord, GUILD)[0])["456"]
    got = {m.external_id: m for m in general.messages}
    assert (got["5001"].speaker, got["5001"].text) == ("Alice", "Who's in for Saturday?")
    assert got["5001"].timestamp == datetime(2024, 4, 1, 16, 0, tzinfo=UTC)  # +02:00 to UTC
    assert (got["5002"].text, got["5002"].parent_external_id) == ("Me! :boot:", "5001")
    assert got["5002"].timestamp == datetime(2024, 4, 1, 16, 1, 30, 500000, tzinfo=UTC)
    assert got["5004"].attachments == ("map.png",)
    assert (got["5006"].speaker, got["5006"].role, got["5006"].text) == ("Carl-bot", "other", "Weather\nSunny, 18°C")
    assert got["5007"].attachments == ("sticker thumbs",) and got["5007"].extra == {"edited": True}
    # A reply that points into another channel keeps no dangling parent.
    thread = by_id(parse_all(discord, GUILD)[0])["789"]
    assert thread.messages[1].parent_external_id is None


def test_direct_messages():
    [conv], stats = parse_all(discord, DM)
    assert (conv.external_id, conv.title, conv.kind) == ("111", "bob_99", "dm")
    assert texts(conv) == ["got your boots", "thanks!"]
    assert dict(stats.skipped) == {"system": 1}


def test_zip_and_single_file_detection(tmp_path):
    archive = zip_folder(GUILD, tmp_path / "discord.zip")
    assert parse_all(discord, archive)[0] == parse_all(discord, GUILD)[0]
    with ExportSource(archive) as source:
        assert detect_format(source) == "discord"
    with ExportSource(next(DM.iterdir())) as source:
        assert detect_format(source) == "discord"


def test_empty_channel_is_an_error(tmp_path):
    path = tmp_path / "x [1].json"
    path.write_text(json.dumps({"guild": {"id": "0", "name": "Direct Messages"},
                                "channel": {"id": "1", "type": "DirectTextChat", "name": "x"},
                                "messages": [], "messageCount": 0}))
    with pytest.raises(ImportFormatError, match="no messages"):
        parse_all(discord, path)


def test_bad_timestamp_skips_that_message_with_its_place(tmp_path):
    folder = copy_fixture("discord/dm", tmp_path / "dm")
    path = next(folder.iterdir())
    data = json.loads(path.read_text())
    before = len(parse_all(discord, folder)[0][0].messages)
    data["messages"][1]["timestamp"] = "yesterday"
    path.write_text(json.dumps(data))
    convs, stats = parse_all(discord, folder)
    assert len(convs[0].messages) == before - 1
    assert stats.unreadable == 1 and stats.places[0]["where"] == "messages[1]"
    assert "timestamp" in stats.places[0]["problem"]


def test_other_exports_not_claimed():
    for other in (FIXTURES / "telegram" / "full", FIXTURES / "chatgpt" / "single", FIXTURES / "slack" / "workspace"):
        with ExportSource(other) as source:
            assert not discord.detect(source)
