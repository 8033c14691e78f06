"""The changed-facts sets, ``bench/data/changed-facts{,-zh,-ja,-de}.json``: chats in which facts change.

English, Chinese, Japanese and German chats in LoCoMo's format. Every question is about a fact that changed
(a move, a date moved twice, a new job, a cancelled plan, a new phone number or e-mail, a changed preference,
a renamed or new pet, a relationship), asked either about now (the right answer is the latest state, so a
reader that takes the first mention answers wrongly) or about the past ("before she moved": the right answer
is the stale state, so a reader that always takes the latest answers wrongly).

Each sample carries ``changed_facts_notes``, which the importer and the loader ignore: one note per question,
with ``q`` its index in the sample's ``qa``, ``kind`` of change, ``asks_past``, ``latest`` (the value true now)
and ``latest_evidence``, ``stale`` (the superseded value) and ``stale_evidence``, for facts that changed twice
``intermediate`` and ``intermediate_evidence``, ``also`` (other forms of a value), and ``cue``: whether the
latest statement says it changed with a word such as "moved", "now", "instead" (搬, 取消; 引っ越し, 中止;
umgezogen, abgesagt). ``unanswerable`` lists questions about a person or thing the chat never mentions.
The scorer (``bench/changed_facts_score.py``) is tested here too: it decides what "right" means.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from rawrag_tui import lang as languages
from rawrag_tui.eval import locomo
from rawrag_tui.importers.locomo import parse_session_date

BENCH = Path(__file__).resolve().parent.parent / "bench"
_spec = importlib.util.spec_from_file_location("changed_facts_score", BENCH / "changed_facts_score.py")
score = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(score)

#: assistant: one English ChatGPT history; fresh, second, third, fourth: English, and zh2, ja2, zh3, ja3: Chinese
#: and Japanese,
#: written without reading the answer code.
LANGS = ("en", "zh", "ja", "de", "assistant", "fresh", "second", "third", "zh2", "ja2", "fourth", "zh3", "ja3")
KINDS = {"move", "date moved twice", "job", "cancelled", "contact", "preference", "relationship"}
CUE = {
    "en": re.compile(r"\b(mov(?:e|ed|es|ing)|postpon\w*|reschedul\w*|rebook\w*|chang\w*|no longer|instead|now|"
                     r"any ?more|switch\w*|cancel\w*|called off|pushed back)\b", re.IGNORECASE),
    "zh": re.compile(r"搬|换|改|取消|推迟|延期|提前|不再|现在|已经|辞职|跳槽|分手|退赛"),
    "ja": re.compile(r"引っ越|変更|変え|変わ|延期|中止|キャンセル|転職|辞め|別れ|今は|もう|やめ|ずれ"),
    "de": re.compile(r"umgezogen|umziehen|umzug|gezogen|verschoben|verschieben|verlegt|abgesagt|absagen|"
                     r"storniert|jetzt|nicht mehr|stattdessen|gewechselt|wechsel|gekündigt|getrennt", re.IGNORECASE),
}
CUE["assistant"] = CUE["fresh"] = CUE["second"] = CUE["third"] = CUE["fourth"] = CUE["en"]
CUE["zh2"], CUE["ja2"] = CUE["zh"], CUE["ja"]
CUE["zh3"], CUE["ja3"] = CUE["zh"], CUE["ja"]
SETS = {lang: score.load(lang) for lang in LANGS}
#: Turns per file; update with the sets.
MESSAGES = {"en": 296, "zh": 121, "ja": 89, "de": 81, "assistant": 46, "fresh": 270, "second": 243, "third": 253,
            "zh2": 132, "ja2": 116}
MESSAGES["fourth"] = 302
MESSAGES["zh3"] = 162
MESSAGES["ja3"] = 157
#: The language each set's samples are written in.
WRITTEN_IN = {"assistant": "en", "fresh": "en", "second": "en", "third": "en", "zh2": "zh", "ja2": "ja",
              "fourth": "en", "zh3": "zh", "ja3": "ja"}


def turns(sample: dict, resolved: bool = False) -> dict[str, tuple]:
    """dia_id -> ((session date, position), text) for every turn of a sample, in file order;
    ``resolved``: each text with its relative times followed by the dates they meant
    (the language module's, as the reader reads them: "下周三" with 2025年3月19日 after it)."""
    conv = sample["conversation"]
    out = {}
    for key, value in conv.items():
        if re.fullmatch(r"session_\d+", key):
            when = parse_session_date(conv[f"{key}_date_time"])
            for turn in value:
                text = languages.annotate(turn["text"], when.isoformat()) if resolved else turn["text"]
                out[turn["dia_id"]] = ((when, len(out)), text)
    return out


def noted_questions():
    for lang, samples in SETS.items():
        for sample in samples:
            notes = {n["q"]: n for n in sample["changed_facts_notes"]}
            for index, qa in enumerate(sample["qa"]):
                yield pytest.param(lang, sample, qa, notes[index], id=f"{sample['sample_id']}#{index}")


def all_notes(lang=None):
    return [n for code, samples in SETS.items() if lang in (None, code)
            for s in samples for n in s["changed_facts_notes"]]


def test_the_sets_are_big_enough_and_a_third_asks_about_the_past():
    notes = all_notes()
    assert len(notes) >= 80
    assert sum(n["asks_past"] for n in notes) * 3 >= len(notes)
    for lang in LANGS:
        mine = all_notes(lang)
        assert len(mine) >= 15, lang
        assert sum(n["asks_past"] for n in mine) >= 5, lang
        unanswerable = [u for s in SETS[lang] for u in s.get("unanswerable", [])]
        assert 2 <= len(unanswerable) <= 6, lang


@pytest.mark.parametrize("lang", LANGS)
def test_the_repository_loader_reads_every_question_with_its_evidence(lang):
    path = score.data_path(lang)
    haystacks = locomo.load(path)
    questions = [q for h in haystacks for q in h.questions]
    assert len(haystacks) == len(SETS[lang]) >= (1 if lang == "assistant" else 2)  # one person's ChatGPT history
    assert len(questions) == sum(len(s["qa"]) for s in SETS[lang])  # every question is scored (1-4)
    for h in haystacks:
        for q in h.questions:
            assert q.gold[locomo.LEVEL] and q.gold[locomo.LEVEL] <= h.message_ids, q.id
            assert isinstance(q.answer, str) and q.answer.strip(), q.id
    assert locomo.notes(haystacks) == []  # no unparseable or dangling evidence


@pytest.mark.parametrize("lang", LANGS)
def test_notes_cover_every_question_and_the_kinds_of_change(lang):
    notes = all_notes(lang)
    for sample in SETS[lang]:
        assert sorted(n["q"] for n in sample["changed_facts_notes"]) == list(range(len(sample["qa"])))
        if lang != "en":
            assert sample["language"] == WRITTEN_IN.get(lang, lang)
    kinds = Counter(n["kind"] for n in notes)
    assert set(kinds) <= KINDS | {"pet"}
    assert {"move", "date moved twice", "job", "cancelled", "contact", "preference", "relationship"} <= set(kinds)
    now = [n for n in notes if not n["asks_past"]]
    cued = Counter(n["cue"] for n in now)
    assert cued[True] >= 3 and cued[False] >= 3  # no single change word finds them all


@pytest.mark.parametrize("lang, sample, qa, note", noted_questions())
def test_the_latest_statement_comes_after_the_stale_one(lang, sample, qa, note):
    # A date may be said the way people say it ("下周三"): the value is the day it means.
    said = turns(sample, resolved=True)
    for dia in qa["evidence"] + note["latest_evidence"] + note["stale_evidence"]:
        assert dia in said, dia
    if note["asks_past"]:
        assert score.says(qa["answer"], note["stale"]) and not score.says(qa["answer"], note["latest"])
        assert set(note["stale_evidence"]) <= set(qa["evidence"])
    else:
        assert note["latest"] == "cancelled" or score.says(qa["answer"], note["latest"])
        assert not score.says(qa["answer"], note["stale"])
    for dia in note["stale_evidence"]:
        assert score.says(said[dia][1], note["stale"]), dia
    if note["latest"] != "cancelled":
        assert any(score.says(said[dia][1], note["latest"]) for dia in note["latest_evidence"])
        assert not score.says(note["latest"], note["stale"]) and not score.says(note["stale"], note["latest"])
    # A first-mention reader finds the stale value before the latest statement.
    first = next(d for d, (_, text) in said.items() if score.says(text, note["stale"]))
    latest_at = min(said[d][0] for d in note["latest_evidence"])
    assert said[first][0] < latest_at
    before = max(said[d][0] for d in note["stale_evidence"])
    if "intermediate" in note:
        for dia in note["intermediate_evidence"]:
            assert score.says(said[dia][1], note["intermediate"]), dia
        assert before < min(said[d][0] for d in note["intermediate_evidence"])
        before = max(said[d][0] for d in note["intermediate_evidence"])
    assert before < latest_at


@pytest.mark.parametrize("lang, sample, qa, note", noted_questions())
def test_cue_words_are_where_the_notes_say(lang, sample, qa, note):
    said = turns(sample)
    cued = [d for d in note["latest_evidence"] if CUE[lang].search(said[d][1])]
    assert bool(cued) == note["cue"], [said[d][1] for d in note["latest_evidence"]]


@pytest.mark.parametrize("lang", LANGS)
def test_unanswerable_questions_ask_about_what_the_chat_never_mentions(lang):
    for sample in SETS[lang]:
        text = " ".join(t for _, t in turns(sample).values())
        for u in sample.get("unanswerable", []):
            assert not score.says(text, u["absent"]), (sample["sample_id"], u["absent"])
            assert u["absent"].casefold() in u["question"].casefold()


@pytest.mark.parametrize("lang", LANGS)
def test_the_set_imports_into_a_store(open_memory, lang):
    samples = SETS[lang]
    mem = open_memory()
    report = mem.import_path(score.data_path(lang), "locomo", embed=False)  # embedding checks nothing here
    assert (report.conversations, report.messages_added, report.skipped) == (len(samples), MESSAGES[lang], {})
    assert sum(len(turns(s)) for s in samples) == MESSAGES[lang]
    for sample in samples:
        conversation = mem.store.conversation_id("locomo", sample["sample_id"])
        stored = {m["external_id"]: m for m in mem.messages(conversation)}
        assert set(stored) == set(turns(sample))
        for note in sample["changed_facts_notes"]:
            assert max(stored[d]["ts"] for d in note["stale_evidence"]) < min(
                stored[d]["ts"] for d in note["latest_evidence"])


# -- the scorer --------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("面试改到６月３号了", "6月3日"),            # full-width digits, 号 for 日
    ("The interview is on June 3rd, 2025.", "6月3日"),
    ("am 3. Juni", "6月3日"),
    ("2025-06-03", "3 June"),
    ("080 5791 3468", "080-5791-3468"),          # a phone number however it is split
    ("call 015198765432", "0151 9876 5432"),
    ("杭 州", "杭州"),                            # CJK as characters, spaces ignored
    ("bei der Deutschen Bahn", "Bahn"),
    ("ＳＯＮＹ", "Sony"),
])
def test_values_are_found_however_they_are_written(text, value):
    assert score.says(text, value)


