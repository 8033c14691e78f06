"""Gemini Apps activity from Google Takeout: JSON and HTML, grouped into chats
by their links or by day, translated exports, and records that cannot be read."""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from rawrag_tui.errors import ImportFormatError
from rawrag_tui.importers import ExportSource, ParseStats, gemini, open_webui
from tests.importers_support import FIXTURES, by_id, parse_all, texts

from .test_importers_claude_code import (
    assert_detection_is_exclusive,
    assert_refused_store_unchanged,
    assert_zip_and_folder_import_once,
    cli_import,
    detected,
)

BASE = FIXTURES / "gemini"
JSON_2026 = BASE / "json_2026" / "Takeout" / "My Activity" / "Gemini Apps" / "MyActivity.json"
HTML = BASE / "html" / "Takeout" / "My Activity" / "Gemini Apps" / "MyActivity.html"


def test_records_grouped_by_chat_link_and_branches_in_every_branch():
    convs, stats = parse_all(gemini, BASE / "json_2026")
    chats = by_id(convs)
    assert sorted(chats) == ["0f0e0d0c0b0a0908", "a1b2c3d4e5f60718", "ffff000011112222"]
    main = chats["a1b2c3d4e5f60718"]
    assert main.title == "What should I cook tonight with leeks and potatoes?"
    assert [m.text.split("\n")[0] for m in main.messages] == [
        "What should I cook tonight with leeks and potatoes?",
        "Leek and potato soup",
        "Try a gratin instead.",
        "and a dessert?",
        "Pastel de nata, obviously.",
    ]  # sorted by time, though the file is not; verbs removed
    assert (
        main.messages[1].text
        == "Leek and potato soup\n\n- Sweat the leeks\n- Add potatoes & stock\n\nBlend. Season well."
    )
    assert [m.on_main_branch for m in main.messages[1:3]] == [True, False]  # the second draft
    assert main.messages[1].timestamp == datetime(2026, 8, 2, 19, 0, 0, 806000, tzinfo=UTC)
    assert [m.speaker for m in main.messages[:2]] == ["User", "Gemini"]
    branch = chats["0f0e0d0c0b0a0908"]
    assert texts(branch)[0] == main.messages[0].text  # the turn before the branch point is in both
    assert texts(branch)[-1] == "Use olive oil and oat cream."
    files = chats["ffff000011112222"]
    assert files.messages[0].text == "Summarise this PDF" and files.messages[0].attachments == ("lease.pdf",)
    assert files.messages[1].text.endswith("rent: 900\n  due: 1st")  # <pre> keeps its indentation
    assert files.messages[3].captions == ("image: cat.png",)
    assert dict(stats.skipped) == {"not_a_prompt": 2}  # feedback and Canvas


def test_bard_era_export_grouped_by_day_and_other_products_skipped():
    convs, stats = parse_all(gemini, BASE / "json_bard")
    assert [(c.external_id, c.title) for c in convs] == [
        ("day:2023-09-14", "Gemini, 2023-09-14 (grouped by day)"),
        ("day:2024-02-01", "Gemini, 2024-02-01 (grouped by day)"),
    ]
    assert texts(convs[0])[:2] == ["what is a haiku", "A three-line poem of 5, 7 and 5 syllables."]
    assert texts(convs[0])[3] == "Leaves let go at last\nthe maple keeps its secret\nred upon the path"
    assert texts(convs[1])[0] == "translate 'thank you' to Japanese"
    assert dict(stats.skipped) == {"not_a_prompt": 1, "other_product": 1}


def test_translated_export_found_by_content():
    conv = parse_all(gemini, BASE / "json_ko")[0][0]
    assert texts(conv) == [
        "서울에서 부산까지 KTX로 얼마나 걸려?",
        "약 2시간 30분 걸립니다.",
        "요금은?",
        "일반실 약 59,800원입니다.",
    ]


def test_html_export_cards_times_and_uploads():
    convs, stats = parse_all(gemini, BASE / "html")
    chats = by_id(convs)
    git = chats["9a8b7c6d5e4f3a2b"]
    assert texts(git) == [
        "How do I undo the last git commit\nbut keep the changes?",
        "Run git reset --soft HEAD~1.\n\n- Your changes stay staged.",
        "and if I already pushed?",
        "Use git revert instead.",
    ]
    assert git.messages[0].timestamp == datetime(2026, 8, 3, 16, 14, 5, tzinfo=UTC)  # 9:14:05 AM PDT, narrow space
    photo = chats["1111222233334444"]
    assert photo.messages[0].attachments == ("photo_1.jpg",) and photo.messages[1].captions == ()
    assert dict(stats.skipped) == {"other_product": 1, "not_a_prompt": 1}


def test_json_and_html_of_the_same_activity_share_ids(tmp_path):
    """Takeout hands out either; importing both must not double a chat."""
    html_ids = {m.external_id for m in by_id(parse_all(gemini, BASE / "html")[0])["9a8b7c6d5e4f3a2b"].messages}
    records = [
        {
            "header": "Gemini Apps",
            "title": "Prompted and if I already pushed?",
            "time": "2026-08-03T16:15:00.412Z",
            "products": ["Gemini Apps"],
            "safeHtmlItem": [{"html": "<p>Use <code>git revert</code> instead.</p>"}],
            "details": [{"name": "x", "url": "https://gemini.google.com/app/9a8b7c6d5e4f3a2b"}],
        }
    ]
    (tmp_path / "MyActivity.json").write_text(json.dumps(records))
    json_ids = {m.external_id for m in parse_all(gemini, tmp_path / "MyActivity.json")[0][0].messages}
    assert json_ids <= html_ids and len(json_ids) == 2


