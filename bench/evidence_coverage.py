"""What the reader would read: evidence coverage with no reader loaded.

The paper's finding is that evidence coverage decides RAW-RAG's answers, and a
small reader cannot answer from evidence it is not given. This measures the
message-level evidence (``answer/selection.py``) the reader would read, with
no reader at all, so a selection change is measured in a minute instead of an
hour of reading:

- the changed-facts sets (``bench/data/changed-facts*.json``): for a question
  about now, whether the latest value is in the evidence (and the stale one);
  for one about the past, whether the earlier value is;
- LoCoMo's dev conversation (``shared/data/locomo-conv-26.json``): the share
  of each question's gold evidence messages (``D1:3``, categories 1-4) in
  the evidence, and the questions that have all of theirs.

Each question goes through the home's real search (``Memory.search_for_answer``,
as ``ask`` searches) and the real selection, with the home's history (its
embedder); the budget is fixed
(``--budget``, 450 tokens: what the bundled reader gets for a 10 s first
token on a 2-core VM, docs/answers.md), counted by the home reader's own
tokenizer (``--tokens reader``, the default: the reader is loaded, never
asked) or as one token per 3.5 characters (``--tokens estimate``, no reader
at all, the figures in docs/answers.md before 2026-12-02 17:00 UTC). The
estimate is short where the evidence is short lines and digits: Qwen's
tokenizer spends a token on each digit of a line's date, and it counted
38% more tokens than the estimate in the English changed-facts evidence,
4% more in LoCoMo's; a CJK character is about one token either way, so
compare runs, not languages. Homes are made once under ``--homes`` and
reused.

    python bench/evidence_coverage.py                          # en, de, locomo
    python bench/evidence_coverage.py --sets en,zh,ja --profile multilingual --homes /tmp/cov

Which questions a selection change touches, for a paired reader run of only
those (``reader_locomo.py --questions``): dump each question's evidence with
one checkout, compare with the other (``PYTHONPATH`` picks the checkout):

    python bench/evidence_coverage.py --sets locomo --budget 1024 --dump /tmp/before.json
    PYTHONPATH=../change python bench/evidence_coverage.py --sets locomo --budget 1024 \
        --compare /tmp/before.json --changed-out /tmp/changed.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from changed_facts import HAYSTACK  # noqa: E402
from changed_facts_score import data_path, questions  # noqa: E402
from chatgpt_export import import_set  # noqa: E402

#: Characters per token the budget is counted in (no reader's tokenizer is loaded).
CHARS_PER_TOKEN = 3.5


def count_tokens(text: str) -> int:
    """The 3.5-characters estimate (``--tokens estimate``)."""
    return int(len(text) / CHARS_PER_TOKEN)


#: What the budget is counted with: :func:`count_tokens`, or the home reader's tokenizer (``main``).
counter = count_tokens


def open_home(home: Path, source: Path, profile: str | None):
    from rawrag_tui.memory import Memory

    mem = Memory.open(home, models={"profile": profile} if profile else {})
    if mem.empty_hint():  # a new home: import its history once
        import_set(mem, source)
    return mem


def _counting(mem, tokens: str):
    """``mem``, with the budget counted as ``tokens`` says from now on: the
    first home's reader is the one every set is counted with (one profile a run)."""
    global counter
    if tokens == "reader" and counter is count_tokens:
        counter = mem.reader().count_tokens
    return mem


#: How the meaning anchors are found (``--anchors``; "": as the home's ``reader.anchors`` says).
anchors = ""

#: Each question's evidence text, as the reader would read it (``--dump``, ``--compare``).
seen: dict[str, str] = {}


def evidence(mem, question: str, budget: int):
    from rawrag_tui.answer.evidence import EvidenceViews
    from rawrag_tui.answer.selection import select_evidence

    result = mem.search_for_answer(question)
    options = mem.answer_options()
    packed = select_evidence(result.hits, question, budget, counter, EvidenceViews(), options["history"],
                             wide=(anchors or options["anchors"]) == "wide")
    seen[question] = packed.text
    return packed