@pytest.mark.parametrize("text, value", [
    ("Hamburger Hafen", "Hamburg"),              # Latin values are whole words
    ("kenta.nakamura@gmail.com", "kenta.n@docomo.ne.jp"),
    ("5月20日", "5月2日"),
    ("07700 900461", "07700 900123"),
])
def test_a_different_value_is_not_found(text, value):
    assert not score.says(text, value)


def _note(lang, question):
    return next(n for _s, qa, n in score.questions(lang) if qa["question"] == question)


def test_verdicts_for_now_past_cancelled_and_unanswerable_questions():
    now = _note("zh", "陈浩的签证面试是哪天？")
    assert score.verdict("6月3日", now) == "right"
    assert score.verdict("5月8日", now) == "wrong state"
    assert score.verdict("5月20日", now) == "wrong state"      # the intermediate date is wrong too
    assert score.verdict("从5月8日改到了6月3日", now) == "both"
    assert score.verdict("Not in your history.", now, lambda a: a.startswith("Not in")) == "abstained"
    assert score.verdict("没有提到", now) == "abstained"
    assert score.verdict("领事馆", now) == "other"
    past = _note("ja", "美咲は福岡に引っ越す前、どこに住んでいましたか？")
    assert score.verdict("大阪", past) == "right" and score.verdict("Osaka", past) == "right"
    assert score.verdict("福岡", past) == "wrong state"
    cancelled = _note("de", "Wann fahren Lena und Jonas an den Gardasee?")
    assert score.verdict("Die Reise wurde abgesagt.", cancelled) == "right"
    assert score.verdict("Am 2. August", cancelled) == "wrong state"
    assert score.verdict("It was cancelled.", cancelled) == "right"
    assert score.verdict("Biscuit", None) == "other"
    assert score.verdict("Nicht in deinem Verlauf.", None) == "abstained"


