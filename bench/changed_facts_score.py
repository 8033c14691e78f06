"""Score answers on the changed-facts sets: the right state, the wrong state, an abstention, or neither.

The sets are ``bench/data/changed-facts.json`` (English) and
``changed-facts-{zh,ja,de}.json`` (Chinese, Japanese, German): chats in which
facts change, each question with a note saying which value is true now
(``latest``), which one it replaced (``stale``, and ``intermediate`` for a
date moved twice) and whether the question asks about now or about the past
(``asks_past``: "where did she live before she moved?"). A question about now
is answered right with the latest value; about the past, with the stale one.
Giving the other is the **wrong state** (for a question about now: the stale
value, the answer the user would believe). Token F1 hides this: "York" for
"Manchester" and "no idea" both score 0, but only one of them is the old fact.

Matching is language-aware: text is NFKC-normalised (full-width letters and
digits become half-width) and case-folded; dates in any of the sets' forms
(``3月21日``, ``21 March``, ``March 21st``, ``21. März``, ``2025-03-21``)
become one token, so an English answer to a Japanese question still counts;
digits split by spaces or hyphens are joined (phone numbers); a value with
Chinese or Japanese characters is found as characters (spaces ignored), a
Latin one as whole words (a plural -s allowed).

    python bench/changed_facts_score.py RESULTS.jsonl [MORE.jsonl ...]
    python bench/changed_facts_score.py --common BEFORE.jsonl AFTER.jsonl

re-scores the JSON lines ``bench/changed_facts.py --out`` writes (or, for
the English set, those ``bench/reader_locomo.py --out`` writes).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
LANGUAGES = {"en": "English", "zh": "Chinese", "ja": "Japanese", "de": "German",
             "assistant": "English, ChatGPT export", "fresh": "English, unseen", "second": "English, unseen 2",
             "third": "English, unseen 3", "zh2": "Chinese, unseen", "ja2": "Japanese, unseen",
             "fourth": "English, unseen 4", "zh3": "Chinese, unseen 2", "ja3": "Japanese, unseen 2"}


def data_path(lang: str) -> Path:
    return DATA / ("changed-facts.json" if lang == "en" else f"changed-facts-{lang}.json")


def load(lang: str) -> list[dict]:
    return json.loads(data_path(lang).read_text(encoding="utf-8"))


def questions(lang: str) -> Iterator[tuple[dict, dict, dict | None]]:
    """(sample, qa, note) for every question of a language's set; the
    unanswerable ones come with ``note`` None."""
    for sample in load(lang):
        notes = {n["q"]: n for n in sample["changed_facts_notes"]}
        for index, qa in enumerate(sample["qa"]):
            yield sample, qa, notes[index]
        for qa in sample.get("unanswerable", []):
            yield sample, qa, None


# -- normalising -------------------------------------------------------------

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
    "januar": 1, "februar": 2, "märz": 3, "maerz": 3, "mai": 5, "juni": 6, "juli": 7, "oktober": 10,
    "dezember": 12,
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"(?:,?\s+\d{4})?"
_CJK_DATE = re.compile(r"(?:\d{4}\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]")
_ISO_DATE = re.compile(r"\b\d{4}-(\d{1,2})-(\d{1,2})\b")
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?({_MONTH})\b{_YEAR}")
_MONTH_DAY = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b{_YEAR}")
_SPLIT_DIGITS = re.compile(r"(?<=\d)[\s\-‐‑–—()]+(?=\d)")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def _date(month: int, day: int) -> str:
    return f"<{month:02d}/{day:02d}>"


def normalise(text: str) -> str:
    """Case-folded NFKC text with dates as ``<MM/DD>`` and phone-number digits joined."""
    t = unicodedata.normalize("NFKC", str(text)).casefold()
    t = _CJK_DATE.sub(lambda m: _date(int(m[1]), int(m[2])), t)
    t = _ISO_DATE.sub(lambda m: _date(int(m[1]), int(m[2])), t)
    t = _DAY_MONTH.sub(lambda m: _date(_MONTHS[m[2]], int(m[1])), t)
    t = _MONTH_DAY.sub(lambda m: _date(_MONTHS[m[1]], int(m[2])), t)
    return _SPLIT_DIGITS.sub("", t)


def says(text: str, value: str) -> bool:
    """Whether ``text`` holds ``value``: as characters where the value has CJK
    characters, else as whole words."""
    v, t = normalise(value).strip(), normalise(text)
    if not v:
        return False
    if _CJK.search(v):
        return re.sub(r"\s+", "", v) in re.sub(r"\s+", "", t)
    # Latin words and numbers end where a Latin letter or a digit does not
    # follow: "电话13812345678" holds the number, "Hamburger" not "Hamburg".
    before = r"(?<![0-9a-zß-ÿ])" if re.match(r"[0-9a-zß-ÿ]", v) else ""
    after = r"(?:e?s)?(?![0-9a-zß-ÿ])" if re.search(r"[a-zß-ÿ]$", v) else r"(?![0-9a-zß-ÿ])" if re.search(
        r"[0-9]$", v) else ""
    return re.search(before + re.escape(v) + after, t) is not None


# -- verdicts ----------------------------------------------------------------

#: A cancelled plan, said in any of the sets' languages (or in English, which a
#: reader often answers in).
CANCELLED = re.compile(
    r"cancel+ed|\bcancel|called off|\bis off\b|not (?:going|happening)|won'?t (?:go|happen)|"
    r"取消|不去了|没去成|去不了|中止|キャンセル|取りやめ|取り消|行かない|なくなった|"
    r"abgesagt|absagen|absage|fällt aus|ausgefallen|storniert|findet nicht statt", re.IGNORECASE)

#: "I can't tell" in other words than rawrag's own sentence: counted as an
#: abstention only where the answer names neither state.
LOOSE_ABSTAIN = re.compile(
    r"not in (?:your|the) (?:chat )?history|no information|not (?:stated|mentioned|said)|does(?:n't| not) say|"
    r"unknown|没有(?:提到|提及|相关|记录|信息|说)|未提及|无法(?:确定|回答)|不在.{0,6}(?:历史|记录)|不知道|"
    r"記録に(?:は)?(?:ない|ありません)|履歴に(?:は)?(?:ない|ありません)|言及(?:されて)?(?:い)?(?:ない|ません)|不明|わかりません|"
    r"nicht (?:in deine[mr]|erwähnt|bekannt)|keine (?:angabe|information)|unbekannt", re.IGNORECASE)

VERDICTS = ("right", "wrong state", "both", "abstained", "other")


def forms(value: str, note: dict) -> list[str]:
    return [value, *note.get("also", {}).get(value, [])]


def expected(note: dict) -> str:
    """The value a right answer gives: the stale one for a question about the past."""
    return note["stale"] if note["asks_past"] else note["latest"]


def wrong_values(note: dict) -> list[str]:
    others = [note["latest"]] if note["asks_past"] else [note["stale"]]
    return others + ([note["intermediate"]] if "intermediate" in note else [])


def _holds(answer: str, value: str, note: dict) -> bool:
    if value == "cancelled":
        return CANCELLED.search(normalise(answer)) is not None
    return any(says(answer, form) for form in forms(value, note))


def verdict(answer: str, note: dict | None, abstained: Callable[[str], bool] = lambda _a: False) -> str:
    """right / wrong state / both / abstained / other for an answerable
    question; abstained / other for an unanswerable one (``note`` None).
    ``abstained`` is the reader's own "not in your history" test."""
    if abstained(answer):
        return "abstained"
    if note is not None:
        right = _holds(answer, expected(note), note)
        wrong = any(_holds(answer, v, note) for v in wrong_values(note))
        if right or wrong:
            return "both" if right and wrong else "right" if right else "wrong state"
    return "abstained" if LOOSE_ABSTAIN.search(normalise(answer)) else "other"


