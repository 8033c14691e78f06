"""Later messages on the evidence's subject, on and off, question by question with one reader.

For each question the search runs once and the bundled reader answers twice:
once with the home's history (answer/timeline.py follows each anchor's
subject into later messages and marks the newest; answer/unknown.py may say
"not in your history"), once without. The two arms alternate which goes
first and share one reader process, so on a machine shared with others both
read under the same load: that is why this exists beside
``reader_locomo.py``. Rows are written in ``reader_locomo.py``'s form, one
file per arm, for ``changed_facts_score.py``; LoCoMo questions score token F1.

``--off drop`` compares another pair: both arms follow subjects, the "off"
arm shows every version with the latest marked where the "on" arm (the
default) leaves a question about now only the latest (answer/selection.py).
Where both arms build the same prompt the reader reads it once (greedy
decoding gives the same answer) and both rows carry that reading's seconds.

    python bench/timeline_ab.py --data bench/data/changed-facts.json --out /tmp/cf
    python bench/timeline_ab.py --data bench/data/changed-facts-zh.json --off drop --limit 8 --spread --out /tmp/zh
    python bench/timeline_ab.py --limit 20 --out /tmp/locomo     # LoCoMo dev conversation
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from changed_facts import spread  # noqa: E402
from reader_locomo import CATEGORY, DEFAULT_DATA, last_session_date, make_reader_factory  # noqa: E402

from rawrag_tui.answer.prompts import LATEST_MARK, PROMPT_VERSION, is_abstention  # noqa: E402
from rawrag_tui.answer.reading import answer_question  # noqa: E402
from rawrag_tui.eval.metrics import locomo_score  # noqa: E402

ARMS = ("on", "off")


class SamePromptOnce:
    """A reader that reads a prompt it has just read only once: both arms'
    identical prompts cost one reading (temperature 0: the same answer)."""

    def __init__(self, reader):
        self._reader = reader
        self._last: tuple[str, list[str], float] | None = None
        self.reused = False

    def __getattr__(self, name):
        return getattr(self._reader, name)

    def answer(self, prompt, max_tokens=256, on_progress=None):
        self.reused = self._last is not None and self._last[0] == prompt
        if self.reused:
            yield from self._last[1]  # type: ignore[index]
            return
        pieces: list[str] = []
        started = time.perf_counter()
        for piece in self._reader.answer(prompt, max_tokens=max_tokens, on_progress=on_progress):
            pieces.append(piece)
            yield piece
        self._last = (prompt, pieces, time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, help="LoCoMo-shaped JSON (default: the LoCoMo dev conversation)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N scored questions")
    ap.add_argument("--reader", default="bundled", help="bundled | test | path to a GGUF")
    ap.add_argument("--timeout", type=float, default=600.0, help="reader.timeout: a loaded machine is slow")
    ap.add_argument("--out", type=Path, required=True, help="prefix: writes PREFIX-on.jsonl and PREFIX-off.jsonl")
    ap.add_argument("--off", choices=("history", "drop"), default="history",
                    help="what the off arm goes without: the history (default), or leaving superseded messages out")
    ap.add_argument("--evidence-tokens", type=int, default=0,
                    help="a fixed evidence budget for every answer (else the profile's, timed to the machine: "
                         "under load it sits at its floor, 256; on a quiet one it varies call to call)")
    ap.add_argument("--only", default="", help="ask only these questions (1-based, as printed): 3,8-10")
    ap.add_argument("--spread", action="store_true",
                    help="--limit N takes N questions spread over the set, not the first N")
    args = ap.parse_args(argv)
    data = args.data or next((p for p in DEFAULT_DATA if p.exists()), None)
    if data is None:
        ap.error("no LoCoMo file found; pass --data")

    from rawrag_tui.memory import Memory

    samples = json.loads(data.read_text(encoding="utf-8"))
    samples = samples if isinstance(samples, list) else [samples]
    outs = {arm: open(f"{args.out}-{arm}.jsonl", "w", encoding="utf-8") for arm in ARMS}  # noqa: SIM115
    with tempfile.TemporaryDirectory(prefix="rawrag-timeline-") as tmp:
        mem = Memory.open(Path(tmp), reader={"timeout": args.timeout})
        mem.import_path(data, fmt="locomo")
        make = make_reader_factory(args.reader, mem.settings, None)
        once: list[SamePromptOnce] = []

        def factory():
            if not once:
                once.append(SamePromptOnce(make()))
            return once[0]

        options = mem.answer_options()
        if args.evidence_tokens:
            options.update(evidence_tokens=args.evidence_tokens, first_token_seconds=0.0,
                           min_evidence_tokens=args.evidence_tokens)
        questions = [(s, q) for s in samples for q in s["qa"] if q.get("category") in CATEGORY and "answer" in q]
        if args.limit:
            questions = spread(questions, args.limit) if args.spread else questions[: args.limit]
        notes = {q["question"]: n for s in samples for n in s.get("changed_facts_notes", [])
                 for i, q in enumerate(s["qa"]) if n["q"] == i}
        scores: dict[str, list[float]] = {arm: [] for arm in ARMS}
        seconds: dict[str, list[float]] = {arm: [] for arm in ARMS}
        only = {n for part in args.only.split(",") if part
                for n in range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1)}
        for i, (sample, qa) in enumerate(questions, 1):
            if only and i not in only:
                continue
            result = mem.search(qa["question"])
            for arm in (ARMS if i % 2 else ARMS[::-1]):
                started = time.perf_counter()
                if arm == "on":
                    kwargs = options
                elif args.off == "history":
                    kwargs = {k: v for k, v in options.items() if k != "history"}
                else:
                    kwargs = {**options, "drop_superseded": False}
                ans = answer_question(qa["question"], result, factory, date=last_session_date(sample), **kwargs)
                took = time.perf_counter() - started + result.timings.get("total", 0.0)
                if once and once[0].reused and once[0]._last:  # the other arm's reading, not a cache hit's
                    took += once[0]._last[2]
                score = locomo_score(ans.plain_text(), qa["answer"], qa["category"])
                scores[arm].append(score)
                seconds[arm].append(took)
                row = {"i": i, "category": qa["category"], "question": qa["question"], "gold": str(qa["answer"]),
                       "answer": ans.answer, "f1": score, "seconds": took, "abstained": is_abstention(ans.answer),
                       "evidence_tokens": ans.evidence_tokens, "evidence_budget": ans.evidence_budget,
                       "latest_marked": ans.evidence_text.count(LATEST_MARK), "prompt_version": PROMPT_VERSION,
                       "superseded": ans.superseded, "reader_said": ans.reader_said}
                note = notes.get(qa["question"])
                if "language" in sample:  # a changed-facts set: what changed_facts_score.py reads
                    row.update(lang=sample["language"], store="plain", reader=f"{args.reader} ({arm})",
                               kind=note["kind"] if note else "unanswerable",
                               asks_past=bool(note and note["asks_past"]))
                outs[arm].write(json.dumps(row, ensure_ascii=False) + "\n")
                outs[arm].flush()
                print(f"{i:3d} {arm:3s} F1 {score:.2f} {took:5.1f}s {qa['question'][:50]!r} -> {ans.answer[:60]!r}",
                      file=sys.stderr)
    for f in outs.values():
        f.close()
    for arm in ARMS:
        n = len(scores[arm])
        if n:
            print(f"{arm}: {n} questions, F1 {100 * statistics.mean(scores[arm]):.1f}, "
                  f"{statistics.mean(seconds[arm]):.1f} s/question (mean)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
