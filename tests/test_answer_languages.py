"""Answers in every language: the language modules (rawrag_tui/lang), the
``[answer] checks`` setting, the final answer first, today's date kept out
of answers, and CJK answers matched to their sources by characters."""

from __future__ import annotations

import datetime as dt

import pytest

from rawrag_tui import lang
from rawrag_tui.answer.checks import first_correction
from rawrag_tui.answer.checks.stated_dates import check as stated
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.errors import UserError
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult
from rawrag_tui.settings import ANSWER_CHECKS, load_settings
from tests.test_stated_dates import QUESTION, TRIP, OneAnswer


def msg(mid, text, ts, speaker, conversation="chat"):
    return EvidenceMessage(mid, f"m{mid}", 1, conversation, mid, ts, speaker, "user", text)


def result_of(question, messages):
    return SearchResult(question, "hybrid", [Hit(1, 1, "chat", 1, "", messages=messages)], {"total": 0.0})


# -- detection and the modules ---------------------------------------------------------

@pytest.mark.parametrize(("text", "code"), [
    ("Which city does Ines live in now?", "en"),
    ("Ok, 3pm!", "en"),  # too short to tell: English
    ("王芳的猫叫什么名字？", "zh"),
    ("佐藤さんの歯医者の予約はいつですか？", "ja"),
    ("Me mudé a Braga el mes pasado con mi hermana", "und"),  # no English word: not English
    ("Ich bin am 3. Mai nach Berlin umgezogen, endlich", "de"),  # German has a module (lang/de.py)
    ("Переехала в Брагу", "und"),
])
def test_detect_by_script_and_english_signal_words(text, code):
    assert lang.detect(text) == code


def test_english_rules_run_only_on_english_text():
    assert lang.annotate("I moved yesterday", "2026-03-10T10:00:00Z") == "I moved yesterday (9 March 2026)"
    # The same letters in a text detected as another language are not English words.
    spanish = "La reunión de today es en la oficina de la calle mayor"
    assert lang.detect(spanish) == "und" and lang.annotate(spanish, "2026-03-10T10:00:00Z") == spanish
    assert lang.asks_when("When is the party?") and not lang.asks_when("¿Cuándo es la fiesta de mi hermana?")


def test_cjk_dates_and_questions():
    assert lang.dates_in("牙医改到3月21日了", "2026-03-10T10:00:00Z") == ["2026年3月21日"]
    assert lang.dates_in("歯医者の予約を3月21日に変更しました", "2026-03-10T10:00:00Z") == ["2026年3月21日"]
    assert lang.dates_in("2025年12月1日に引っ越した", "2026-03-10T10:00:00Z") == ["2025年12月1日"]
    assert lang.asks_when("佐藤さんの歯医者の予約はいつですか？") and lang.asks_when("婚礼是什么时候？")
    assert not lang.asks_when("王芳的猫叫什么名字？")
    # Words are bigrams: the subject of a Chinese question is found in a Chinese message.
    assert {"王芳", "的猫"} <= lang.query_terms("王芳的猫叫什么名字？")
    assert "的猫" in lang.word_stems("王芳说：我的猫叫小白")


def test_a_cjk_when_answer_no_message_states_gives_way_to_the_latest_stated_date():
    messages = [msg(1, "歯医者の予約は3月14日です", "2026-03-01T10:00:00Z", "佐藤"),
                msg(2, "歯医者の予約を3月21日に変更しました", "2026-03-10T10:00:00Z", "佐藤")]
    question = "佐藤さんの歯医者の予約はいつですか？"
    fixed = stated(question, "3月12日", messages)
    assert fixed is not None and (fixed.message, fixed.text) == (2, "2026年3月21日")
    assert stated(question, "3月21日", messages) is None  # a message states it: kept