def summarise(rows: list[dict]) -> dict:
    """Counts for one language/variant/reader: rows as ``changed_facts.py`` writes them."""
    answerable = [r for r in rows if r["kind"] != "unanswerable"]
    unanswerable = [r for r in rows if r["kind"] == "unanswerable"]
    now = [r for r in answerable if not r["asks_past"]]
    past = [r for r in answerable if r["asks_past"]]
    seconds = [r["seconds"] for r in rows if r.get("seconds") is not None]

    def count(sel, what):
        return sum(r["verdict"] == what for r in sel)

    return {
        "questions": len(answerable), "now": len(now), "now_right": count(now, "right"),
        "now_stale": count(now, "wrong state"), "past": len(past), "past_right": count(past, "right"),
        "past_latest": count(past, "wrong state"), "both": count(answerable, "both"),
        "abstained": count(answerable, "abstained"), "other": count(answerable, "other"),
        "errors": count(rows, "error"),
        "unanswerable": len(unanswerable), "unanswerable_abstained": count(unanswerable, "abstained"),
        "false_abstention": round(100 * count(answerable, "abstained") / len(answerable), 1) if answerable else 0.0,
        "unsupported": sum(bool(r.get("unsupported")) for r in answerable),
        "seconds": round(statistics.mean(seconds), 1) if seconds else 0.0,
        "seconds_median": round(statistics.median(seconds), 1) if seconds else 0.0,
    }


