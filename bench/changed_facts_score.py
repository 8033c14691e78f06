"""Score reader answers on the changed-facts set: latest state, stale state, or neither.

Reads the per-question JSON lines ``bench/reader_locomo.py --out`` writes for
``bench/data/changed-facts.json`` and, with the set's own notes (which value a
reader that takes the first mention would give), counts answers that hold
the latest value (the gold answer's words) and answers that repeat the stale
one. Token F1 alone hides this: "York" for "Manchester" and "no idea" both
score 0, but only one of them is the old fact.

    python bench/changed_facts_score.py RESULTS.jsonl [MORE.jsonl ...]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "changed-facts.json"


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", str(text).lower())) - {"the", "a", "an", "at", "in", "on", "of", "to", "and"}


def stale_values() -> dict[str, str]:
    out = {}
    for sample in json.loads(DATA.read_text(encoding="utf-8")):
        for note in sample.get("changed_facts_notes", []):
            out[sample["qa"][note["q"]]["question"]] = str(note["stale"])
    return out


def score(path: Path) -> dict:
    stale = stale_values()
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    latest = old = 0
    for row in rows:
        answer = words(row["answer"])
        gold = words(row["gold"])
        if gold and gold <= answer:
            latest += 1
        elif words(stale.get(row["question"], "")) and words(stale[row["question"]]) <= answer:
            old += 1
    n = len(rows)
    f1 = 100 * sum(r["f1"] for r in rows) / n if n else 0.0
    secs = sum(r["seconds"] for r in rows) / n if n else 0.0
    return {"questions": n, "latest": latest, "stale": old, "f1": round(f1, 1), "seconds": round(secs, 1)}


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(name, json.dumps(score(Path(name))))
