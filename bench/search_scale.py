"""Search p50 at a heavy user's scale: the in-memory matrix, the SQL paths and the exact SQL scan, in one run.

    python bench/search_scale.py [--quick] [--sizes 13000,116000,200000] [--repeats 40] [--keep DIR] [--no-sql]

One store per size (default ~13,000, ~116,000 and ~200,000 windows; quick:
2,000 and 25,000) of real chat text: the LoCoMo dev conversation's 419
messages, copied as many times as needed, each copy a conversation of its
own a day later (so every window's text, and hash, is its own); in one copy
of every hundred the first speaker is "Rare Person" (bench/filter_scale.py's
1% filter). Real text matters for the lexical channel: its cost is the
length of each query word's posting list, and core_bench.py's 100-word
synthetic vocabulary puts every query word in every window. Each window gets
a random unit vector: the scan cost depends on the count and the width, not
the values (bench/dense_scale.py and docs/benchmarks.md measure what
quantizing costs in quality on LoCoMo's real vectors). The queries are the
conversation's own questions, embedded by the real bundled model; that time
is inside the dense and hybrid figures, as a user waits for it. ``--keep``
keeps the built stores for the next run (a 200,000-window store takes minutes).

At each size, per mode (lexical, dense, hybrid), the p50 and p95 of
``Memory.search`` with the default settings (the space's vectors as one
in-memory matrix, storage/vector_matrix.py, and the in-memory term scores,
storage/lexical_index.py); with ``vector_cache_mb = 0`` and ``lexical_cache_mb
= 0`` (the SQL paths: exact scan up to ``retrieval.exact_below`` vectors,
binary KNN + rescore above; FTS5 scoring the matches, pruned by
storage/bm25_bound.py); and, as the reference, with the exact SQL scan forced,
all in the same process on the same store (``--no-sql`` leaves these two
out). Wall-clock p50/p95, and the CPU time's p50 (what a shared, loaded
machine still lets two runs compare). Also as before the term scores and the
two-thread product: the matrix, FTS5 for the lexical channel, the product on
one thread.
"""

from __future__ import annotations

import argparse
import contextlib
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


#: One copy in this many has its first speaker renamed "Rare Person": ``--speaker rare`` keeps ~1% (filter_scale.py).
RARE_EVERY = 100


def copies(sample: dict, path: Path, first: int, count: int) -> Path:
    """``count`` copies of the conversation as JSONL, copy ``c`` shifted ``c`` days; in one copy of every
    RARE_EVERY the first speaker is "Rare Person"."""
    from rawrag_tui.importers.locomo import parse_session_date

    conv = sample["conversation"]
    turns = []
    for key in sorted((k for k in conv if k.startswith("session_") and k.count("_") == 1),
                      key=lambda k: int(k.split("_")[1])):
        start = parse_session_date(conv[f"{key}_date_time"])
        turns += [(start + dt.timedelta(seconds=30 * i), t["speaker"], t["text"]) for i, t in enumerate(conv[key])]
    main_speaker = turns[0][1]
    with open(path, "w", encoding="utf-8") as fh:
        for c in range(first, first + count):
            for i, (when, speaker, text) in enumerate(turns):
                if c % RARE_EVERY == 0 and speaker == main_speaker:
                    speaker = "Rare Person"
                fh.write(json.dumps({"conversation": f"copy-{c}", "id": f"{c}-{i}", "speaker": speaker, "text": text,
                                     "timestamp": (when + dt.timedelta(days=c)).isoformat()}) + "\n")
    return path


def grow(mem, sample: dict, work: Path, target: int) -> int:
    """Import copies until the store holds about ``target`` windows, then give every window a vector."""
    if not mem.store.has_windows():  # one copy first, to learn how many windows a copy makes
        mem.import_path(copies(sample, work / "copy-0.jsonl", 0, 1), "jsonl", embed=False)
    made = mem.store._scalar("SELECT COUNT(*) FROM conversations")
    per_copy = mem.store.counts()["windows"] / made
    count = max(0, round(target / per_copy) - made)
    if count:
        mem.import_path(copies(sample, work / f"copies-{made}.jsonl", made, count), "jsonl", embed=False)
    fill_random_vectors(mem)
    return mem.store.counts()["windows"]


def built_store(sample: dict, target: int, keep: Path | None, work: Path):
    """A Memory on a store of about ``target`` windows.

    With ``keep``, each size's home is kept under it (``keep/w{target}``) and reused by the next
    run; a missing size starts from a copy of the largest smaller one kept, so a 200,000-window
    store is built once (it takes many minutes).
    """
    import shutil

    from rawrag_tui.memory import Memory

    home = (keep or work) / f"w{target}"
    if keep is not None and not home.exists():
        smaller = sorted((int(d.name[1:]), d) for d in keep.glob("w*") if d.name[1:].isdigit()
                         and int(d.name[1:]) < target and (d / "ready").exists())
        if smaller:
            shutil.copytree(smaller[-1][1], home)
            (home / "ready").unlink()
    t = time.perf_counter()
    mem = Memory.open(home)
    if not (home / "ready").exists():
        windows = grow(mem, sample, work, target)
        mem.store.conn.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (home / "ready").touch()
        print(f"  {windows:,} windows ready ({time.perf_counter() - t:.0f} s)", file=sys.stderr, flush=True)
    return mem