# Sent on Monday 10 March 2025: weeks are calendar weeks from Monday in both languages.
@pytest.mark.parametrize(("text", "annotated"), [
    ("我昨天去医院复查了", "我昨天（2025年3月9日）去医院复查了"),
    ("大前天下雨，前天晴", "大前天（2025年3月7日）下雨，前天（2025年3月8日）晴"),
    ("项目上线前天天加班，前天天气很好", "项目上线前天天加班，前天（2025年3月8日）天气很好"),  # 前 + 天天: every day
    ("3月5日前交报告，马上月底了", "3月5日前交报告，马上月底了"),  # before 5 March; 马上 + 月底
    ("歯医者は3月5日前に行く。5日後に会おう", "歯医者は3月5日前に行く。5日後（2025年3月15日）に会おう"),
    ("牙医改到下周三了", "牙医改到下周三（2025年3月19日）了"),  # next week's Wednesday, not the 12th
    ("下星期天见，这周六有空吗", "下星期天（2025年3月23日）见，这周六（2025年3月15日）有空吗"),
    ("下周一起吃饭吧", "下周一起吃饭吧"),  # "together": no Monday; a week alone is no date
    ("这周天天十点后才走，下周三天假", "这周天天十点后才走，下周三天假"),  # every day; three days: no weekday
    ("下周三天气不错，这周天有空", "下周三（2025年3月19日）天气不错，这周天（2025年3月16日）有空"),
    ("下个月5号搬家，下个月底交房", "下个月5号（2025年4月5日）搬家，下个月底（2025年4月）交房"),
    ("三天前辞职，两个月后入职", "三天前（2025年3月7日）辞职，两个月后（2025年5月）入职"),
    ("明年3月5日结婚，去年在成都", "明年3月5日（2026年3月5日）结婚，去年（2024年）在成都"),
    # The day, month and year it was sent in: the day line says them.
    ("今天是第一天，今年和这个月都忙", "今天是第一天，今年和这个月都忙"),
    ("今日は忙しい。今月20日に会おう", "今日は忙しい。今月20日（2025年3月20日）に会おう"),
    ("2025年前后", "2025年前后"),  # a year written out is no count of years
    ("歯医者は来週の水曜日に変更", "歯医者は来週の水曜日（2025年3月19日）に変更"),
    ("昨日、3日前に、来月５日、来月末",
     "昨日（2025年3月9日）、3日前（2025年3月7日）に、来月５日（2025年4月5日）、来月末（2025年4月）"),
    ("一昨日から再来週の金曜まで。来年の春",
     "一昨日（2025年3月8日）から再来週の金曜（2025年3月28日）まで。来年（2026年）の春"),
    ("来週は忙しい", "来週は忙しい"),
])
def test_cjk_relative_times_are_resolved_against_the_day_sent(text, annotated):
    assert lang.annotate(text, "2025-03-10T10:00:00Z") == annotated


# Sent on Monday 10 March 2025, as above.
@pytest.mark.parametrize(("text", "annotated"), [
    ("Ich bin gestern umgezogen und wir sehen uns morgen",
     "Ich bin gestern (9. März 2025) umgezogen und wir sehen uns morgen (11. März 2025)"),
    ("Guten Morgen! Heute Morgen war ich laufen, den ganzen Morgen. Morgen gehe ich wieder",
     "Guten Morgen! Heute Morgen war ich laufen, den ganzen Morgen. Morgen (11. März 2025) gehe ich wieder"),
    # "nächsten Dienstag" is next week's (tomorrow is "morgen"); "kommenden" and "diesen" the coming one.
    ("Der Termin ist jetzt am nächsten Dienstag, nicht am kommenden Dienstag",
     "Der Termin ist jetzt am nächsten Dienstag (18. März 2025), nicht am kommenden Dienstag (11. März 2025)"),
    ("Wir haben letzten Freitag die Wohnung bekommen und ziehen nächsten Monat um, letztes Jahr war das anders",
     "Wir haben letzten Freitag (7. März 2025) die Wohnung bekommen und ziehen nächsten Monat (April 2025) um, "
     "letztes Jahr (2024) war das anders"),
    ("Ich habe vor drei Tagen gekündigt und fange in zwei Monaten an, der Termin ist in 10 Tagen",
     "Ich habe vor drei Tagen (7. März 2025) gekündigt und fange in zwei Monaten (Mai 2025) an, "
     "der Termin ist in 10 Tagen (20. März 2025)"),
    ("Die nächste Woche ist bei mir schlecht, heute und dieses Jahr auch", "Die nächste Woche ist bei mir "
     "schlecht, heute und dieses Jahr auch"),  # a week with no day, the day and year sent: left alone
])
def test_german_relative_times_are_resolved_against_the_day_sent(text, annotated):
    assert lang.detect(text) == "de"
    assert lang.annotate(text, "2025-03-10T10:00:00Z") == annotated