def test_renamed_files_detected_by_content(tmp_path):
    for src, name in ((JSON_2026, "gemini backup.json"), (HTML, "export.htm"), (JSON_2026, "activity")):
        renamed = Path(shutil.copy(src, tmp_path / name))
        assert detected(renamed) == "gemini", name
        renamed.unlink()


def test_all_of_my_activity_takes_only_gemini(tmp_path):
    """A Takeout of every product: Search's MyActivity.json has the same envelope and name."""
    search = [
        {"header": "Search", "title": "Searched for leeks", "time": "2026-08-01T10:00:00.000Z", "products": ["Search"]}
    ]
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "MyActivity.json").write_text(json.dumps(search))
    assert detected(tmp_path / "search") is None
    archive = tmp_path / "takeout-20260805T000000Z-001.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("Takeout/My Activity/Search/MyActivity.json", json.dumps(search))
        zf.write(JSON_2026, "Takeout/My Activity/Gemini Apps/MyActivity.json")
    assert detected(archive) == "gemini"
    assert len(parse_all(gemini, archive)[0]) == 3


def test_partial_export_missing_keys_and_cut_short(tmp_path):
    records = json.loads(JSON_2026.read_text())
    for rec in records:
        rec.pop("products"), rec.pop("activityControls")
    records[0].pop("details")  # a record with no chat link goes to its day
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "MyActivity.json").write_text(json.dumps(records))
    convs, _ = parse_all(gemini, tmp_path / "a")
    assert "day:2026-08-02" in by_id(convs)
    raw = JSON_2026.read_bytes()
    (tmp_path / "b").mkdir()
    cut = tmp_path / "b" / "MyActivity.json"
    cut.write_bytes(raw[: raw.index(b"Branched")])  # a download that stopped in the fourth record
    convs, stats = parse_all(gemini, cut)
    assert sum(len(c.messages) for c in convs) > 0
    assert len(stats.places) == 1 and stats.places[0]["where"].startswith("records[3]")


def test_one_unreadable_record_is_skipped_and_placed(tmp_path):
    records = json.loads(JSON_2026.read_text())
    records[2]["time"] = "yesterday"
    records[4]["safeHtmlItem"] = "not a list"
    bad = tmp_path / "MyActivity.json"
    bad.write_text(json.dumps(records))
    convs, stats = parse_all(gemini, bad)
    assert "Summarise this PDF" not in [m.text for c in convs for m in c.messages]
    assert [p["where"] for p in stats.places] == ["records[2]", "records[4]"]
    assert "not an ISO time" in stats.places[0]["problem"]


def test_html_card_without_time_is_placed(tmp_path):
    html = HTML.read_text(encoding="utf-8").replace("Aug 3, 2026, 9:15:00 AM PDT", "sometime", 1)
    (tmp_path / "MyActivity.html").write_text(html, encoding="utf-8")
    _, stats = parse_all(gemini, tmp_path / "MyActivity.html")
    assert [p["where"] for p in stats.places] == ["card 2"]


def test_mostly_unreadable_file_is_refused(tmp_path):
    records = [{"header": "Gemini Apps", "title": "Prompted hi", "time": f"bad {i}"} for i in range(5)]
    records.append({"header": "Gemini Apps", "title": "Prompted hi", "time": "2026-01-01T00:00:00Z"})
    (tmp_path / "MyActivity.json").write_text(json.dumps(records))
    with ExportSource(tmp_path / "MyActivity.json") as source, pytest.raises(ImportFormatError, match="5 of 6 records"):
        list(gemini.parse(source, ParseStats()))


def test_detection_is_exclusive():
    assert_detection_is_exclusive("gemini")


def test_cli_imports_renamed_html_and_json(tmp_path):
    renamed = Path(shutil.copy(HTML, tmp_path / "gemini-history.html"))
    report = cli_import(renamed, tmp_path / "home")
    assert report["format"] == "gemini" and report["conversations"] == 2 and report["messages_added"] == 6
    records = json.loads(JSON_2026.read_text())
    records[2]["time"] = None
    broken = tmp_path / "gemini.json"
    broken.write_text(json.dumps(records))
    report = cli_import(broken, tmp_path / "home")
    assert report["format"] == "gemini" and [u["where"] for u in report["unreadable"]] == ["records[2]"]


@pytest.mark.parametrize("variant", ["json_2026", "json_bard", "json_ko", "html"])
def test_zip_and_folder_through_the_facade(variant, open_memory, tmp_path):
    assert_zip_and_folder_import_once(open_memory, BASE / variant, "gemini", tmp_path)


def test_refused_file_leaves_the_store_as_it_was(open_memory, tmp_path):
    records = [{"header": "Gemini Apps", "title": "Prompted hi", "time": f"day {i}"} for i in range(4)]
    (tmp_path / "MyActivity.json").write_text(json.dumps(records))
    assert "records[0]" in assert_refused_store_unchanged(open_memory, tmp_path / "MyActivity.json", "unreadable")


def test_sniffing_deeply_nested_json_is_cheap(tmp_path):
    """ijson keeps every open level's path: the sniff must refuse depth before it parses."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    objects = tmp_path / "objects.json"
    objects.write_text('[{"chat":' * 50_000 + "1" + "}]" * 50_000)
    for path in (deep, objects):
        with ExportSource(path) as source:
            assert not gemini.detect(source)
            assert not open_webui.detect(source)