TABLE_HEAD = ("| language | store | reader | latest right (now) | past right | stale given (now) "
              "| latest given (past) | abstained | not in history (unanswerable) | false abstention | s/question |\n"
              "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")


def table_row(lang: str, store: str, reader: str, s: dict) -> str:
    return (f"| {LANGUAGES.get(lang, lang)} | {store} | {reader} | {s['now_right']} of {s['now']} "
            f"| {s['past_right']} of {s['past']} | {s['now_stale']} | {s['past_latest']} "
            f"| {s['abstained']} of {s['questions']} | {s['unanswerable_abstained']} of {s['unanswerable']} "
            f"| {s['false_abstention']:g}% | {s['seconds']:.1f} |")


def rescore(rows: list[dict]) -> list[dict]:
    """Verdicts from today's notes and matcher (the answers are kept as given)."""
    notes = {}
    for lang in LANGUAGES:
        for _sample, qa, note in questions(lang):
            notes[(lang, qa["question"])] = note
    for row in rows:
        if row.get("verdict") == "error":
            continue
        note = notes.get((row["lang"], row["question"]))
        abstained = row.get("reader_abstained", False)
        row["verdict"] = verdict(row["answer"], note, lambda _a, flag=abstained: flag)
    return rows


def _legacy(rows: list[dict]) -> list[dict]:
    """Rows of ``reader_locomo.py --out`` over the English set: add what the table needs."""
    by_question = {qa["question"]: note for _s, qa, note in questions("en")}
    for row in rows:
        note = by_question.get(row["question"])
        row.update(lang="en", store="plain", reader=row.get("reader", "?"),
                   kind=note["kind"] if note else "unanswerable", asks_past=bool(note and note["asks_past"]))
    return rows


def main(argv: list[str]) -> int:
    """``--common``: count only the questions every file answered (runs
    stopped early, compared on the same questions)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path, help="JSON lines written by changed_facts.py or timeline_ab.py")
    ap.add_argument("--common", action="store_true", help="count only the questions every file answered")
    args = ap.parse_args(argv)
    names = [str(path) for path in args.runs]
    runs = []
    for name in names:
        try:
            text = Path(name).read_text(encoding="utf-8")
        except OSError as exc:
            ap.error(f"{name}: {exc.strerror}")
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        if rows and "lang" not in rows[0]:
            rows = _legacy(rows)
        runs.append([r for r in rescore(rows) if r.get("verdict") != "error"])
    if args.common:
        shared = set.intersection(*({(r["lang"], r["question"]) for r in rows} for rows in runs))
        runs = [[r for r in rows if (r["lang"], r["question"]) in shared] for rows in runs]
    print(TABLE_HEAD)
    for name, rows in zip(names, runs, strict=True):
        groups: dict[tuple, list[dict]] = {}
        for row in rows:
            groups.setdefault((row["lang"], row["store"], row["reader"]), []).append(row)
        for (lang, store, reader), sel in sorted(groups.items(), key=lambda kv: list(LANGUAGES).index(kv[0][0])):
            shown = f"{reader} ({Path(name).stem})" if len(names) > 1 else reader  # which run, side by side
            print(table_row(lang, store, shown, summarise(sel)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
