"""Search p50 at a heavy user's scale: the quantized dense path against the exact scan, in one run.

    python bench/search_scale.py [--quick] [--sizes 13000,116000,200000] [--repeats 40]

One store grows through the sizes (default ~13,000, ~116,000 and ~200,000
windows; quick: 2,000 and 25,000) of real chat text: the LoCoMo dev
conversation's 419 messages, copied as many times as needed, each copy a
conversation of its own a day later (so every window's text, and hash, is
its own). Real text matters for the lexical channel: its cost is the length
of each query word's posting list, and core_bench.py's 100-word synthetic
vocabulary puts every query word in every window. Each window gets a random
unit vector: sqlite-vec's scan cost depends on the count and the width, not
the values (bench/dense_scale.py and docs/benchmarks.md measure what quantizing
costs in quality on LoCoMo's real vectors). The queries are the
conversation's own questions, embedded by the real bundled model; that time
is inside the dense and hybrid figures, as a user waits for it.

At each size, per mode (lexical, dense, hybrid), the p50 and p95 of
``Memory.search`` with the default settings (exact scan up to
``retrieval.exact_below`` vectors, binary KNN + rescore above) and, as the
reference in the same process on the same store, with the exact scan forced.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_bench import fill_random_vectors, percentile

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "locomo-conv-26.json"


def locomo_sample() -> dict:
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    return data[0] if isinstance(data, list) else data


def copies(sample: dict, path: Path, first: int, count: int) -> Path:
    """``count`` copies of the conversation as JSONL, copy ``c`` shifted ``c`` days."""
    from rawrag_tui.importers.locomo import parse_session_date

    conv = sample["conversation"]
    turns = []
    for key in sorted((k for k in conv if k.startswith("session_") and k.count("_") == 1),
                      key=lambda k: int(k.split("_")[1])):
        start = parse_session_date(conv[f"{key}_date_time"])
        turns += [(start + dt.timedelta(seconds=30 * i), t["speaker"], t["text"]) for i, t in enumerate(conv[key])]
    with open(path, "w", encoding="utf-8") as fh:
        for c in range(first, first + count):
            for i, (when, speaker, text) in enumerate(turns):
                fh.write(json.dumps({"conversation": f"copy-{c}", "id": f"{c}-{i}", "speaker": speaker, "text": text,
                                     "timestamp": (when + dt.timedelta(days=c)).isoformat()}) + "\n")
    return path


def timed(mem, queries: list[str], mode: str, repeats: int) -> tuple[float, float]:
    times = []
    for r in range(repeats):
        t = time.perf_counter()
        mem.search(queries[r % len(queries)], mode=mode)
        times.append((time.perf_counter() - t) * 1000)
    return percentile(times, 0.5), percentile(times, 0.95)


def use(mem, retrieval) -> None:
    mem.settings = dataclasses.replace(mem.settings, retrieval=retrieval)


def run(quick: bool = False, sizes: list[int] | None = None, repeats: int | None = None) -> list[dict]:
    """The rows for bench/run_all.py (``run(quick)``) and for main()."""
    from rawrag_tui.memory import Memory

    sizes = sizes or ([2_000, 25_000] if quick else [13_000, 116_000, 200_000])
    repeats = repeats or (10 if quick else 40)
    sample = locomo_sample()
    queries = [qa["question"] for qa in sample["qa"] if qa.get("category") != 5]
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        mem = Memory.open(tmp_path / "home")
        default = mem.settings.retrieval
        exact = dataclasses.replace(default, exact_below=10**12)
        made, windows_per_copy = 0, None
        for target in sizes:
            if windows_per_copy is None:  # one copy first, to learn how many windows a copy makes
                mem.import_path(copies(sample, tmp_path / "copy-0.jsonl", 0, 1), "jsonl", embed=False)
                made, windows_per_copy = 1, mem.store.counts()["windows"]
            count = max(0, round(target / windows_per_copy) - made)
            t = time.perf_counter()
            if count:
                mem.import_path(copies(sample, tmp_path / f"copies-{made}.jsonl", made, count), "jsonl", embed=False)
                made += count
            fill_random_vectors(mem)
            windows = mem.store.counts()["windows"]
            print(f"  {windows:,} windows ready ({time.perf_counter() - t:.0f} s)", file=sys.stderr, flush=True)
            mem.search(queries[0], mode="hybrid")  # warm: model loaded, pages cached
            for mode in ("lexical", "dense", "hybrid"):
                use(mem, exact)
                ref50, ref95 = timed(mem, queries, mode, repeats)
                use(mem, default)
                p50, p95 = timed(mem, queries, mode, repeats)
                rows.append({"name": f"search {mode} p50 @ {windows:,} windows", "value": p50, "unit": "ms",
                             "reference_value": ref50, "reference": "exact dense scan"})
                rows.append({"name": f"search {mode} p95 @ {windows:,} windows", "value": p95, "unit": "ms",
                             "reference_value": ref95, "reference": "exact dense scan"})
        mem.close()
    for row in rows:
        if row.get("reference_value"):
            row["ratio"] = row["value"] / row["reference_value"]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sizes", help="comma-separated window counts, growing")
    ap.add_argument("--repeats", type=int)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else None
    print(f"machine: {platform.processor() or platform.machine()}, {platform.python_version()}", file=sys.stderr)
    for row in run(args.quick, sizes, args.repeats):
        print(f"{row['name']:<44} {row['value']:>8.1f} {row['unit']}   exact scan {row['reference_value']:>8.1f}"
              f"  (x{row['ratio']:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
