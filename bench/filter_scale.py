"""A filtered search's p50 beside the unfiltered one, on a large store, with a filter keeping ~1% of it.

    python bench/filter_scale.py [--quick] [--windows 200000] [--repeats 30]

The store is bench/search_scale.py's: the LoCoMo dev conversation copied as
many times as needed, each copy a conversation of its own, random unit
vectors (the scan cost depends on the count, not the values). In one copy of
every hundred, one of the two speakers is renamed "Rare Person", so
``--speaker rare`` keeps about 1% of the windows (the share is printed).
Filters restrict the candidates in SQL (the FTS query and the vector
candidates), so the filtered search must still return K hits: the run checks
it. Per mode: the unfiltered p50, the filtered p50, and how many hits.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_bench import fill_random_vectors, percentile
from search_scale import copies, locomo_sample

RARE_EVERY = 100


def with_rare_person(path: Path) -> Path:
    """Rename the first speaker to "Rare Person" in one copy of every RARE_EVERY."""
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])["speaker"]
    out = []
    for line in lines:
        row = json.loads(line)
        if int(row["conversation"].split("-")[1]) % RARE_EVERY == 0 and row["speaker"] == first:
            row["speaker"] = "Rare Person"
        out.append(json.dumps(row))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def run(quick: bool = False, windows: int | None = None, repeats: int | None = None) -> list[dict]:
    from rawrag_tui.memory import Memory
    from rawrag_tui.search.types import Filters

    target = windows or (20_000 if quick else 200_000)
    repeats = repeats or (10 if quick else 30)
    sample = locomo_sample()
    queries = [qa["question"] for qa in sample["qa"] if qa.get("category") != 5]
    rare = Filters(speakers=("rare",))
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        mem = Memory.open(tmp_path / "home")
        mem.import_path(with_rare_person(copies(sample, tmp_path / "copy-0.jsonl", 0, 1)), "jsonl", embed=False)
        per_copy = mem.store.counts()["windows"]
        count = max(0, round(target / per_copy) - 1)
        t = time.perf_counter()
        if count:
            mem.import_path(with_rare_person(copies(sample, tmp_path / "copies.jsonl", 1, count)), "jsonl",
                            embed=False)
        fill_random_vectors(mem)
        total = mem.store.counts()["windows"]
        print(f"  {total:,} windows ready ({time.perf_counter() - t:.0f} s)", file=sys.stderr, flush=True)
        mem.search(queries[0], mode="hybrid", filters=rare)  # warm: model loaded, pages cached
        kept = mem.store._scalar("SELECT COUNT(*) FROM temp.allowed_windows")
        print(f"  the filter keeps {kept:,} of {total:,} windows ({100 * kept / total:.2f}%)", file=sys.stderr)
        for mode in ("lexical", "dense", "hybrid"):
            times: dict[str, list[float]] = {"unfiltered": [], "filtered": []}
            short = 0
            for r in range(repeats):
                q = queries[r % len(queries)]
                for name, filters in (("unfiltered", None), ("filtered", rare)):
                    t = time.perf_counter()
                    result = mem.search(q, mode=mode, filters=filters)
                    times[name].append((time.perf_counter() - t) * 1000)
                    if filters is not None:
                        short += len(result.hits) < mem.settings.retrieval.top_k and mode != "lexical"
                        assert all(any(m.speaker == "Rare Person" for m in h.messages) for h in result.hits)
            base, filtered = percentile(times["unfiltered"], 0.5), percentile(times["filtered"], 0.5)
            rows.append({"name": f"search {mode} p50, speaker filter keeping {100 * kept / total:.1f}% "
                                 f"@ {total:,} windows", "value": filtered, "unit": "ms",
                         "reference_value": base, "reference": "unfiltered", "short_results": short})
        mem.close()
    for row in rows:
        row["ratio"] = row["value"] / row["reference_value"]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--windows", type=int)
    ap.add_argument("--repeats", type=int)
    args = ap.parse_args(argv)
    print(f"machine: {platform.processor() or platform.machine()}, {platform.python_version()}", file=sys.stderr)
    for row in run(args.quick, args.windows, args.repeats):
        print(f"{row['name']:<64} {row['value']:>8.1f} {row['unit']}   unfiltered {row['reference_value']:>8.1f}"
              f"  (x{row['ratio']:.2f}; {row['short_results']} searches under K hits)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
