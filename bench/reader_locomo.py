"""Answer accuracy of the local reader on LoCoMo (token F1, categories 1-4).

Imports one LoCoMo conversation into a fresh home, asks its questions through
the default retrieval (``Memory.search``) and the reader, and scores each
answer with LoCoMo's own token F1 (``rawrag_tui.eval.metrics``). Questions are
dated the day of the conversation's last session, as LoCoMo asks them then.

    python bench/reader_locomo.py --limit 20
    python bench/reader_locomo.py --reader test --limit 5      # SmolLM2-135M
    python bench/reader_locomo.py --reader path/to/model.gguf
    python bench/reader_locomo.py --budget 1024 --questions changed.json --out arm.jsonl

``--questions`` asks only the questions a change touches (their texts, a JSON
list; ``evidence_coverage.py --compare`` writes one): a paired run of two
checkouts in minutes where all 152 take an hour; the other answers are the
same in both, so the F1 of all moves by the sum of those answers' changes
over the number asked in all.

Seconds per question are wall-clock on whatever machine runs it; on a shared
CPU they move with the neighbours' load, so compare runs made back to back.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Appended, not prepended: PYTHONPATH can point the run at another checkout of
# rawrag (a "before" worktree, for a paired run) while the data stay these.
sys.path.append(str(ROOT))

from rawrag_tui.answer.prompts import PROMPT_VERSION  # noqa: E402
from rawrag_tui.answer.reading import answer_question  # noqa: E402
from rawrag_tui.eval.metrics import locomo_score  # noqa: E402

DEFAULT_DATA = [ROOT / "shared/data/locomo-conv-26.json", ROOT.parent / "shared/data/locomo-conv-26.json"]
CATEGORY = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def session_date(text: str) -> dt.date:
    """``1:56 pm on 8 May, 2023`` -> 2023-05-08."""
    m = re.search(r"(\d{1,2}) (\w+),? (\d{4})", text)
    if not m:
        raise ValueError(f"unrecognised LoCoMo date {text!r}")
    return dt.datetime.strptime(f"{m.group(1)} {m.group(2)} {m.group(3)}", "%d %B %Y").date()


def last_session_date(sample: dict) -> dt.date:
    conv = sample["conversation"]
    dates = [session_date(v) for k, v in conv.items() if re.fullmatch(r"session_\d+_date_time", k) and v]
    return max(dates)


def make_reader_factory(choice: str, settings, gpu_layers):
    from rawrag_tui.models.gguf import BUNDLED_READER, TEST_READER
    from rawrag_tui.models.reader_process import ReaderProcess, gguf_launch, packaged_launch

    cache: dict = {}

    def make():
        if "reader" not in cache:
            started = time.perf_counter()
            if choice == "bundled":
                launch = packaged_launch(BUNDLED_READER, settings, gpu_layers=gpu_layers)
            elif choice == "test":
                launch = packaged_launch(TEST_READER, settings, gpu_layers=gpu_layers)
            else:
                launch = gguf_launch(Path(choice), settings, gpu_layers=gpu_layers)
            cache["reader"] = ReaderProcess(launch)
            info = cache["reader"].info
            print(f"# reader {cache['reader'].name} ready in {time.perf_counter() - started:.1f} s "
                  f"(threads {info['threads']}, gpu layers {info['gpu_layers']})", file=sys.stderr)
        return cache["reader"]

    return make


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, help="LoCoMo JSON (default: shared/data/locomo-conv-26.json)")
    ap.add_argument("--home", type=Path, help="rawrag home to use (default: a fresh temporary one)")
    ap.add_argument("--limit", type=int, default=0, help="ask only the first N scored questions")
    ap.add_argument("--questions", type=Path,
                    help="ask only these questions (a JSON list of their texts): a paired run of the "
                         "questions whose evidence a change alters")
    ap.add_argument("--reader", default="bundled", help="bundled | test | path to a GGUF")
    ap.add_argument("--gpu-layers", default=None)
    ap.add_argument("--prompt", choices=("cited", "plain"), help="reader.prompt (default: the setting)")
    ap.add_argument("--context-cap", type=int, help="reader.context_cap (default: the setting)")
    ap.add_argument("--budget", type=int, help="reader.evidence_tokens (default: the profile's)")
    ap.add_argument("--first-token", type=float,
                    help="reader.first_token_seconds: the wait the evidence is sized to; 0 = the full budget "
                         "(default: the setting)")
    ap.add_argument("--select", choices=("messages", "windows"), help="reader.select (default: the setting)")
    ap.add_argument("--k", type=int, help="retrieval.top_k: windows search keeps (default: the setting)")
    ap.add_argument("--out", type=Path, help="write per-question results as JSON lines here")
    args = ap.parse_args(argv)

    data = args.data or next((p for p in DEFAULT_DATA if p.exists()), None)
    if data is None:
        ap.error("no LoCoMo file found; pass --data")
    try:
        from rawrag_tui.memory import Memory
    except ImportError as exc:
        print(f"this bench needs the Memory facade (rawrag_tui.memory): {exc}", file=sys.stderr)
        return 2

    samples = json.loads(data.read_text(encoding="utf-8"))
    if isinstance(samples, dict):
        samples = [samples]
    with tempfile.TemporaryDirectory(prefix="rawrag-bench-") as tmp:
        home = args.home or Path(tmp)
        mem = Memory.open(home, reader={"prompt": args.prompt, "context_cap": args.context_cap,
                                        "evidence_tokens": args.budget, "select": args.select,
                                        "first_token_seconds": args.first_token},
                          retrieval={"top_k": args.k})
        started = time.perf_counter()
        mem.import_path(data, fmt="locomo")
        print(f"# rawrag from {Path(sys.modules['rawrag_tui'].__file__).parent}; imported {data.name} in "
              f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
        factory = make_reader_factory(args.reader, mem.settings, args.gpu_layers)
        rows = []
        questions = [(s, q) for s in samples for q in s["qa"] if q.get("category") in CATEGORY and "answer" in q]
        if args.questions:
            chosen = set(json.loads(args.questions.read_text(encoding="utf-8")))
            questions = [(s, q) for s, q in questions if q["question"] in chosen]
        if args.limit:
            questions = questions[: args.limit]
        out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115 (closed after the loop)
        for i, (sample, qa) in enumerate(questions, 1):
            asked = last_session_date(sample)
            t0 = time.perf_counter()
            result = mem.search(qa["question"])
            t_search = time.perf_counter() - t0
            result.timings.setdefault("total", t_search)
            ans = answer_question(qa["question"], result, factory, date=asked, **mem.answer_options())
            seconds = time.perf_counter() - t0
            # Citation markers are metadata, not answer words: "[3]" would
            # count as a token "3" in LoCoMo's F1.
            score = locomo_score(ans.plain_text(), qa["answer"], qa["category"])
            row = {
                "i": i, "category": qa["category"], "question": qa["question"], "gold": str(qa["answer"]),
                "answer": ans.answer, "reader_said": ans.reader_said, "correction": ans.correction,
                "f1": score, "seconds": seconds, "search_s": t_search,
                "read_s": ans.timings.get("read", 0.0), "first_token_s": ans.timings.get("first_token", 0.0),
                "evidence_tokens": ans.evidence_tokens, "prompt_tokens": ans.prompt_tokens,
                "evidence_budget": ans.evidence_budget, "prompt_rate": ans.prompt_rate,
                "dropped_windows": ans.dropped_windows, "superseded": ans.superseded,
                "citations": [c.external_id for c in ans.citations], "dropped_citations": ans.dropped_citations,
                "evidence_ids": sorted(re.findall(r"D\d+:\d+", " ".join(qa.get("evidence", [])))),
            }
            rows.append(row)
            if out:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                out.flush()  # a long run stopped early keeps what it measured
            print(f"{i:3d} c{qa['category']} F1 {score:.2f} {seconds:5.1f}s  "
                  f"{qa['question'][:60]!r} -> {ans.answer[:70]!r}", file=sys.stderr)
        if out:
            out.close()

    if not rows:
        print("no questions asked")
        return 1
    rs = mem.settings.reader
    target = rs.first_token_seconds or 10.0
    print(f"\nLoCoMo token F1, {len(rows)} questions of {data.name}, reader {args.reader}, "
          f"prompt {rs.prompt} (v{PROMPT_VERSION}), select {rs.select}, "
          f"evidence budget {mem.answer_options()['evidence_tokens']} "
          f"(sized to a {rs.first_token_seconds:g} s first token), "
          f"K {mem.settings.retrieval.top_k}")
    for cat, name in CATEGORY.items():
        sel = [r["f1"] for r in rows if r["category"] == cat]
        if sel:
            print(f"  category {cat} ({name}): F1 {100 * statistics.mean(sel):5.1f} over {len(sel)}")
    print(f"  all: F1 {100 * statistics.mean(r['f1'] for r in rows):5.1f}")
    later = rows[1:] or rows  # the first question also pays for loading the reader
    print(f"  seconds/question: {statistics.mean(r['seconds'] for r in rows):.1f} mean, "
          f"{statistics.median(r['seconds'] for r in later):.1f} median after the first "
          f"(search {statistics.mean(r['search_s'] for r in later):.1f}, "
          f"read {statistics.mean(r['read_s'] for r in later):.1f}, "
          f"first token {statistics.mean(r['first_token_s'] for r in later):.1f})")
    budgets = [r["evidence_budget"] for r in rows]
    rates = [r["prompt_rate"] for r in rows if r["prompt_rate"]]
    print(f"  first token: {statistics.median(r['first_token_s'] for r in later):.1f} s median, "
          f"{max(r['first_token_s'] for r in later):.1f} s max; "
          f"{sum(row['first_token_s'] <= target for row in later)} of {len(later)} within {target:g} s")
    print(f"  evidence budget: {min(budgets)}-{max(budgets)} tokens (first_token_seconds "
          f"{rs.first_token_seconds:g}); prompt speed "
          + (f"{statistics.median(rates):.0f} tokens/s median" if rates else "not measured"))
    print(f"  evidence tokens: {statistics.mean(r['evidence_tokens'] for r in rows):.0f} mean; "
          f"windows dropped to fit: {sum(r['dropped_windows'] for r in rows)}; "
          f"invented citations removed: {sum(r['dropped_citations'] for r in rows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