def changed_facts(mem, lang: str, budget: int) -> dict:
    """Counts over the set's answerable questions (a cancelled plan has no value to find: left out)."""
    counts = {"now": 0, "now_latest": 0, "now_stale": 0, "past": 0, "past_earlier": 0}
    for _sample, qa, note in questions(lang):
        if not note or "cancelled" in (note["latest"], note["stale"]):
            continue
        text = evidence(mem, qa["question"], budget).text.casefold()
        latest, stale = note["latest"].casefold(), note["stale"].casefold()
        if note["asks_past"]:
            counts["past"] += 1
            counts["past_earlier"] += stale in text
        else:
            counts["now"] += 1
            counts["now_latest"] += latest in text
            counts["now_stale"] += stale in text
    return counts


def locomo(mem, path: Path, budget: int) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    sample = data[0] if isinstance(data, list) else data
    counts = {"gold": 0, "gold_in": 0, "questions": 0, "all_in": 0}
    for qa in sample["qa"]:
        ids = set(re.findall(r"D\d+:\d+", " ".join(qa.get("evidence", []))))
        if qa.get("category") not in (1, 2, 3, 4):
            continue
        held = {m.external_id for m in evidence(mem, qa["question"], budget).messages}  # all 152 dumped
        if not ids:
            continue
        counts["gold"] += len(ids)
        counts["gold_in"] += len(ids & held)
        counts["questions"] += 1
        counts["all_in"] += ids <= held
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="en,de,locomo", help="comma-separated: en, zh, ja, de, locomo")
    ap.add_argument("--budget", type=int, default=450, help="evidence tokens (3.5 characters each)")
    ap.add_argument("--profile", help="model profile (default: bundled)")
    ap.add_argument("--homes", type=Path, help="where the homes are kept between runs (default: a temporary folder)")
    ap.add_argument("--tokens", choices=("reader", "estimate"), default="reader",
                    help="count the budget with the home reader's tokenizer (loaded, never asked) "
                         "or as 3.5 characters a token (no reader loaded)")
    ap.add_argument("--dump", type=Path, help="write each question's evidence text here (JSON)")
    ap.add_argument("--compare", type=Path, help="a --dump of another checkout: count the questions "
                                                  "whose evidence differs from it")
    ap.add_argument("--changed-out", type=Path, help="with --compare: write those questions here (JSON list)")
    ap.add_argument("--anchors", choices=("close", "wide"),
                    help="the meaning anchors of reader.anchors (default: the home's, close for the bundled reader)")
    args = ap.parse_args(argv)
    global anchors
    anchors = args.anchors or ""
    with tempfile.TemporaryDirectory() as tmp:
        homes = args.homes or Path(tmp)
        for name in args.sets.split(","):
            home = homes / f"{name}-{args.profile or 'bundled'}"
            if name == "locomo":
                source = next((p for p in HAYSTACK if p.exists()), None)
                if source is None:
                    raise SystemExit("shared/data/locomo-conv-26.json not found")
                c = locomo(_counting(open_home(home, source, args.profile), args.tokens), source, args.budget)
                print(f"locomo: gold messages in evidence {c['gold_in']} of {c['gold']} "
                      f"({c['gold_in'] / max(c['gold'], 1):.1%}); questions with all their gold "
                      f"{c['all_in']} of {c['questions']}", flush=True)
            else:
                c = changed_facts(_counting(open_home(home, data_path(name), args.profile), args.tokens), name,
                                  args.budget)
                print(f"{name}: now: latest in evidence {c['now_latest']} of {c['now']}, stale "
                      f"{c['now_stale']}; past: earlier value in {c['past_earlier']} of {c['past']}", flush=True)
    if args.dump:
        args.dump.write_text(json.dumps(seen, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.compare:
        before = json.loads(args.compare.read_text(encoding="utf-8"))
        changed = [q for q, text in seen.items() if q in before and before[q] != text]
        print(f"evidence differs from {args.compare.name} for {len(changed)} of "
              f"{sum(q in before for q in seen)} questions", flush=True)
        if args.changed_out:
            args.changed_out.write_text(json.dumps(changed, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