def test_a_resolved_cjk_time_is_a_stated_date_once():
    # The day the words meant is what the stated-dates check reads; one written
    # out before its annotation ("明年3月5日") counts once, with the annotation's year.
    assert lang.dates_in("牙医改到下周三了", "2025-03-10T10:00:00Z") == ["2025年3月19日"]
    assert lang.dates_in("明年3月5日结婚", "2025-03-10T10:00:00Z") == ["2026年3月5日"]
    assert lang.dates_in("来月５日に変更", "2025-03-10T10:00:00Z") == ["2025年4月5日"]
    assert lang.dates_in("下个月30号", "2025-01-10T10:00:00Z") == []  # no 30 February
    assert lang.annotate("昨天", None) == "昨天"  # no send date, nothing to resolve
    messages = [msg(1, "歯医者の予約は3月14日です", "2025-03-01T10:00:00Z", "佐藤"),
                msg(2, "歯医者、来週の金曜日に変更になった", "2025-03-10T10:00:00Z", "佐藤")]
    fixed = stated("佐藤さんの歯医者の予約はいつですか？", "3月14日", messages)
    assert fixed is not None and (fixed.message, fixed.text) == (2, "2025年3月21日")


# -- CJK answers find their sources --------------------------------------------------------

@pytest.mark.parametrize(("question", "said", "messages", "source"), [
    ("王芳的猫叫什么名字？", "小白",
     [msg(1, "周末去爬山吗？", "2026-01-01T10:00:00Z", "李雷"),
      msg(2, "我的猫叫小白，今年三岁了。", "2026-01-02T10:00:00Z", "王芳")], "m2"),
    ("王芳养了什么动物？", "猫",  # one character: matched as itself
     [msg(1, "周末去爬山吗？", "2026-01-01T10:00:00Z", "李雷"),
      msg(2, "我的猫叫小白，今年三岁了。", "2026-01-02T10:00:00Z", "王芳")], "m2"),
    ("田中さんはどこに住んでいますか？", "札幌",
     [msg(1, "来月から札幌に住むことになりました。", "2026-01-01T10:00:00Z", "田中"),
      msg(2, "いいね！", "2026-01-01T10:05:00Z", "鈴木")], "m1"),
    # A date with the year the message implies ("2月14日", sent in January 2025), in either script.
    ("健太と美咲の北海道スキー旅行はいつ出発しますか？", "2025年2月14日",
     [msg(1, "うん！2月14日出発でニセコね", "2025-01-10T10:00:00Z", "美咲"),
      msg(2, "楽しみ！", "2025-01-10T10:05:00Z", "健太")], "m1"),
    ("When is the Fontainebleau trip?", "3 May 2026",
     [msg(1, "Shall we move the Fontainebleau trip to Saturday 3 May?", "2026-04-08T07:30:00Z", "Sam"),
      msg(2, "Works for me.", "2026-04-08T07:41:00Z", "Leo")], "m1"),
])
def test_answers_in_any_script_are_matched_to_their_sources_not_flagged(question, said, messages, source):
    answer = answer_question(question, result_of(question, messages), lambda: OneAnswer(said),
                             prompt_style="plain", checks=())
    assert not answer.unsupported and [c.external_id for c in answer.citations] == [source]
    guess = answer_question(question, result_of(question, messages), lambda: OneAnswer("大阪"),
                            prompt_style="plain", checks=())
    assert guess.unsupported  # a CJK answer no message holds is still flagged


