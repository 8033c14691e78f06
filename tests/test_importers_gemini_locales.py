"""Gemini Takeout in other locales and shapes: the answer in ``description``
instead of ``safeHtmlItem``, and My Activity HTML pages whose labels, verbs
and time lines are in the account's language."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from rawrag_tui.importers import gemini
from rawrag_tui.importers._calendars import month_number, parse_stamp
from tests.importers_support import parse_all, texts

from .test_importers_claude_code import detected

APP = "https://gemini.google.com/app/"


def _record(title: str, when: str, chat: str, **more: object) -> dict:
    return {"header": "Gemini Apps", "title": title, "time": when, "products": ["Gemini Apps"],
            "activityControls": ["Gemini Apps Activity"], "details": [{"name": "chat", "url": APP + chat}], **more}


def _json(tmp_path: Path, records: list[dict]) -> Path:
    path = tmp_path / "MyActivity.json"
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return path


def test_answer_in_description_as_plain_text_keeps_its_lines(tmp_path):
    path = _json(tmp_path, [
        _record("Prompted Name three rivers in Portugal", "2025-03-02T10:00:00.000Z", "a1",
                description="Tagus\nDouro\nMondego"),
    ])
    assert detected(path) == "gemini"
    [conv], stats = parse_all(gemini, path)
    assert [(m.role, m.text) for m in conv.messages] == [
        ("user", "Name three rivers in Portugal"), ("assistant", "Tagus\nDouro\nMondego")
    ]
    assert stats.skipped.get("not_a_prompt", 0) == 0


def test_description_and_safehtmlitem_records_in_one_file_all_import(tmp_path):
    path = _json(tmp_path, [
        _record("Zadán dotaz Jak dlouho se vaří knedlíky?", "2025-03-02T10:00:00.000Z", "b2",
                description="<p>Asi <strong>20 minut</strong>.</p>"),
        _record("Prompted And potato dumplings?", "2025-03-02T10:05:00.000Z", "b2",
                safeHtmlItem=[{"html": "<p>About 15 minutes.</p>"}]),
        _record("Prompted Both fields?", "2025-03-02T10:06:00.000Z", "b2",
                safeHtmlItem=[{"html": "<p>The rendered answer.</p>"}], description="a summary line"),
    ])
    [conv], stats = parse_all(gemini, path)
    # a verb in a language we do not know: the whole title is the prompt, since it was answered
    assert texts(conv) == [
        "Zadán dotaz Jak dlouho se vaří knedlíky?", "Asi 20 minut.",
        "And potato dumplings?", "About 15 minutes.",
        "Both fields?", "The rendered answer.",  # safeHtmlItem wins over description
    ]
    assert stats.unreadable == 0


def test_prompt_only_record_with_description_but_no_verb_is_kept_as_answered(tmp_path):
    path = _json(tmp_path, [_record("Wie spät ist es in Tokio?", "2025-03-02T10:00:00.000Z", "c3",
                                    description="Dort ist es 19 Uhr.")])
    [conv], _ = parse_all(gemini, path)
    assert texts(conv) == ["Wie spät ist es in Tokio?", "Dort ist es 19 Uhr."]


CARD = (
    '<div class="outer-cell mdl-cell mdl-cell--12-col mdl-shadow--2dp"><div class="mdl-grid">'
    '<div class="header-cell mdl-cell mdl-cell--12-col"><p class="mdl-typography--title">{header}<br></p></div>'
    '<div class="content-cell mdl-cell mdl-cell--6-col mdl-typography--body-1">{prompt}<br>{stamp}<br>{answer}</div>'
    '<div class="content-cell mdl-cell mdl-cell--6-col mdl-typography--body-1 mdl-typography--text-right"></div>'
    '<div class="content-cell mdl-cell mdl-cell--12-col mdl-typography--caption"><b>{products}:</b><br>'
    '&emsp;{header}<br><b>{details}:</b><br>&emsp;<a href="{url}">{url}</a><br></div></div></div>'
)


def _page(tmp_path: Path, name: str, header: str, labels: tuple[str, str], cards: list[tuple[str, str, str]]) -> Path:
    body = "".join(
        CARD.format(header=header, prompt=p, stamp=s, answer=a, products=labels[0], details=labels[1],
                    url=f"{APP}d{i}")
        for i, (p, s, a) in enumerate(cards)
    )
    path = tmp_path / name
    path.write_text(f'<html><head><meta charset="utf-8"><title>{name}</title></head><body>'
                    f'<div class="mdl-grid">{body}</div></body></html>', encoding="utf-8")
    return path


@pytest.mark.parametrize(("locale", "header", "labels", "stamp", "utc"), [
    ("cs", "Aplikace Gemini", ("Produkty", "Podrobnosti"), "18. 3. 2022 14:56:01 SEČ",
     datetime(2022, 3, 18, 13, 56, 1, tzinfo=UTC)),
    ("de", "Gemini-Apps", ("Produkte", "Details"), "18.03.2022, 14:56:01 MEZ",
     datetime(2022, 3, 18, 13, 56, 1, tzinfo=UTC)),
    ("ja", "Gemini アプリ", ("サービス", "詳細"), "2022/03/18 14:56:01 JST",
     datetime(2022, 3, 18, 5, 56, 1, tzinfo=UTC)),
    ("fr", "Applications Gemini", ("Produits", "Détails"), "18 mars 2022, 14:56:01 UTC+1",
     datetime(2022, 3, 18, 13, 56, 1, tzinfo=UTC)),
    ("ko", "Gemini 앱", ("제품", "세부정보"), "2022. 3. 18. 오후 2:56:01 GMT+9",
     datetime(2022, 3, 18, 5, 56, 1, tzinfo=UTC)),
    ("ru", "Приложения Gemini", ("Сервисы", "Подробности"), "18 мар. 2022 г., 14:56:01 MSK",
     datetime(2022, 3, 18, 11, 56, 1, tzinfo=UTC)),
])
def test_my_activity_html_in_any_locale(tmp_path, locale, header, labels, stamp, utc):
    path = _page(tmp_path, f"MojeAktivita-{locale}.html", header, labels, [
        ("Jak se vaří<br>knedlíky?", stamp, "<p>Asi <b>20 minut</b>.</p>"),
        ("Zadán dotaz 12:00:00 je poledne?", stamp, "<p>Ano.</p>"),  # a clock inside a prompt is not the time line
    ])
    assert detected(path) == "gemini"
    convs, stats = parse_all(gemini, path)
    first, second = convs
    assert texts(first) == ["Jak se vaří\nknedlíky?", "Asi 20 minut."]
    assert first.messages[0].timestamp == utc
    assert texts(second) == ["Zadán dotaz 12:00:00 je poledne?", "Ano."]
    assert stats.unreadable == 0 and "time_zone_assumed_utc" not in stats.skipped


def test_html_time_line_in_an_unknown_zone_is_read_as_utc_and_counted(tmp_path):
    path = _page(tmp_path, "a.html", "Aplikace Gemini", ("Produkty", "Podrobnosti"),
                 [("Ahoj", "18. 3. 2022 14:56:01 XYZT", "<p>Ahoj!</p>")])
    [conv], stats = parse_all(gemini, path)
    assert conv.messages[0].timestamp == datetime(2022, 3, 18, 14, 56, 1, tzinfo=UTC)
    assert stats.skipped["time_zone_assumed_utc"] == 1


def test_time_line_rule_takes_only_a_date_and_a_clock():
    assert parse_stamp("3 de março de 2565, 09:00:00 ICT") == (datetime(2022, 3, 3, 9, 0), "ICT")  # Buddhist year
    assert parse_stamp("١٨‏/٣‏/٢٠٢٢ ٢:٥٦:٠٠ م") == (datetime(2022, 3, 18, 14, 56), None)
    for not_a_stamp in ["Prompted What happened on 18.03.2022 at 14:56:01?", "14:56:01", "18.03.2022",
                        "Aug 3, 2026, 13:14:05 PM PDT", "31. 2. 2022 10:00:00 SEČ", "Foo 3, 2026, 9:14:05 PDT"]:
        assert parse_stamp(not_a_stamp) is None, not_a_stamp
    assert [month_number(w) for w in ("Sept.", "März", "mrt", "bře", "дек.", "Xyz")] == [9, 3, 3, 3, 12, None]
