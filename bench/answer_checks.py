"""What the answer checks do to a changed-facts run: each ``[answer] checks`` set, from one run.

A check only replaces the reader's finished answer, and ``changed_facts.py``
keeps both (``answer``: the final one; ``reader_said``: the reader's own
words when a check replaced them; ``correction``: the note, which names the
check). So one run with every check on is re-scored here as if each set of
checks had been on: a check turned off leaves the reader's words where it
replaced them. (Approximate in one way: with the first check off, the second
could have corrected an answer the first one took; the checks rarely meet
on one answer.)

    python bench/changed_facts.py --out /tmp/cf.jsonl      # every check on (the default)
    python bench/answer_checks.py /tmp/cf.jsonl

Prints, per language and set: latest right (questions about now), past
right, stale given, and the answers a check made right or made wrong.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from changed_facts_score import LANGUAGES, questions, verdict  # noqa: E402

from rawrag_tui.settings import ANSWER_CHECKS  # noqa: E402

#: Words of each check's note (answer/checks/*.py ``explain``) that name it.
NOTE_OF = {
    "cancelled_plans": ("calls it off",),
    "stated_dates": ("which no message says", "the day the question is asked",
                     "the question asks about before the latest message"),
    "later_values": ("what an earlier message said", "what the latest message on this says"),
    "nearest_reading": ("which only repeats the question; read again",),  # before repeats_question, its start
    "repeats_question": ("which only repeats the question",),
    "earlier_reading": ("which the question names; read again", "a later message on its subject, first names"),
    "yes_no_reading": ("read again from the latest message on this",),
    "ended_reading": ("says that ended: read again without it",),
    "someone_else": ("writes in the first person, of their own life",),
    "chat_partner": ("only the name of",),
    "own_reading": ("written by someone else; read again",),  # before later_reading, which ends alike
    "later_reading": ("read again from the",),
}
SETS = [ANSWER_CHECKS,
        ("cancelled_plans", "stated_dates", "later_values", "repeats_question", "later_reading", "earlier_reading",
         "yes_no_reading", "nearest_reading"),
        ("cancelled_plans", "stated_dates", "later_values", "repeats_question", "later_reading", "earlier_reading",
         "yes_no_reading"),
        ("cancelled_plans", "stated_dates", "later_values", "repeats_question", "later_reading", "earlier_reading"),
        ("cancelled_plans", "stated_dates", "later_values", "repeats_question", "later_reading"),
        ("cancelled_plans", "stated_dates", "later_values", "repeats_question"),
        ("stated_dates", "later_values", "repeats_question"), ("stated_dates", "later_values"),
        ("cancelled_plans",), ("stated_dates",), ("later_values",), ("repeats_question",), ("later_reading",),
        ("earlier_reading",), ()]


def check_of(row: dict) -> str | None:
    """The check that replaced this row's answer, or None when the reader's words stand."""
    if not row.get("reader_said"):
        return None
    note = row.get("correction", "")
    return next((name for name, phrases in NOTE_OF.items() if any(p in note for p in phrases)), "unknown")


def answer_with(row: dict, checks: tuple[str, ...]) -> str:
    done_by = check_of(row)
    if done_by is None or done_by in checks:
        return row["answer"]
    note = row.get("correction", "")
    repeated = "which the question names" in note or "which only repeats the question" in note
    if done_by in ("earlier_reading", "nearest_reading") and repeated and "repeats_question" in checks:
        from rawrag_tui.answer.prompts import NOT_IN_HISTORY
        return NOT_IN_HISTORY  # what the reader said only repeats the question
    return row["reader_said"]


def main(argv: list[str]) -> int:
    from rawrag_tui.answer.prompts import is_abstention

    if len(argv) != 1:
        print(__doc__.split("\n\n")[-2])
        return 2
    rows = [json.loads(line) for line in Path(argv[0]).read_text(encoding="utf-8").splitlines() if line.strip()]
    notes = {(lang, qa["question"]): note for lang in LANGUAGES for _s, qa, note in questions(lang)}
    print("| language | checks | latest right (now) | past right | stale given (now) | made right | made wrong |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for lang in [x for x in LANGUAGES if any(r["lang"] == x for r in rows)]:
        mine = [r for r in rows if r["lang"] == lang and r.get("verdict") != "error"
                and notes.get((lang, r["question"])) is not None]
        base = {id(r): verdict(answer_with(r, ()), notes[(lang, r["question"])], is_abstention) for r in mine}
        for checks in SETS:
            got = {id(r): verdict(answer_with(r, checks), notes[(lang, r["question"])], is_abstention) for r in mine}
            now = [r for r in mine if not r["asks_past"]]
            past = [r for r in mine if r["asks_past"]]
            right = sum(got[id(r)] == "right" for r in now)
            made_right = sum(got[id(r)] == "right" != base[id(r)] for r in mine)
            made_wrong = sum(base[id(r)] == "right" != got[id(r)] for r in mine)
            print(f"| {LANGUAGES[lang]} | {', '.join(checks) or 'none'} | {right} of {len(now)} "
                  f"| {sum(got[id(r)] == 'right' for r in past)} of {len(past)} "
                  f"| {sum(got[id(r)] == 'wrong state' for r in now)} | {made_right} | {made_wrong} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