# -- the checks setting ----------------------------------------------------------------------

def test_checks_setting_is_typed_and_refuses_unknown_names_in_one_line(tmp_path, monkeypatch):
    assert load_settings(tmp_path).answer.checks == ANSWER_CHECKS
    (tmp_path / "config.toml").write_text('[answer]\nchecks = ["later_values"]\n')
    assert load_settings(tmp_path).answer.checks == ("later_values",)
    monkeypatch.setenv("RAWRAG_ANSWER_CHECKS", "")
    assert load_settings(tmp_path).answer.checks == ()
    monkeypatch.delenv("RAWRAG_ANSWER_CHECKS")
    (tmp_path / "config.toml").write_text('[answer]\nchecks = ["stated_date"]\n')
    with pytest.raises(UserError) as exc:
        load_settings(tmp_path)
    assert str(exc.value) == ("setting answer.checks: unknown name 'stated_date'; "
                              "known: cancelled_plans, stated_dates, later_values, repeats_question, later_reading, "
                              "ended_reading, own_reading, earlier_reading, yes_no_reading, nearest_reading, "
                              "avoided_reading, someone_else, chat_partner")
    (tmp_path / "config.toml").write_text("[answer]\nchecks = 3\n")
    with pytest.raises(UserError, match="not a list of names"):
        load_settings(tmp_path)


def test_every_check_can_be_turned_off():
    from rawrag_tui.answer import (
        avoided_reading,
        chat_partner,
        earlier_reading,
        ended_reading,
        later_reading,
        nearest_reading,
        own_reading,
        someone_else,
        yes_no_reading,
    )
    from rawrag_tui.answer.checks import BY_NAME

    # Every name is a check of the answer's text, a second reading or the final answer's sources
    # (off: tests/test_later_reading.py, tests/test_ended_reading.py, tests/test_earlier_reading.py,
    # tests/test_yes_no_reading.py, tests/test_nearest_reading.py, tests/test_someone_else.py,
    # tests/test_chat_partner.py, tests/test_own_reading.py, tests/test_avoided_reading.py).
    readings = {later_reading.NAME, ended_reading.NAME, own_reading.NAME, earlier_reading.NAME, yes_no_reading.NAME,
                nearest_reading.NAME, avoided_reading.NAME, someone_else.NAME, chat_partner.NAME}
    assert set(BY_NAME) | readings == set(ANSWER_CHECKS)
    result = result_of(QUESTION, TRIP)
    on = answer_question(QUESTION, result, lambda: OneAnswer("4 May 2026"), prompt_style="plain")
    assert on.answer == "3 May 2026"
    for kept in ((), ("later_values",)):
        off = answer_question(QUESTION, result, lambda: OneAnswer("4 May 2026"), prompt_style="plain", checks=kept)
        assert off.answer == "4 May 2026" and off.reader_said == "" and off.correction == ""


# -- the final answer first, its note under it ----------------------------------------------

def test_the_corrected_value_is_the_answer_and_the_readers_words_its_note():
    answer = answer_question(QUESTION, result_of(QUESTION, TRIP), lambda: OneAnswer("4 May 2026 [4]"),
                             prompt_style="cited", select="windows")  # every message, in order
    assert answer.answer == "3 May 2026" and answer.reader_said == "4 May 2026 [4]"
    assert answer.correction == ('the reader said "4 May 2026", which no message says; [2], '
                                 "the latest message on this that states a date, says 3 May 2026")
    data = answer.to_json()
    assert data["answer"] == "3 May 2026" and data["correction"] == answer.correction