def test_saved_answers_are_rescored_and_summarised():
    rows = [
        {"lang": "de", "store": "plain", "reader": "r", "question": "In welcher Stadt wohnt Lena?",
         "kind": "move", "asks_past": False, "answer": "Köln", "seconds": 2.0},
        {"lang": "de", "store": "plain", "reader": "r", "question": "Wo hat Lena gewohnt, bevor sie nach Hamburg "
         "gezogen ist?", "kind": "move", "asks_past": True, "answer": "In Köln (Ehrenfeld).", "seconds": 4.0},
        {"lang": "de", "store": "plain", "reader": "r", "question": "Wie heißt Lenas Bruder?",
         "kind": "unanswerable", "asks_past": False, "answer": "Not in your history.", "reader_abstained": True,
         "seconds": 3.0},
    ]
    s = score.summarise(score.rescore(rows))
    assert (s["now"], s["now_right"], s["now_stale"], s["past"], s["past_right"]) == (1, 0, 1, 1, 1)
    assert (s["unanswerable"], s["unanswerable_abstained"], s["false_abstention"], s["seconds"]) == (1, 1, 0.0, 3.0)
    assert "| German | plain | r | 0 of 1 | 1 of 1 | 1 |" in score.table_row("de", "plain", "r", s)


def test_runs_stopped_early_are_compared_on_the_questions_both_answered(tmp_path, capsys):
    row = {"lang": "de", "store": "plain", "reader": "bundled", "kind": "move", "asks_past": False, "seconds": 1.0}
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    before.write_text("\n".join(json.dumps({**row, "question": q, "answer": "Köln"}) for q in (
        "In welcher Stadt wohnt Lena?", "In welcher Stadt wohnt Mehmet?")) + "\n", encoding="utf-8")
    after.write_text(json.dumps({**row, "question": "In welcher Stadt wohnt Lena?", "answer": "Hamburg"}) + "\n",
                     encoding="utf-8")
    assert score.main(["--common", str(before), str(after)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "| German | plain | bundled (before) | 0 of 1 | 0 of 0 | 1 |" in lines[2]
    assert "| German | plain | bundled (after) | 1 of 1 | 0 of 0 | 0 |" in lines[3]


def test_the_assistant_history_imports_as_a_chatgpt_export_one_thread_per_session(open_memory, tmp_path):
    # What bench/changed_facts.py --lang assistant imports: the real ChatGPT
    # importer, one conversation per thread, the assistant's turns its own.
    spec = importlib.util.spec_from_file_location("chatgpt_export", BENCH / "chatgpt_export.py")
    export = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(export)
    [sample] = SETS["assistant"]
    mem = open_memory()
    export.import_set(mem, score.data_path("assistant"))
    conversations = mem.store.conversations()
    sessions = [k for k in sample["conversation"] if re.fullmatch(r"session_\d+", k)]
    assert len(conversations) == len(sessions) and {c["format"] for c in conversations} == {"chatgpt"}
    stored = [m for c in conversations for m in mem.messages(c["id"])]
    assert len(stored) == MESSAGES["assistant"]
    assert {(m["speaker"], m["role"]) for m in stored} == {("User", "user"), ("ChatGPT", "assistant")}
    # Every thread is between the same two: the answer path follows a subject across them.
    assert sorted(mem.store.same_people(conversations[0]["id"])) == sorted(c["id"] for c in conversations)
    said = {m["text"]: m["ts"] for m in stored}
    texts = {d: t for d, (_, t) in turns(sample).items()}
    for note in sample["changed_facts_notes"]:
        stale, latest = note["stale_evidence"], note["latest_evidence"]
        assert max(said[texts[d]] for d in stale) < min(said[texts[d]] for d in latest)


def test_questions_about_now_can_be_asked_with_now_as_the_held_out_ones_are():
    spec = importlib.util.spec_from_file_location("changed_facts", BENCH / "changed_facts.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    now, past = {"asks_past": False}, {"asks_past": True}
    assert bench.with_now_word("Which city does Hannah live in?", now, "now") == "Which city does Hannah live in now?"
    assert bench.with_now_word("Wo arbeitet Anna?", now, "jetzt") == "Wo arbeitet Anna jetzt?"
    assert bench.with_now_word("Which city does Hannah live in?", now, "") == "Which city does Hannah live in?"
    before = "Where did Amir live before Glasgow?"
    assert bench.with_now_word(before, past, "now") == before
    assert bench.with_now_word("When did Priya take her driving test?", now, "now").endswith("test?")  # simple past
    assert bench.with_now_word("Is Sam still at Aer Lingus?", now, "now") == "Is Sam still at Aer Lingus?"
    assert bench.with_now_word("What colour is Hannah's car?", None, "now") == "What colour is Hannah's car?"
    reworded = [q for _s, qa, note in score.questions("en")
                if (q := bench.with_now_word(qa["question"], note, "now")) != qa["question"]]
    assert len(reworded) == 26 and all(q.endswith(" now?") for q in reworded)  # of the 29 about now
