"""Slack workspace export: lists, threads, markup, noise, bots, unknown users."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, slack
from tests.importers_support import FIXTURES, by_id, copy_fixture, detect_format, parse_all, zip_folder

WORKSPACE = FIXTURES / "slack" / "workspace"
P = "1709280000.000200"


def test_conversations_titles_and_kinds():
    convs, _ = parse_all(slack, WORKSPACE)
    assert [(c.external_id, c.title, c.kind, len(c.messages)) for c in convs] == [
        ("C01", "#general", "channel", 14),
        ("C02", "#random", "channel", 1),
        ("G01", "#secret-plans", "channel", 1),
        ("D01", "DM: Alice, Bob Stone", "dm", 2),
        ("G02", "Group DM: Alice, Bob Stone, carol", "group", 1),
    ]  # C03 has no folder: nothing to import


def test_threads_follow_their_parent_in_ts_order():
    general = by_id(parse_all(slack, WORKSPACE)[0])["C01"]
    ids = [m.external_id for m in general.messages]
    assert ids[:4] == [P, "1709280060.000300", "1709366400.000600", "1709370120.000900"]
    assert [m.parent_external_id for m in general.messages[1:4]] == [P, P, P]
    assert general.messages[3].extra == {"broadcast": True}
    # A reply posted a day later sits in the next day's file but joins its thread.
    assert general.messages[2].text == "See also #random and #random"
    # Deleted parent (tombstone) is kept so its reply still has a parent.
    tomb = ids.index("1709370400.001200")
    assert general.messages[tomb].text == "This message was deleted."
    assert general.messages[tomb + 1].parent_external_id == "1709370400.001200"
    # A reply whose parent predates the export keeps its link and stands in time order.
    late = general.messages[tomb + 2]
    assert (late.text, late.parent_external_id) == ("late reply to an old thread", "1709000000.000001")


def test_markup_decoded_to_readable_text():
    general = by_id(parse_all(slack, WORKSPACE)[0])["C01"]
    got = {m.external_id: m.text for m in general.messages}
    assert got[P] == "Hello @channel, welcome & please read the rules (https://example.org/rules)"
    assert got["1709280060.000300"] == "@Alice thanks! <3"
    assert got["1709370240.001100"] == (
        "Mail bob@example.org, see https://a.example, ping @devs by Feb 18th @here"
    )


def test_speakers_bots_unknown_and_deleted_users():
    general = by_id(parse_all(slack, WORKSPACE)[0])["C01"]
    who = {m.external_id: (m.speaker, m.role) for m in general.messages}
    assert who[P] == ("Alice", "user")  # display name first
    assert who["1709280060.000300"] == ("Bob Stone", "user")  # empty display name: real name
    assert who["1709283600.000400"] == ("deploybot", "other")
    assert who["1709290000.000500"] == ("carol", "user")  # deactivated, name kept
    assert who["1709370000.000700"] == ("unknown user U99", "user")
    assert who["1709370060.000800"] == ("deleted user U04", "user")
    assert who["1709370180.001000"] == ("Guest Gina", "user")  # from the message's user_profile


def test_files_kept_as_attachment_names():
    general = by_id(parse_all(slack, WORKSPACE)[0])["C01"]
    got = {m.external_id: m for m in general.messages}
    assert got["1709290000.000500"].attachments == ("plan.pdf",)
    assert got["1709290000.000500"].text == ""
    assert got["1709370600.001500"].attachments == ("(file hidden by limit)",)


def test_noise_skipped_and_counted():
    _, stats = parse_all(slack, WORKSPACE)
    assert dict(stats.skipped) == {"join_leave": 2, "system": 1, "empty": 1}
    assert stats.errors == []


def test_times_from_ts_not_from_day_file():
    convs = by_id(parse_all(slack, WORKSPACE)[0])
    late = convs["C02"].messages[0]
    assert late.timestamp == datetime(2024, 3, 2, 0, 30, 0, 100, tzinfo=UTC)
    first = convs["C01"].messages[0]
    assert first.timestamp == datetime(2024, 3, 1, 8, 0, 0, 200, tzinfo=UTC)
    assert first.external_id == P


def test_zip_with_top_folder_equals_folder(tmp_path):
    archive = zip_folder(WORKSPACE, tmp_path / "Acme Slack export Mar 1 2024 - Mar 2 2024.zip", prefix="acme/")
    assert parse_all(slack, archive)[0] == parse_all(slack, WORKSPACE)[0]
    with ExportSource(archive) as source:
        assert detect_format(source) == "slack"


def test_duplicate_ts_across_day_files_imported_once(tmp_path):
    folder = copy_fixture("slack/workspace", tmp_path / "ws")
    day = json.loads((folder / "D01" / "2024-03-01.json").read_text())
    (folder / "D01" / "2024-03-02.json").write_text(json.dumps(day[:1]))
    convs, stats = parse_all(slack, folder)
    assert len(by_id(convs)["D01"].messages) == 2
    assert stats.skipped["duplicate"] == 1


def test_malformed_day_file_names_member_and_line(tmp_path):
    folder = copy_fixture("slack/workspace", tmp_path / "ws")
    (folder / "random" / "2024-03-01.json").write_text('[{"type": "message", "ts": "1.0",\n  "text": }]')
    with pytest.raises(ImportFormatError) as info:
        parse_all(slack, folder)
    assert "random/2024-03-01.json" in str(info.value) and "line 2" in str(info.value)


def test_bad_ts_names_member_and_index(tmp_path):
    folder = copy_fixture("slack/workspace", tmp_path / "ws")
    (folder / "random" / "2024-03-01.json").write_text(
        '[{"type": "message", "user": "U01", "text": "x", "ts": "yesterday"}]')
    convs, stats = parse_all(slack, folder)
    assert "#random" not in {c.title for c in convs}
    assert stats.unreadable == 1
    place = stats.places[0]
    assert place["file"].endswith("random/2024-03-01.json") and place["where"] == "[0]" and "ts" in place["problem"]


def test_export_without_messages_is_an_error(tmp_path):
    (tmp_path / "channels.json").write_text("[]")
    (tmp_path / "users.json").write_text("[]")
    with pytest.raises(ImportFormatError, match="no day files"):
        parse_all(slack, tmp_path)


def test_chatgpt_export_not_claimed():
    with ExportSource(FIXTURES / "chatgpt" / "single") as source:
        assert not slack.detect(source)


def test_decode_edge_cases():
    directory = slack._Directory([{"id": "U1", "name": "ann"}], {"C1": "dev"})
    assert (slack.decode("<@U1|annie> <@U1> <#C1> <!everyone> <!subteam^S9>", directory)
            == "@annie @ann #dev @everyone @subteam")
    assert slack.decode("a &lt;b&gt; &amp;amp; <https://x.org?a=1&amp;b=2>", directory) == "a <b> &amp; https://x.org?a=1&b=2"
    assert slack.decode("<http://x.org|http://x.org> <>", directory) == "http://x.org <>"


def test_slackdump_standard_layout_with_attachment_folders(tmp_path):
    folder = copy_fixture("slack/workspace", tmp_path / "ws")
    (folder / "general" / "attachments").mkdir()
    (folder / "general" / "attachments" / "F01-plan.pdf").write_bytes(b"%PDF-1.4")
    (folder / "general" / "attachments" / "2024-03-09.json").write_text("not a day file")
    assert parse_all(slack, folder)[0] == parse_all(slack, WORKSPACE)[0]
