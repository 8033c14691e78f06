"""A filtered search's p50 beside the unfiltered one, on a large store, with a filter keeping ~1% of it.

    python bench/filter_scale.py [--quick] [--windows 200000] [--repeats 30]

The store is bench/search_scale.py's (``--keep`` shares its kept stores): the
LoCoMo dev conversation copied as many times as needed, each copy a
conversation of its own, random unit vectors (the scan cost depends on the
count, not the values). In one copy of every hundred, one of the two speakers
is "Rare Person", so ``--speaker rare`` keeps about 1% of the windows (the
share is printed).
Filters restrict the candidates in SQL (the FTS query and the vector
candidates), so the filtered search must still return K hits: the run checks
it. Per mode: the unfiltered p50, the filtered p50 (with the in-memory
matrix, the default, and on the SQL paths), how many hits, and the CPU time's
p50 of each (what a shared, loaded machine still lets two runs compare).
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_bench import percentile
from search_scale import built_store, locomo_sample


def run(quick: bool = False, windows: int | None = None, repeats: int | None = None,
        keep: Path | None = None) -> list[dict]:
    from rawrag_tui.search.types import Filters

    target = windows or (20_000 if quick else 200_000)
    repeats = repeats or (10 if quick else 30)
    sample = locomo_sample()
    queries = [qa["question"] for qa in sample["qa"] if qa.get("category") != 5]
    rare = Filters(speakers=("rare",))
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        mem = built_store(sample, target, keep, Path(tmp))
        total = mem.store.counts()["windows"]
        default = mem.settings.retrieval
        in_sql = dataclasses.replace(default, vector_cache_mb=0, lexical_cache_mb=0)  # no matrix, FTS5 for words
        mem.search(queries[0], mode="hybrid", filters=rare)  # warm: model loaded, pages cached
        t = time.perf_counter()
        for q in queries[:repeats]:  # each question's words' scores read once (kept until window text is written)
            mem.search(q, mode="lexical")
        print(f"  the questions' term scores read {time.perf_counter() - t:.1f} s", file=sys.stderr)
        kept = mem.store._scalar("SELECT COUNT(*) FROM temp.allowed_windows")
        print(f"  the filter keeps {kept:,} of {total:,} windows ({100 * kept / total:.2f}%)", file=sys.stderr)
        for mode in ("lexical", "dense", "hybrid"):
            times: dict[str, list[float]] = {"unfiltered": [], "filtered": [], "filtered, SQL paths": []}
            cpu: dict[str, list[float]] = {name: [] for name in times}
            short = 0
            for r in range(repeats):
                q = queries[r % len(queries)]
                for name, filters in (("unfiltered", None), ("filtered", rare), ("filtered, SQL paths", rare)):
                    mem.settings = dataclasses.replace(mem.settings, retrieval=in_sql if "SQL" in name else default)
                    t, c = time.perf_counter(), time.process_time()
                    result = mem.search(q, mode=mode, filters=filters)
                    times[name].append((time.perf_counter() - t) * 1000)
                    cpu[name].append((time.process_time() - c) * 1000)
                    if filters is not None:
                        short += len(result.hits) < mem.settings.retrieval.top_k and mode != "lexical"
                        assert all(any(m.speaker == "Rare Person" for m in h.messages) for h in result.hits)
            base, filtered = percentile(times["unfiltered"], 0.5), percentile(times["filtered"], 0.5)
            rows.append({"name": f"search {mode} p50, speaker filter keeping {100 * kept / total:.1f}% "
                                 f"@ {total:,} windows", "value": filtered, "unit": "ms",
                         "reference_value": base, "reference": "unfiltered", "short_results": short,
                         "sql_paths": percentile(times["filtered, SQL paths"], 0.5),
                         "cpu": {name: percentile(v, 0.5) for name, v in cpu.items()}})
        mem.close()
    for row in rows:
        row["ratio"] = row["value"] / row["reference_value"]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--windows", type=int)
    ap.add_argument("--repeats", type=int)
    ap.add_argument("--keep", type=Path, help="keep the store under this folder and reuse it (search_scale.py's)")
    args = ap.parse_args(argv)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True, mode=0o700)
    print(f"machine: {platform.processor() or platform.machine()}, {platform.python_version()}", file=sys.stderr)
    for row in run(args.quick, args.windows, args.repeats, args.keep):
        print(f"{row['name']:<64} {row['value']:>8.1f} {row['unit']}   unfiltered {row['reference_value']:>8.1f}"
              f"  (x{row['ratio']:.2f}; {row['short_results']} searches under K hits)"
              f"   filtered, SQL paths {row['sql_paths']:.1f}   CPU p50 "
              + ", ".join(f"{name} {value:.1f}" for name, value in row["cpu"].items()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
