"""How often a question is answered "not in your history" before any reading, rightly and wrongly.

A question naming someone or something no message holds is answered "not in
your history" without loading the reader (answer/unknown.py: a capitalised
word that does not start a sentence, looked up in the lexical index). No
reader is needed to measure it: each set is imported into a fresh home and
every question is put to the check. Answerable questions it fires on are
false abstentions; unanswerable ones (the changed-facts sets' ``unanswerable``
lists, LoCoMo's category 5) it fires on are caught. And each answerable
question is asked again about a stranger: every name in it (the
capitalised words that do not start a sentence) replaced by one no message
holds ("Xavier"); those it fires on are caught strangers.

    python bench/not_in_history.py            # LoCoMo dev conversation + the changed-facts sets
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from reader_locomo import DEFAULT_DATA  # noqa: E402

from rawrag_tui.answer.unknown import named, unknown_names  # noqa: E402

#: A name none of the sets' histories holds (checked per home).
STRANGER = "Xavier"


def about_a_stranger(question: str) -> str | None:
    """``question`` with every name in it replaced by :data:`STRANGER` (None: it names no one)."""
    names = named(question)
    if not names:
        return None
    for name in names:
        question = re.sub(rf"\b{re.escape(name)}\b", STRANGER, question)
    return question

SETS = ["changed-facts.json", "changed-facts-zh.json", "changed-facts-ja.json", "changed-facts-de.json"]


def check(path: Path, label: str) -> str:
    from rawrag_tui.memory import Memory

    samples = json.loads(path.read_text(encoding="utf-8"))
    samples = samples if isinstance(samples, list) else [samples]
    with tempfile.TemporaryDirectory(prefix="rawrag-unknown-") as tmp:
        mem = Memory.open(Path(tmp))
        mem.import_path(path, fmt="locomo")
        history = mem.answer_options()["history"]
        assert not history.mentions(STRANGER), f"{path.name} mentions {STRANGER}"
        answerable = [q for s in samples for q in s["qa"] if q.get("category") in (1, 2, 3, 4)]
        unanswerable = [q for s in samples for q in s.get("unanswerable", [])]
        unanswerable += [q for s in samples for q in s["qa"] if q.get("category") == 5]
        started = time.perf_counter()
        false = [(q["question"], names) for q in answerable if (names := unknown_names(q["question"], history))]
        caught = sum(bool(unknown_names(q["question"], history)) for q in unanswerable)
        strangers = [s for q in answerable if (s := about_a_stranger(q["question"]))]
        caught_strangers = sum(bool(unknown_names(q, history)) for q in strangers)
        ms = 1000 * (time.perf_counter() - started) / max(len(answerable) + len(unanswerable) + len(strangers), 1)
        mem.close()
    for question, names in false:
        print(f"  false: {question!r} ({', '.join(names)})", file=sys.stderr)
    return (f"| {label} | {len(false)} of {len(answerable)} | {caught} of {len(unanswerable)} "
            f"| {caught_strangers} of {len(strangers)} | {ms:.1f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--locomo", type=Path, help="LoCoMo JSON (default: the dev conversation)")
    args = ap.parse_args(argv)
    print("| set | false abstention (answerable) | caught (unanswerable) | caught (asked about a stranger) "
          "| ms/question |\n|---|---:|---:|---:|---:|")
    locomo = args.locomo or next((p for p in DEFAULT_DATA if p.exists()), None)
    if locomo is not None:
        print(check(locomo, f"LoCoMo {locomo.stem} (unanswerable: category 5)"))
    for name in SETS:
        path = ROOT / "bench" / "data" / name
        if path.exists():
            print(check(path, name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
