"""WhatsApp exports as the world writes them: placeholders and notices in any
language told apart by structure, deleted notices by the table of WhatsApp's
own strings, Arabic-Indic and Persian digits with RTL marks, and dates in the
Buddhist, Japanese era and Solar Hijri calendars."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from rawrag_tui.importers import _whatsapp_notices as notices
from rawrag_tui.importers import whatsapp
from rawrag_tui.importers._calendars import SOLAR_HIJRI_YEARS, era_year, gregorian_year, solar_hijri_date
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
        f"[18.03.22, 14:56:04] Jan: {L}Tämä viesti poistettiin.",
        f"[18.03.22, 14:56:04] Jan: {L}Cafodd y neges hon ei dileu.",  # a language the table lacks: still out
        f"[18.03.22, 14:56:05] Eva: {L}Eva hat die Gruppenbeschreibung geändert.",
    ])
    assert texts(conv) == ["Guten Morgen"]
    assert dict(stats.skipped) == {"system": 3, "deleted": 3}


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


# -- deleted-message notices, from the table of WhatsApp's own strings ---------------------------


#: (language, a notice as WhatsApp writes it): someone else's deleted message and one's own.
DELETED_NOTICES = [
    ("en", "This message was deleted"), ("en", "You deleted this message"),
    ("de", "Diese Nachricht wurde gelöscht"), ("de", "Du hast diese Nachricht gelöscht"),
    ("fr", "Ce message a été supprimé"), ("fr", "Vous avez supprimé ce message"),
    ("es", "Se eliminó este mensaje"), ("es", "Eliminaste este mensaje"),
    ("pt", "Esta mensagem foi apagada"), ("pt", "Você apagou esta mensagem"),
    ("it", "Questo messaggio è stato eliminato"), ("nl", "Dit bericht is verwijderd"),
    ("ru", "Данное сообщение удалено"), ("ru", "Вы удалили это сообщение"),
    ("pl", "Ta wiadomość została usunięta"), ("tr", "Bu mesaj silindi"), ("tr", "Bu mesajı sildiniz"),
    ("ja", "このメッセージは削除されました"), ("ko", "이 메시지는 삭제되었습니다"),
    ("zh-Hans", "这条消息已被删除。"), ("zh-Hant", "此訊息已刪除。"), ("hi", "यह संदेश मिटाया गया"),
    ("ar", "تم حذف هذه الرسالة"), ("he", "הודעה זו נמחקה"), ("fa", "این پیام حذف شد"),
    ("uk", "Це повідомлення було видалено"), ("sv", "Det här meddelandet raderades"),
]


def test_android_deleted_notices_in_every_language_of_the_table(tmp_path):
    lines = ["18/03/2022, 14:56 - Eva: hallo"]
    for i, (lang, notice) in enumerate(DELETED_NOTICES):
        mark = R if lang in ("ar", "he", "fa") else ""  # RTL phones may put U+200F around it
        stop = "." if i % 2 and not notice.endswith("。") else ""  # some app versions end it with a full stop
        lines.append(f"18/03/2022, 15:{i:02d} - Jan: {mark}{notice}{stop}{mark}")
    conv, stats = _read(tmp_path, lines)
    assert texts(conv) == ["hallo"]
    assert stats.skipped["deleted"] == len(DELETED_NOTICES) and stats.unreadable == 0


@pytest.mark.parametrize(("lang", "notice"), [n for n in DELETED_NOTICES if n[0] in (
    "en", "de", "fr", "es", "pt", "ru", "ja", "ar", "tr", "zh-Hant")])
def test_ios_deleted_notices_open_with_the_mark_and_are_counted_as_deleted(tmp_path, lang, notice):
    stop = "" if notice.endswith("。") else "."
    conv, stats = _read(tmp_path, [
        "[18.03.22, 14:56:01] Eva: Hallo",
        f"[18.03.22, 14:56:02] Jan: {L}{notice}{stop}",
    ])
    assert texts(conv) == ["Hallo"] and dict(stats.skipped) == {"deleted": 1}


def test_words_about_a_deleted_message_stay_words(tmp_path):
    typed = [
        "This message was deleted by mistake, sorry",  # more than the notice
        "I think this message was deleted",
        "Diese Nachricht wurde gelöscht?",  # a question, not WhatsApp's notice
        "This message was deleted\nbut I kept a copy",  # the notice and more lines
        "«Ce message a été supprimé»",
    ]
    lines = []
    for i, text in enumerate(typed):
        first, *rest = text.split("\n")
        lines += [f"18/03/2022, 15:{i:02d} - Eva: {first}", *rest]
    conv, stats = _read(tmp_path, lines)
    assert texts(conv) == typed and "deleted" not in stats.skipped


def test_the_notice_table_names_its_languages_and_source_and_every_entry_is_read():
    table = notices.table()
    assert set(table) == {"incoming", "outgoing", "unverified"}
    assert {"en", "de", "fr", "es", "pt", "it", "nl", "ru", "pl", "tr", "ja", "ko", "ar", "fa", "hi"} <= set(
        table["incoming"]) & set(table["outgoing"])
    for part in table.values():
        for lang, texts_of in part.items():
            assert lang.split("-")[0].isalpha() and lang == lang.strip() and texts_of
            for text in texts_of:
                assert notices.is_deleted_notice(text), (lang, text)
                assert notices.is_deleted_notice(f"\u200e{text} \u200f"), (lang, text)
    raw = (Path(whatsapp.__file__).parents[1] / "data" / notices.NOTICES_FILE).read_text(encoding="utf-8")
    assert "starkdmi/whats_json" in raw and "revoked_msg_incoming" in raw
    assert notices.is_deleted_notice("THIS MESSAGE WAS DELETED.")
    assert notices.is_deleted_notice("Aquest missatge s\u2019ha suprimit")  # a typographic apostrophe
    assert not notices.is_deleted_notice("") and not notices.is_deleted_notice("deleted")


def test_cli_import_shows_the_deleted_notices_it_left_out(tmp_path):
    from .conftest import run_cli

    path = _chat(tmp_path, [
        "18/03/2022, 14:56 - Eva: Guten Morgen",
        "18/03/2022, 14:57 - Jan: Diese Nachricht wurde gelöscht",
        "18/03/2022, 14:58 - Eva: Du hast diese Nachricht gelöscht",
        "18/03/2022, 14:59 - Eva: <Medien ausgeschlossen>",
    ])
    code, out, err = run_cli("import", str(path), "--dry-run", "--quiet", home=tmp_path / "h")
    assert code == 0 and "Traceback" not in err
    assert "2 deleted" in out and "1 media" in out


# -- the Solar Hijri calendar (Persian phones) ----------------------------------------------------


def test_solar_hijri_dates_against_known_pairs():
    pairs = {
        (1403, 1, 1): "2024-03-20", (1402, 1, 1): "2023-03-21", (1402, 12, 29): "2024-03-19",
        (1401, 12, 27): "2023-03-18", (1403, 12, 30): "2025-03-20",  # 1403 is a leap year: Esfand has 30 days
        (1400, 10, 11): "2022-01-01", (1388, 1, 1): "2009-03-21",
    }
    assert {k: solar_hijri_date(*k).isoformat() for k in pairs} == pairs
    with pytest.raises(ValueError):
        solar_hijri_date(1402, 12, 30)  # 1402 is not a leap year
    assert 1401 in SOLAR_HIJRI_YEARS and 2022 not in SOLAR_HIJRI_YEARS and 1445 not in SOLAR_HIJRI_YEARS


def test_persian_ios_export_fixture_solar_hijri_across_nowruz():
    folder = FIXTURES / "whatsapp" / "ios_fa"
    assert detected(folder) == "whatsapp"
    [conv], stats = parse_all(whatsapp, folder)
    assert conv.title == "مریم"
    assert [(m.speaker, m.text, m.attachments, m.timestamp) for m in conv.messages] == [
        ("مریم", "سلام! فردا نوروز است", (), datetime(2024, 3, 19, 9, 16, 5)),
        ("علی", "سال نو مبارک\n۱۴۰۳ سال خوبی باشد", (), datetime(2024, 3, 19, 23, 40)),  # digits in text kept
        ("مریم", "", ("00000009-PHOTO-2024-03-20-14-30-10.jpg",), datetime(2024, 3, 20, 14, 30, 10)),
        ("علی", "صبح بخیر", (), datetime(2024, 3, 21, 8, 0)),
    ]
    assert dict(stats.skipped) == {"system": 1, "deleted": 2}


def test_persian_android_export_fixture():
    path = FIXTURES / "whatsapp" / "android_fa" / "WhatsApp Chat with علی.txt"
    assert detected(path) == "whatsapp"
    [conv], stats = parse_all(whatsapp, path)
    assert [(m.text, m.timestamp) for m in conv.messages] == [
        ("سلام مریم", datetime(2023, 3, 18, 10, 30)),
        ("آخرین روز سال", datetime(2023, 3, 20, 23, 59)),
        ("نوروز ۱۴۰۲ مبارک", datetime(2023, 3, 21, 0, 0)),
        ("این پیام حذف شد؟", datetime(2023, 3, 21, 0, 1)),  # a question about it: words
    ]
    assert dict(stats.skipped) == {"deleted": 2, "media": 1}


@pytest.mark.parametrize(("lines", "dates"), [
    (["[1402/01/01, 09:00:00] Sara: salam", "[1402/12/29, 21:00:00] Ali: shab bekheir"],  # Latin digits
     ["2023-03-21", "2024-03-19"]),
    ([f"[۱۴۰۳{R}/۱۲{R}/۳۰{R}، ۷:۳۰:۰۰ ب.ظ.] سارا: شب بخیر", f"[۱۴۰۴{R}/۰۱{R}/۰۱{R}، ۱۲:۰۰:۰۰ ب.ظ.] علی: ظهر"],
     ["2025-03-20", "2025-03-21"]),
    (["۱۴۰۰/۱۰/۱۱، ۲:۱۰ ب.ظ. - سارا: سلام", "۱۴۰۰/۱۰/۱۲، ۸:۰۰ ق.ظ. - علی: صبح"],  # Android, 12-hour
     ["2022-01-01", "2022-01-02"]),
])
def test_solar_hijri_variants_read_to_gregorian(tmp_path, lines, dates):
    conv, _ = _read(tmp_path, lines)
    assert [m.timestamp.date().isoformat() for m in conv.messages] == dates


def test_impossible_solar_hijri_date_is_one_placed_line(tmp_path):
    conv, stats = _read(tmp_path, ["[1402/12/28, 10:00:00] Sara: a", "[1402/12/30, 10:00:00] Sara: b",
                                   "[1403/01/01, 10:00:00] Ali: c"])
    assert texts(conv) == ["a", "c"] and [p["where"] for p in stats.places] == ["line 2"]
