"""WhatsApp exports as the world writes them: placeholders and notices in any
language told apart by structure, Arabic-Indic and Persian digits with RTL
marks, and dates in the Buddhist and Japanese era calendars."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from rawrag_tui.importers import whatsapp
from rawrag_tui.importers._calendars import era_year, gregorian_year
from tests.importers_support import FIXTURES, parse_all, texts

from .test_importers_claude_code import assert_refused_store_unchanged, detected

L, R = "\u200e", "\u200f"  # the marks iOS and RTL locales write


def _chat(tmp_path: Path, lines: list[str], name: str = "WhatsApp Chat with Eva.txt") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _read(tmp_path: Path, lines: list[str]):
    path = _chat(tmp_path, lines)
    assert detected(path) == "whatsapp"
    [conv], stats = parse_all(whatsapp, path)
    return conv, stats


# -- placeholders and notices, by structure ---------------------------------------------------


IOS_MEDIA = [  # iOS opens what WhatsApp wrote with U+200E, in every language
    "Bild weggelassen", "Sticker weggelassen", "image absente", "imagem ocultada", "画像は含まれていません",
    "изображение отсутствует", "obrázek vynechán", "afbeelding weggelaten", "kuva jätetty pois",
]
ANDROID_MEDIA = [  # Android writes the whole body in angle brackets
    "<Medien ausgeschlossen>", "<Médias omis>", "<Mídia oculta>", "<メディアは含まれていません>", "<Без медиафайлов>",
    "<Média vynechána>", "<Media weggelaten>", "<Media jätetty pois>",
]


def test_ios_media_placeholders_in_any_language_are_skipped_as_media(tmp_path):
    lines = ["[18.03.22, 14:56:01] Eva: Hallo"]
    lines += [f"[18.03.22, 14:57:{i:02d}] Jan: {L}{p}" for i, p in enumerate(IOS_MEDIA)]
    lines.append("[18.03.22, 14:58:00] Jan: Bild weggelassen")  # typed by a person: no mark, so words
    conv, stats = _read(tmp_path, lines)
    assert texts(conv) == ["Hallo", "Bild weggelassen"]
    assert stats.skipped["media"] == len(IOS_MEDIA) and stats.unreadable == 0


def test_android_bracketed_placeholders_in_any_language_are_skipped_as_media(tmp_path):
    lines = ["18/03/2022, 14:56 - Eva: ahoj"]
    lines += [f"18/03/2022, 14:57 - Jan: {p}" for p in ANDROID_MEDIA]
    lines += ["18/03/2022, 14:58 - Jan: I think <this> is fine", "18/03/2022, 14:59 - Jan: <3 <3",
              "18/03/2022, 15:00 - Jan: <https://example.org/plan>", "18/03/2022, 15:01 - Jan: <eva@example.org>"]
    conv, stats = _read(tmp_path, lines)
    assert texts(conv) == ["ahoj", "I think <this> is fine", "<3 <3", "<https://example.org/plan>",
                           "<eva@example.org>"]
    assert stats.skipped["media"] == len(ANDROID_MEDIA)


def test_ios_notices_deleted_and_system_in_any_language(tmp_path):
    conv, stats = _read(tmp_path, [
        f"[18.03.22, 14:56:00] Eva: {L}Nachrichten und Anrufe sind Ende-zu-Ende-verschlüsselt. Niemand außerhalb "
        "dieses Chats kann sie lesen.",
        "[18.03.22, 14:56:01] Eva: Guten Morgen",
        f"[18.03.22, 14:56:02] Jan: {L}Diese Nachricht wurde gelöscht.",
        f"[18.03.22, 14:56:03] Jan: {L}Вы удалили данное сообщение.",
        f"[18.03.22, 14:56:04] Jan: {L}Tämä viesti poistettiin.",  # a language we have no phrase for: still out
        f"[18.03.22, 14:56:05] Eva: {L}Eva hat die Gruppenbeschreibung geändert.",
    ])
    assert texts(conv) == ["Guten Morgen"]
    assert dict(stats.skipped) == {"system": 3, "deleted": 2}


def test_android_deleted_notices_in_more_languages(tmp_path):
    conv, stats = _read(tmp_path, [
        "18/03/2022, 14:56 - Eva: Привет",
        "18/03/2022, 14:57 - Jan: Данное сообщение удалено",
        "18/03/2022, 14:58 - Jan: Tato zpráva byla smazána",
        "18/03/2022, 14:59 - Jan: このメッセージは削除されました",
        "18/03/2022, 15:00 - Jan: Dit bericht is verwijderd",
    ])
    assert texts(conv) == ["Привет"] and stats.skipped["deleted"] == 4


def test_attached_files_in_any_language_keep_the_file_name(tmp_path):
    conv, _ = _read(tmp_path, [
        f"[18.03.22, 14:56:00] Eva: {L}<Anhang: 00000012-PHOTO-2022-03-18-14-56-00.jpg>",
        f"[18.03.22, 14:56:01] Eva: {L}<pièce jointe : 00000013-AUDIO-2022-03-18-14-56-01.opus>",
        f"[18.03.22, 14:56:02] Eva: {L}<添付ファイル：00000014-PHOTO-2022-03-18-14-56-02.jpg>",
        f"[18.03.22, 14:56:03] Eva: {L}<вложение: 00000015-Отчёт.pdf>",
        "[18.03.22, 14:57:00] Jan: IMG-20220318-WA0001.jpg (Datei angehängt)",
        "Gipfelfoto",
        "[18.03.22, 14:57:01] Jan: DOC-20220318-WA0002.pdf (файл добавлен)",
        "[18.03.22, 14:57:02] Jan: PTT-20220318-WA0003.opus (příloha)",
        "[18.03.22, 14:57:03] Jan: Relatório final.pdf (arquivo anexado)",
        "[18.03.22, 14:57:04] Jan: see report.pdf (the new one)",  # words, not a file line
    ])
    assert [(m.text, m.attachments) for m in conv.messages] == [
        ("", ("00000012-PHOTO-2022-03-18-14-56-00.jpg",)),
        ("", ("00000013-AUDIO-2022-03-18-14-56-01.opus",)),
        ("", ("00000014-PHOTO-2022-03-18-14-56-02.jpg",)),
        ("", ("00000015-Отчёт.pdf",)),
        ("Gipfelfoto", ("IMG-20220318-WA0001.jpg",)),
        ("", ("DOC-20220318-WA0002.pdf",)),
        ("", ("PTT-20220318-WA0003.opus",)),
        ("", ("Relatório final.pdf",)),
        ("see report.pdf (the new one)", ()),
    ]


def test_edited_mark_by_phrase_or_by_its_ios_mark(tmp_path):
    conv, _ = _read(tmp_path, [
        "18/03/2022, 14:56 - Eva: Bis morgen <Diese Nachricht wurde bearbeitet>",
        "18/03/2022, 14:57 - Eva: До завтра <Сообщение изменено>",
        f"18/03/2022, 14:58 - Eva: Na shledanou {L}<Upraveno>",
        "18/03/2022, 14:59 - Eva: a <b>",
    ])
    assert [(m.text, m.extra) for m in conv.messages] == [
        ("Bis morgen", {"edited": True}), ("До завтра", {"edited": True}), ("Na shledanou", {"edited": True}),
        ("a <b>", None),
    ]


# -- digits of other scripts, RTL marks ---------------------------------------------------------


def test_arabic_ios_export_fixture():
    folder = FIXTURES / "whatsapp" / "ios_ar"
    assert detected(folder) == "whatsapp"
    [conv], stats = parse_all(whatsapp, folder)
    assert conv.title == "أحمد"
    assert [(m.speaker, m.text, m.attachments, m.timestamp) for m in conv.messages] == [
        ("أحمد", "مرحبا، هل اشتريت ٣ تفاحات؟", (), datetime(2022, 3, 18, 14, 56, 1)),  # digits in text kept
        ("سارة", "نعم\nوالبرتقال أيضا", (), datetime(2022, 3, 18, 14, 57, 10)),
        ("أحمد", "", ("00000007-PHOTO-2022-03-18-14-59-00.jpg",), datetime(2022, 3, 18, 14, 59)),
        ("سارة", "منتصف الليل", (), datetime(2022, 3, 19, 0, 0)),  # 12 ص is midnight
    ]
    assert dict(stats.skipped) == {"system": 1, "media": 1, "deleted": 1}


def test_arabic_android_and_persian_digit_exports(tmp_path):
    arabic = _chat(tmp_path, [
        f"١٨{R}/٣{R}/٢٢، ٩:٠٥ ص - أحمد: صباح الخير",
        f"١٨{R}/٣{R}/٢٢، ٢:٥٦ م - سارة: مساء الخير",
        f"٢٠{R}/٣{R}/٢٢، ١١:٠٠ م - سارة: <الوسائط محذوفة>",
    ], "WhatsApp Chat with أحمد.txt")
    assert detected(arabic) == "whatsapp"
    [conv], stats = parse_all(whatsapp, arabic)
    assert [(m.text, m.timestamp) for m in conv.messages] == [
        ("صباح الخير", datetime(2022, 3, 18, 9, 5)), ("مساء الخير", datetime(2022, 3, 18, 14, 56)),
    ]
    assert stats.skipped["media"] == 1
    persian = _chat(tmp_path, [
        "[۱۸/۰۳/۲۰۲۲, ۱۴:۵۶:۰۱] مریم: سلام",
        "[۱۹/۰۳/۲۰۲۲, ۰۹:۰۰:۰۰] علی: صبح بخیر ۲ بار",
        "[۱۹/۰۳/۲۰۲۲, ۲:۱۰:۰۰ ب.ظ.] مریم: عصر بخیر",
        "[۲۰/۰۳/۲۰۲۲, ۷:۳۰:۰۰ ق.ظ.] علی: صبح",
    ], "WhatsApp Chat with مریم.txt")
    assert detected(persian) == "whatsapp"
    [conv], _ = parse_all(whatsapp, persian)
    assert [(m.text, m.timestamp) for m in conv.messages] == [
        ("سلام", datetime(2022, 3, 18, 14, 56, 1)), ("صبح بخیر ۲ بار", datetime(2022, 3, 19, 9, 0)),
        ("عصر بخیر", datetime(2022, 3, 19, 14, 10)), ("صبح", datetime(2022, 3, 20, 7, 30)),
    ]


# -- other calendars ---------------------------------------------------------------------------


@pytest.mark.parametrize("lines", [
    ["[3/18/2565 BE, 14:56:01] Somchai: สวัสดี", "[3/19/2565 BE, 08:00:00] Nok: อรุณสวัสดิ์"],
    ["[18/3/2565 14:56:01] Somchai: สวัสดี", "[19/3/2565 08:00:00] Nok: อรุณสวัสดิ์"],  # no "BE": the year says it
    ["18/3/2565 14:56 - Somchai: สวัสดี", "19/3/2565 08:00 - Nok: อรุณสวัสดิ์"],  # Android
    ["[18/3/2565 พ.ศ., 14:56:01] Somchai: สวัสดี", "[19/3/2565 พ.ศ., 08:00:00] Nok: อรุณสวัสดิ์"],
])
def test_buddhist_era_dates_read_to_gregorian(tmp_path, lines):
    conv, _ = _read(tmp_path, lines)
    assert [m.timestamp.date().isoformat() for m in conv.messages] == ["2022-03-18", "2022-03-19"]
    assert conv.messages[0].timestamp.time().isoformat()[:5] == "14:56"


@pytest.mark.parametrize(("lines", "dates"), [
    (["[R4/03/18 14:56:01] 太郎: こんにちは", "[R4/03/19 8:00:00] 花子: おはよう"], ["2022-03-18", "2022-03-19"]),
    (["[令和4年3月18日 14:56:01] 太郎: こんにちは", "[令和4年3月19日 8:00:00] 花子: おはよう"],
     ["2022-03-18", "2022-03-19"]),
    (["[H31/04/30 23:59:59] 太郎: 平成最後", "[令和元年5月1日 0:00:01] 花子: 令和最初"], ["2019-04-30", "2019-05-01"]),
    (["R4/03/18 14:56 - 太郎: こんにちは", "R4/03/19 午前8:00 - 花子: おはよう"], ["2022-03-18", "2022-03-19"]),
    (["[2022年3月18日 14:56:01] 太郎: こんにちは", "[2022年3月19日 8:00:00] 花子: おはよう"],
     ["2022-03-18", "2022-03-19"]),
])
def test_japanese_era_and_kanji_dates_read_to_gregorian(tmp_path, lines, dates):
    conv, _ = _read(tmp_path, lines)
    assert [m.timestamp.date().isoformat() for m in conv.messages] == dates


def test_calendar_rules():
    assert [era_year(e, y) for e, y in [("R", 1), ("R", 4), ("令和", 4), ("H", 1), ("H", 31), ("S", 64)]] == [
        2019, 2022, 2022, 1989, 2019, 1989]
    assert [gregorian_year(y, be) for y, be in [(2565, False), (2565, True), (2022, False), (2500, False)]] == [
        2022, 2022, 2022, 1957]


def test_impossible_era_date_is_one_placed_line_and_a_bad_file_changes_nothing(tmp_path, open_memory):
    conv, stats = _read(tmp_path, ["[R4/03/18 14:56:01] 太郎: こんにちは", "[R4/13/40 14:56:01] 太郎: ???",
                                   "[R4/03/19 8:00:00] 花子: おはよう"])
    assert texts(conv) == ["こんにちは", "おはよう"]
    assert [p["where"] for p in stats.places] == ["line 2"]
    bad = _chat(tmp_path, ["[R4/13/40 14:56:01] 太郎: ???", "[R4/14/41 14:56:01] 太郎: !!!"], "bad.txt")
    assert "unreadable" in assert_refused_store_unchanged(open_memory, bad, "unreadable")