# -- questions about an earlier state -----------------------------------------------------------

@pytest.mark.parametrize(("question", "past"), [
    ("Which city did Hannah live in before she moved to Leeds?", True),
    ("What date was Zoe's wedding first planned for?", True),
    ("Which city does Hannah live in?", False),
    ("When did Melanie go to the pottery workshop?", True),  # what happened: every version counts
    ("李娜搬去杭州之前住在哪个城市？", True),
    ("李娜现在住在哪个城市？", False),
    ("健太が前に使っていたメールアドレスは何ですか？", True),
    ("美咲のお姉さんの結婚式は、最初は何日の予定でしたか？", True),
    ("美咲の猫の名前は何ですか？", False),  # 名前 (name) is not 前 (before)
    ("Wo hat Lena gewohnt, bevor sie nach Hamburg gezogen ist?", True),
    ("Wo hat Jonas vor Klimawerk gearbeitet?", True),  # vor and a name
    ("Welche E-Mail-Adresse hatte Mehmet früher?", True),
    ("In welcher Stadt wohnt Lena?", False),
    ("Wo war Lena vor zwei Wochen?", False),  # vor and a number: a time ago, not an earlier state
])
def test_a_question_about_an_earlier_state_is_told_by_its_languages_module(question, past):
    assert lang.asks_about_past(question) is past


@pytest.mark.parametrize(("question", "first"), [
    ("What date was Zoe's wedding first planned for?", True),
    ("When was the launch originally meant to be?", True),
    ("Which city did Hannah live in before she moved to Leeds?", False),  # the state just before
    ("Wann war Lenas Prüfung ursprünglich geplant?", True),
    ("Für wann war der erste Termin angesetzt?", True),
    ("Wann ist der Termin erst?", False),  # "erst" alone is "only"
    ("许悦的雅思考试最早约在哪天？", True),
    ("李娜搬去杭州之前住在哪个城市？", False),
    ("山本さんの面接は最初いつの予定でしたか？", True),
    ("健太が前に使っていたメールアドレスは何ですか？", False),
])
def test_a_question_asking_for_the_first_state_of_all_is_told_by_its_languages_module(question, first):
    assert lang.asks_first(question) is first


@pytest.mark.parametrize(("question", "closed", "now"), [
    ("Does Hannah still live in York?", True, True),
    ("Did Melanie make the black and white bowl in the photo?", True, False),
    ("Would Melanie enjoy Vivaldi?", True, False),
    ("Where did Melanie go camping?", False, False),
    ("Wohnt Lena noch in Hamburg?", True, True),
    ("李娜还住在成都吗？", True, True),
])
def test_a_question_answered_yes_or_no_is_told_whatever_its_tense(question, closed, now):
    assert lang.asks_closed(question) is closed and lang.asks_yes_no(question) is now


# -- today's date ----------------------------------------------------------------------------

def test_an_answer_holding_todays_date_that_no_message_states_gets_the_stated_date():
    views = EvidenceViews()
    question = "What happened on the Fontainebleau climbing trip?"  # not a "when" question
    fixed = first_correction(question, "the trip, on 1 December 2026", "the trip, on 1 December 2026", TRIP,
                             views, date="2026-12-01")
    assert fixed is not None and fixed.correction.text == "3 May 2026"
    # Another day than today, in an answer to a question that does not ask when: left alone.
    assert first_correction(question, "on 2 December 2026", "on 2 December 2026", TRIP, views,
                            date="2026-12-01") is None


