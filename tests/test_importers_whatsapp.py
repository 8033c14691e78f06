"""WhatsApp text exports: Android/iOS, locales, date order, continuation lines, placeholders."""

from __future__ import annotations

import zipfile
from datetime import datetime

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, whatsapp
from tests.importers_support import FIXTURES, detect_format, parse_all

WA = FIXTURES / "whatsapp"
ANDROID_EN = WA / "android_en" / "WhatsApp Chat with Alice.txt"
IOS_DE = WA / "ios_de" / "WhatsApp Chat - Wandergruppe"


def test_android_month_first_12h_multiline_and_placeholders():
    [conv], stats = parse_all(whatsapp, ANDROID_EN)
    assert (conv.external_id, conv.title, conv.kind) == ("whatsapp:Alice", "Alice", "dm")
    assert [(m.speaker, m.text, m.attachments) for m in conv.messages] == [
        ("Alice", "Are we still on for Saturday?", ()),
        ("Bob", "Yes! Bring the map.\nIt's in the drawer.\n\nAnd the compass.", ()),
        ("Bob", "Summit photo", ("IMG-20240113-WA0003.jpg",)),
        ("Alice", "Wow, great view", ()),
        ("Bob", "ok", ()),
        ("Bob", "ok", ()),
        ("Alice", "Lunch? 12:30 PM - works: for me", ()),
    ]
    assert conv.messages[0].timestamp == datetime(2024, 1, 5, 21, 16)  # naive: local time
    assert conv.messages[-1].timestamp == datetime(2024, 1, 13, 12, 30)  # 12 PM is noon
    assert conv.messages[3].extra == {"edited": True}
    assert conv.messages[4].external_id != conv.messages[5].external_id
    # the media placeholder carries no words: skipped and counted, not a message
    assert dict(stats.skipped) == {"system": 2, "media": 1, "deleted": 1}


def test_ios_german_day_first_system_lines_and_attachments():
    [conv], stats = parse_all(whatsapp, IOS_DE)
    assert (conv.title, conv.kind) == ("Wandergruppe", "group")
    assert [(m.speaker, m.text, m.attachments) for m in conv.messages] == [
        ("Anna", "Hallo zusammen!", ()),
        ("Carla", "", ("00000012-PHOTO-2018-06-13-21-28-00.jpg",)),
        ("Anna", "Treffpunkt ist um 9 Uhr\nam Bahnhof.", ()),
    ]
    assert conv.messages[0].timestamp == datetime(2018, 6, 13, 21, 26, 1)
    assert dict(stats.skipped) == {"system": 2, "media": 1, "deleted": 1}


def test_spanish_p_m_and_translated_placeholders():
    [conv], stats = parse_all(whatsapp, WA / "android_es")
    assert conv.title == "Marco"
    assert [(m.speaker, m.timestamp, m.text, m.attachments) for m in conv.messages] == [
        ("Lucía", datetime(2023, 12, 25, 13, 55), "¡Feliz Navidad!", ()),
        ("Marco", datetime(2023, 12, 26, 9, 6), "Gracias, igualmente", ()),
    ]
    assert dict(stats.skipped) == {"media": 1, "deleted": 1}


def test_ios_zip_takes_its_title_from_the_zip_name(tmp_path):
    archive = tmp_path / "WhatsApp Chat - Wandergruppe.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in IOS_DE.iterdir():
            zf.write(path, path.name)
    [from_zip], _ = parse_all(whatsapp, archive)
    [from_folder], _ = parse_all(whatsapp, IOS_DE)
    assert from_zip == from_folder
    with ExportSource(archive) as source:
        assert detect_format(source) == "whatsapp"


def test_newer_export_keeps_ids_and_adds_new(tmp_path):
    old = ANDROID_EN.read_text(encoding="utf-8")
    newer = tmp_path / "WhatsApp Chat with Alice.txt"
    newer.write_text(old + "1/14/24, 8:00 AM - Bob: ok\r\n1/14/24, 8:01 AM - Alice: New day\r\n", encoding="utf-8")
    [before], _ = parse_all(whatsapp, ANDROID_EN)
    [after], _ = parse_all(whatsapp, newer)
    assert after.external_id == before.external_id
    old_ids = [m.external_id for m in before.messages]
    assert [m.external_id for m in after.messages][: len(old_ids)] == old_ids
    assert len(after.messages) == len(old_ids) + 2


@pytest.mark.parametrize(
    "lines, first",
    [
        # undecided, 24h: day first
        (["03/04/21, 10:00 - A: x", "05/06/21, 11:00 - B: y"], datetime(2021, 4, 3, 10, 0)),
        (["03/04/21, 10:00 AM - A: x", "05/06/21, 11:00 AM - B: y"], datetime(2021, 3, 4, 10, 0)),  # 12h: month first
        (["03/04/21, 10:00 - A: x", "05/26/21, 11:00 - B: y"], datetime(2021, 3, 4, 10, 0)),  # a later line decides
        (["[2018/06/13 21:25:15] A: x"], datetime(2018, 6, 13, 21, 25, 15)),  # year first
        (["13-06-2018 21:25 - A: x"], datetime(2018, 6, 13, 21, 25)),
    ],
)
def test_date_order_inferred_over_whole_file(tmp_path, lines, first):
    path = tmp_path / "WhatsApp Chat with X.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [conv], _ = parse_all(whatsapp, path)
    assert conv.messages[0].timestamp == first


@pytest.mark.parametrize(
    "content, problem, where",
    [
        ("13/04/21, 10:00 - A: x\n04/13/21, 10:00 - B: y\n", "mix day-first and month-first", "line 2"),
        ("01/02/21, 25:00 - A: x\n", "bad date or time", "line 1"),
        ("hello\nworld\n01/02/21, 10:00 - A: x\n", "2 of 3 records unreadable", "line 1"),
    ],
)
def test_bad_text_is_a_located_error(tmp_path, content, problem, where):
    path = tmp_path / "WhatsApp Chat with X.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ImportFormatError, match=problem) as info:
        parse_all(whatsapp, path)
    if where:
        assert where in str(info.value)


def test_a_line_not_utf8_is_skipped_and_placed(tmp_path):
    path = tmp_path / "WhatsApp Chat with X.txt"
    path.write_bytes(b"01/02/21, 10:00 - A: ok\n01/02/21, 10:01 - A: caf\xe9\n01/02/21, 10:02 - B: fine\n")
    [conv], stats = parse_all(whatsapp, path)
    assert [m.text for m in conv.messages] == ["ok", "fine"]
    assert stats.places == [{"file": str(path), "where": "line 2", "problem": "not UTF-8 text"}]


def test_a_file_mostly_not_utf8_is_refused(tmp_path):
    path = tmp_path / "WhatsApp Chat with X.txt"
    path.write_bytes(b"01/02/21, 10:00 - A: ok\n\xff\xfe\n\xe9\n")
    with pytest.raises(ImportFormatError, match=r"2 of 3 records unreadable.*line 2: not UTF-8"):
        parse_all(whatsapp, path)


def test_other_text_files_not_claimed(tmp_path):
    (tmp_path / "notes.txt").write_text("Shopping list\n- milk\n", encoding="utf-8")
    (tmp_path / "data.jsonl").write_text(
        '{"conversation": "a", "timestamp": "2024-01-01T00:00:00Z", "speaker": "x", "text": "y"}\n')
    with ExportSource(tmp_path) as source:
        assert not whatsapp.detect(source)