def timed(mem, queries: list[str], mode: str, repeats: int) -> tuple[float, float, float]:
    """(p50, p95) of the wall time, and the p50 of the CPU time (both threads of a hybrid search):
    on a machine other work shares, CPU time is the figure two runs can be compared by."""
    times, cpu = [], []
    for r in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        mem.search(queries[r % len(queries)], mode=mode)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return percentile(times, 0.5), percentile(times, 0.95), percentile(cpu, 0.5)


@contextlib.contextmanager
def one_thread_product():
    """The matrix product on one thread, as before it was split in two halves."""
    from rawrag_tui.storage import vector_matrix

    split = vector_matrix.SPLIT_ROWS
    vector_matrix.SPLIT_ROWS = 1 << 62
    try:
        yield
    finally:
        vector_matrix.SPLIT_ROWS = split


def use(mem, retrieval) -> None:
    mem.settings = dataclasses.replace(mem.settings, retrieval=retrieval)


def run(quick: bool = False, sizes: list[int] | None = None, repeats: int | None = None,
        keep: Path | None = None, sql: bool = True) -> list[dict]:
    """The rows for bench/run_all.py (``run(quick)``) and for main()."""
    sizes = sizes or ([2_000, 25_000] if quick else [13_000, 116_000, 200_000])
    repeats = repeats or (10 if quick else 40)
    sample = locomo_sample()
    queries = [qa["question"] for qa in sample["qa"] if qa.get("category") != 5]
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        for target in sizes:
            mem = built_store(sample, target, keep, Path(tmp))
            windows = mem.store.counts()["windows"]
            default = mem.settings.retrieval
            in_sql = dataclasses.replace(default, vector_cache_mb=0, lexical_cache_mb=0)
            before = dataclasses.replace(default, lexical_cache_mb=0)  # FTS5 for words, one-thread product
            exact = dataclasses.replace(in_sql, exact_below=10**12)
            t = time.perf_counter()
            mem.search(queries[0], mode="hybrid")  # warm: model loaded, matrix read, pages cached
            print(f"  first search (reads the matrix) {time.perf_counter() - t:.1f} s", file=sys.stderr)
            t = time.perf_counter()
            for q in queries:  # each question's words' scores read once (kept until window text is written)
                mem.search(q, mode="lexical")
            print(f"  every question's term scores read {time.perf_counter() - t:.1f} s", file=sys.stderr)
            for mode in ("lexical", "dense", "hybrid"):
                ref50 = ref95 = ref_cpu = sql50 = sql95 = sql_cpu = float("nan")
                if sql:
                    use(mem, exact)
                    ref50, ref95, ref_cpu = timed(mem, queries, mode, repeats)
                    use(mem, in_sql)
                    sql50, sql95, sql_cpu = timed(mem, queries, mode, repeats)
                use(mem, before)
                with one_thread_product():
                    was50, was95, was_cpu = timed(mem, queries, mode, repeats)
                use(mem, default)
                p50, p95, cpu = timed(mem, queries, mode, repeats)
                for q, value, sql_value, ref, was in (("p50", p50, sql50, ref50, was50),
                                                      ("p95", p95, sql95, ref95, was95),
                                                      ("CPU p50", cpu, sql_cpu, ref_cpu, was_cpu)):
                    rows.append({"name": f"search {mode} {q} @ {windows:,} windows", "value": value, "unit": "ms",
                                 "reference_value": ref, "reference": "exact SQL scan", "sql_paths": sql_value,
                                 "before": was})
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
    ap.add_argument("--keep", type=Path, help="keep each size's store under this folder and reuse it next time")
    ap.add_argument("--no-sql", action="store_true", help="leave out the SQL paths and the exact SQL scan (slow)")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else None
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True, mode=0o700)
    print(f"machine: {platform.processor() or platform.machine()}, {platform.python_version()}", file=sys.stderr)
    for row in run(args.quick, sizes, args.repeats, args.keep, not args.no_sql):
        print(f"{row['name']:<44} {row['value']:>7.1f} {row['unit']}   SQL paths {row['sql_paths']:>7.1f}"
              f"   exact SQL scan {row['reference_value']:>7.1f}  (x{row.get('ratio', float('nan')):.2f})"
              f"   before (FTS5, one-thread product) {row['before']:>7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