def test_todays_date_with_no_stated_date_to_give_instead_is_not_in_your_history():
    # The reader wrote the send date of a message sent the day the question is
    # asked (a Spanish question: no language module says it asks "when", and
    # no message shares its subject word).
    def answer_to(question, first, second):
        party = [msg(1, first, "2025-06-01T19:55:00", "Lena"), msg(2, second, "2025-07-15T22:05:00", "Jonas")]
        return answer_question(question, result_of(question, party), lambda: OneAnswer("15 July 2025"),
                               prompt_style="plain", date="2025-07-15")

    answer = answer_to("¿Cuándo fue la inauguración de Lena?",
                       "La fiesta de la casa nueva es el 28 de junio, ¡venid todos!", "Ya estoy otra vez en Hamburgo.")
    assert answer.answer == "Not in your history." and answer.reader_said == "15 July 2025"
    assert "the day the question is asked" in answer.correction and not answer.citations
    # German has a module: its "wann" and "28. Juni" give the date the message states instead.
    answer = answer_to("Wann ist Lenas Einweihung?", "Die Einweihung ist jetzt am 28. Juni, kommt alle!",
                       "Ich bin wieder in Hamburg.")
    assert answer.answer == "28. Juni 2025" and answer.reader_said == "15 July 2025"
    # Asked about now, today's date may be the answer: left alone.
    about_now = "How long ago did Lena move to Hamburg?"
    assert lang.asks_about_now(about_now)
    party = [msg(1, "Die Einweihung ist am 28. Juni", "2025-06-01T19:55:00", "Lena")]
    assert stated(about_now, "15 July 2025", party, EvidenceViews(), dt.date(2025, 7, 15)) is None


def test_german_dates_and_questions_have_their_module():
    assert lang.dates_in("Neuer Termin: 17. Mai", "2025-04-02T10:00:00") == ["17. Mai 2025"]
    assert lang.dates_in("Sie steigt am Samstag, 28. Juni, diesmal wirklich!", "2025-06-01T10:00:00") == [
        "28. Juni 2025"]
    assert lang.dates_in("Der Termin ist am 03.05.2026 um 14 Uhr", "2026-01-01T10:00:00") == ["3. Mai 2026"]
    assert lang.dates_in("Die Version 3.5 ist da, mit 2.5 Liter", "2026-01-01T10:00:00") == []  # no date
    assert lang.dates_in("Die Hochzeit ist am 28. Juni 2027.", "2026-01-01T10:00:00") == ["28. Juni 2027"]
    assert lang.asks_when("Wann war Lenas Einweihungsparty?")
    assert lang.asks_when("Für welchen Tag hatte Lena ihre Einweihungsparty ursprünglich geplant?")
    assert not lang.asks_when("Wo wohnt Lena?")
    assert lang.asks_about_now("Was hat Lena letzte Woche mit Jonas gemacht?")
    assert not lang.asks_about_now("Wo wohnt Lena?")
    # Function words name no subject; the nouns and the verb do.
    assert lang.query_terms("In welcher Stadt wohnt Lena jetzt?") == {"stadt", "wohnt", "lena"}


def test_the_demos_a_line_holds_the_final_answer_and_the_note_follows(capsys):
    from rawrag_tui.commands.demo import _answer

    def ask(question, **_):
        return answer_question(question, result_of(question, TRIP), lambda: OneAnswer("4 May 2026"),
                               prompt_style="plain")

    assert _answer(ask, QUESTION, quiet=False)["answer"] == "3 May 2026"
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "A: 3 May 2026"
    assert lines[1].startswith('   note: the reader said "4 May 2026"') and lines[2].startswith("   sources: [2]")


def test_a_reply_that_states_a_later_date_on_the_subject_wins():
    # The changed-facts set's visa interview: moved to 20 May, then the reply to
    # "still going to the visa interview?" says it happened on 3 June.
    chat = [msg(1, "我签证面试的时间被领事馆改了，推迟到5月20日", "2025-03-03T21:05:00Z", "陈浩"),
            msg(2, "恭喜恭喜！那签证面试还去吗", "2025-06-15T22:15:00Z", "李娜"),
            msg(3, "去了，6月3日面完了，展会轮不到我了", "2025-06-15T22:16:00Z", "陈浩")]  # no subject bigram
    fixed = stated("陈浩的签证面试是哪天？", "3月12日", chat)
    assert fixed is not None and (fixed.message, fixed.text) == (3, "2025年6月3日")
    # Without the message it replies to, it is off the subject.
    assert stated("陈浩的签证面试是哪天？", "3月12日", [chat[0], chat[2]]).text == "2025年5月20日"


