"""The changed-facts set, ``bench/data/changed-facts.json``: LoCoMo-format chats in which facts change.

Every question's right answer is the latest state of a fact that changed (a move, a date moved twice,
a new job, a cancelled plan, a new phone number or email, a changed preference, a renamed or new pet,
a relationship change), so a reader that takes the first mention answers wrongly.

Each sample carries ``changed_facts_notes``, which the importer and the loader ignore: one note per
question, with ``q`` its index in the sample's ``qa`` (the question id is ``sample_id#q``), ``kind``
of change, ``cue`` (whether the latest statement says it changed, with a word such as "moved", "now"
or "instead"), ``stale`` the superseded value a first-mention reader gives and ``stale_evidence``
the message(s) stating it, and, for facts that changed twice, ``intermediate`` and
``intermediate_evidence``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from rawrag_tui.eval import locomo
from rawrag_tui.importers.locomo import parse_session_date

PATH = Path(__file__).resolve().parent.parent / "bench" / "data" / "changed-facts.json"
KINDS = {"move", "date moved twice", "job", "cancelled", "contact", "preference", "pet", "relationship"}
CUE = re.compile(r"\b(mov(?:e|ed|es|ing)|postpon\w*|reschedul\w*|rebook\w*|chang\w*|no longer|instead|now|"
                 r"any ?more|switch\w*|cancel\w*|called off|pushed back)\b", re.IGNORECASE)
SAMPLES = json.loads(PATH.read_text(encoding="utf-8"))
MESSAGES = 296  # turns in the file; update with the set


def turns(sample: dict) -> dict[str, tuple]:
    """dia_id -> (session date, text) for every turn of a sample, in file order."""
    conv = sample["conversation"]
    out = {}
    for key, value in conv.items():
        if re.fullmatch(r"session_\d+", key):
            when = parse_session_date(conv[f"{key}_date_time"])
            for turn in value:
                out[turn["dia_id"]] = (when, turn["text"])
    return out


def noted_questions():
    for sample in SAMPLES:
        notes = {n["q"]: n for n in sample["changed_facts_notes"]}
        for index, qa in enumerate(sample["qa"]):
            yield pytest.param(sample, qa, notes[index], id=f"{sample['sample_id']}#{index}")


def test_the_repository_loader_reads_every_question_with_its_evidence():
    haystacks = locomo.load(PATH)
    questions = [q for h in haystacks for q in h.questions]
    assert len(haystacks) == len(SAMPLES) >= 3
    assert len(questions) == sum(len(s["qa"]) for s in SAMPLES) >= 24  # every question is scored (1-4)
    assert {q.category for q in questions} == {1, 2, 4}
    for h in haystacks:
        for q in h.questions:
            assert q.gold[locomo.LEVEL] and q.gold[locomo.LEVEL] <= h.message_ids, q.id
            assert isinstance(q.answer, str) and q.answer.strip(), q.id
    assert locomo.notes(haystacks) == []  # no unparseable or dangling evidence


def test_notes_cover_every_question_and_every_kind_of_change():
    notes = [n for s in SAMPLES for n in s["changed_facts_notes"]]
    for sample in SAMPLES:
        assert sorted(n["q"] for n in sample["changed_facts_notes"]) == list(range(len(sample["qa"])))
    kinds = Counter(n["kind"] for n in notes)
    assert set(kinds) == KINDS
    assert kinds["move"] >= 2 and kinds["date moved twice"] >= 2 and kinds["cancelled"] >= 2
    assert any(n["kind"] == "move" and "intermediate" in n for n in notes)  # someone moved twice
    cued = Counter(n["cue"] for n in notes)
    assert cued[True] >= 8 and cued[False] >= 8  # no single keyword heuristic gets them all
    for sample in SAMPLES:
        for n, qa in zip(sorted(sample["changed_facts_notes"], key=lambda n: n["q"]), sample["qa"]):
            if n["kind"] == "cancelled":
                assert qa["answer"] == "cancelled"
            if n["kind"] == "date moved twice":
                assert "intermediate" in n and re.fullmatch(r"\d{1,2} [A-Z][a-z]+ 20\d\d", qa["answer"])


@pytest.mark.parametrize("sample, qa, note", noted_questions())
def test_the_latest_statement_comes_after_the_stale_one(sample, qa, note):
    said = turns(sample)
    stale, answer = note["stale"].casefold(), qa["answer"].casefold()
    assert stale not in answer and answer not in stale
    for dia in note["stale_evidence"]:
        assert stale in said[dia][1].casefold(), dia
    # A first-mention reader finds the stale value before any evidence message.
    first = next(d for d, (_, text) in said.items() if stale in text.casefold())
    evidence_dates = [said[d][0] for d in qa["evidence"]]
    assert said[first][0] < min(evidence_dates)
    before = max(said[d][0] for d in note["stale_evidence"])
    if "intermediate" in note:
        middle = note["intermediate"].casefold()
        assert middle not in answer
        for dia in note["intermediate_evidence"]:
            assert middle in said[dia][1].casefold(), dia
        assert before < min(said[d][0] for d in note["intermediate_evidence"])
        before = max(said[d][0] for d in note["intermediate_evidence"])
    assert before < min(evidence_dates)


@pytest.mark.parametrize("sample, qa, note", noted_questions())
def test_cue_words_are_where_the_notes_say(sample, qa, note):
    said = turns(sample)
    cued = [d for d in qa["evidence"] if CUE.search(said[d][1])]
    assert bool(cued) == note["cue"], [said[d][1] for d in qa["evidence"]]


def test_the_set_imports_into_a_store(open_memory):
    mem = open_memory()
    report = mem.import_path(PATH, "locomo", embed=False)  # embedding adds seconds and checks nothing here
    assert (report.conversations, report.messages_added, report.skipped) == (len(SAMPLES), MESSAGES, {})
    assert sum(len(turns(s)) for s in SAMPLES) == MESSAGES
    assert mem.store.counts()["messages"] == MESSAGES
    for sample in SAMPLES:
        conversation = mem.store.conversation_id("locomo", sample["sample_id"])
        stored = {m["external_id"]: m for m in mem.messages(conversation)}
        assert set(stored) == set(turns(sample))
        for qa, note in zip(sample["qa"], sorted(sample["changed_facts_notes"], key=lambda n: n["q"])):
            assert max(stored[d]["ts"] for d in note["stale_evidence"]) < min(stored[d]["ts"] for d in qa["evidence"])
