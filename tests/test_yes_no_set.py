"""The yes-or-no questions, ``bench/data/yes-no.json``, and their scorer (``bench/yes_no.py``).

Asked over the changed-facts chats: "Does Hannah still live in York?" after she moved (``truth: no``)
and "Does Hannah live in Manchester?" (``truth: yes``). The scorer decides what "right" means, so it is
tested here: a form found only inside a longer one does not count ("是" in "不是").
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
DATA = json.loads((BENCH / "data" / "yes-no.json").read_text(encoding="utf-8"))


def _bench_module(name: str):
    sys.path.insert(0, str(BENCH))  # yes_no.py imports its neighbours by name, as run from bench/
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


yes_no = _bench_module("yes_no")


def test_every_question_is_asked_of_a_chat_of_its_language_and_names_what_it_means():
    for lang, questions in DATA.items():
        samples = {s["sample_id"]: s for s in yes_no.load(lang)}
        assert {q["truth"] for q in questions} == {"yes", "no"}, lang
        for q in questions:
            assert q["sample_id"] in samples, (lang, q["question"])
            assert q["right"] and q["wrong"] and not set(q["right"]) & set(q["wrong"]), q["question"]
    # More questions about a state that changed than about one that holds: the class the reader gets wrong.
    assert sum(q["truth"] == "no" for qs in DATA.values() for q in qs) >= 2 * sum(
        q["truth"] == "yes" for qs in DATA.values() for q in qs)


def _question(lang: str, text: str) -> dict:
    return next(q for q in DATA[lang] if q["question"] == text)


@pytest.mark.parametrize(("lang", "question", "answer", "expected"), [
    ("en", "Does Hannah still live in York?", "Yes", "wrong"),
    ("en", "Does Hannah still live in York?", "No", "right"),
    ("en", "Does Hannah still live in York?", "Hannah lives in Manchester.", "right"),
    ("en", "Does Hannah still live in York?", "Hannah still lives in York.", "wrong"),
    ("en", "Does Daniel still support Chelsea?", "Daniel does not support Chelsea.", "right"),
    ("en", "Does Daniel still support Chelsea?", "Daniel supports Chelsea.", "wrong"),
    ("en", "Does Amir live in Glasgow now?", "Amir does not live in Glasgow.", "both"),
    ("en", "Does Hannah live in Manchester?", "Manchester", "right"),
    ("en", "Is Sam still working at Aer Lingus?", "Sam is a data engineer now.", "other"),
    ("zh", "李娜还住在成都吗？", "不是，她搬到杭州了", "right"),
    ("zh", "李娜还住在成都吗？", "是", "wrong"),
    ("zh", "李娜现在住在杭州吗？", "不是", "wrong"),
    ("zh", "李娜现在住在杭州吗？", "是的", "right"),
    ("ja", "翔太はまだ横浜に住んでいますか？", "いいえ、仙台に住んでいます", "right"),
    ("ja", "翔太はまだ横浜に住んでいますか？", "はい", "wrong"),
    ("de", "Wohnt Lena noch in Köln?", "Nein, in Hamburg.", "right"),
    ("de", "Wohnt Lena noch in Köln?", "Yes", "wrong"),
])
def test_the_verdict(lang, question, answer, expected):
    assert yes_no.verdict(answer, _question(lang, question), abstained=False) == expected


def test_an_abstention_is_counted_apart():
    question = _question("en", "Does Hannah still live in York?")
    assert yes_no.verdict("Not in your history.", question, True) == "abstained"


def test_saved_answers_are_scored_again(tmp_path, capsys):
    saved = tmp_path / "yn.jsonl"
    rows = [{"lang": "en", "reader": "bundled", "question": "Does Hannah still live in York?", "truth": "no",
             "answer": "Yes", "seconds": 2.0},
            {"lang": "en", "reader": "bundled", "question": "Does Hannah live in Manchester?", "truth": "yes",
             "answer": "Yes", "seconds": 4.0}]
    saved.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert yes_no.main(["--score", str(saved)]) == 0
    table = capsys.readouterr().out
    assert "| English | bundled | 0 of 1 / 1 / 0 / 0 | 1 of 1 / 0 / 0 / 0 | 0 of 2 | 3.0 |" in table