def test_a_german_compound_in_the_question_finds_its_parts_in_the_messages():
    # "Einweihungsparty" is a "Party": the later message that moves it shares no whole word with the question.
    assert {"party", "einwe"} <= lang.subject_terms("Wann war Lenas Einweihungsparty?")
    english = "Which city does Ines live in now?"
    assert lang.subject_terms(english) == lang.query_terms(english)  # no compounds: the words alone
    party = [msg(1, "Die Einweihungsparty ist am 3. Mai, kommt alle!", "2025-03-02T19:55:00", "Lena"),
             msg(2, "Ich bin dabei, bis dann!", "2025-03-02T20:01:00", "Jonas"),
             # Not a reply to the first (that rule would find it without the parts).
             msg(3, "Die Party muss ich verschieben. Sie steigt am 28. Juni, diesmal wirklich!",
                 "2025-04-20T10:00:00", "Lena")]
    question = "Wann war Lenas Einweihungsparty?"
    answer = answer_question(question, result_of(question, party), lambda: OneAnswer("2 March 2025"),
                             prompt_style="plain", date="2025-07-15")
    assert answer.answer == "28. Juni 2025" and answer.reader_said == "2 March 2025"


def test_each_language_says_in_its_own_words_when_a_number_or_an_address_is_asked_for():
    phone, email = frozenset({lang.PHONE}), frozenset({lang.EMAIL})
    assert lang.kinds_asked("What is Marcus's phone number?") == phone
    assert lang.kinds_asked("What is Jess's email address?") == email
    assert lang.kinds_asked("Wie lautet Lenas Handynummer?") == phone
    assert lang.kinds_asked("Welche E-Mail-Adresse hatte Mehmet früher?") == email
    assert lang.kinds_asked("陈浩的手机号码是多少？") == phone and lang.kinds_asked("王磊的邮箱地址是什么？") == email
    assert lang.kinds_asked("優子の電話番号は何ですか？") == phone
    assert lang.kinds_asked("健太のメールアドレスは何ですか？") == email
    others = ("Where does Amir live?", "Wo wohnt Jonas jetzt?", "李娜现在住在哪个城市？", "美咲の弟の名前は何ですか？")
    for other in others:
        assert lang.kinds_asked(other) == frozenset()


def test_a_german_question_names_a_person_by_the_genitive_too():
    # "Annas Freund": German writes a name's genitive with an -s and no apostrophe;
    # cut to five letters "annas" is not "anna", and the person asked about was not found.
    from rawrag_tui.answer.history import without_names

    people = [msg(1, "Hallo", "2025-01-01T10:00:00", "Anna"), msg(2, "Hi", "2025-01-01T10:01:00", "Mehmet"),
              msg(3, "Moin", "2025-01-01T10:02:00", "Jonas")]
    views = EvidenceViews()
    assert views.named("Wer war Annas Freund vor Sebastian?", people)[0] == {"Anna"}
    assert views.named("Wie lautet Mehmets E-Mail-Adresse?", people)[0] == {"Mehmet"}
    assert views.named("Wo wohnt Jonas jetzt?", people)[0] == {"Jonas"}
    assert without_names("Wer war Annas Freund vor Sebastian?", ["Anna"]) == "Wer war Freund vor Sebastian?"
    assert lang.of("Wer war Annas Freund?").name_forms("anna") == {"anna", "annas"}
    assert lang.of("Wo wohnt Jonas jetzt?").name_forms("jonas") == {"jonas"}  # Jonas' takes an apostrophe
