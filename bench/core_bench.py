"""Core throughput and latency: import+window, embedding, search per mode.

    python bench/core_bench.py [--quick]

Builds synthetic histories in a temp dir (nothing touches your data):
- chat-like: 100k short messages (quick: 10k) for import+window throughput
  (reference: a bare json.loads of the same lines, same process);
- embedding throughput of the bundled int8 ONNX model on a sample of windows,
  against sentence-transformers running the same all-MiniLM-L6-v2 (fp32,
  torch, same 512-token limit) in the same process;
- search latency p50/p95 per mode at ~10k and ~100k windows (quick: 1k/10k).
  Embedding 100k windows would take hours on 2 cores, so windows beyond the
  embedded sample get random unit vectors: sqlite-vec's scan cost depends on
  the count and dimension, not on the values. Queries are real text, embedded
  by the real model (that time is inside the dense/hybrid figures).
Reference for search: the lexical channel's p50 at the same size.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

WORDS = (
    "sailing bread chess garden tomato lisbon berlin wedding marathon dog terrier climbing van gite physio "
    "finger tempo pace knee flight flat river stairs promotion team bakery oven shift coffee train ticket "
    "birthday cake dinner album photo mill lake house flood repair calendar weekend forecast rain sun sea "
    "beach swim book club novel chapter recipe soup salad guitar concert ticket museum painting sunrise "
    "budget invoice landlord rent deposit bike repair tyre helmet route hill valley camping tent stove"
).split()
QUERIES = ["when is the wedding at the mill", "what is the dog called", "how did the marathon training go",
           "where did they move", "which train ticket did they book", "what happened to the lake house",
           "recipe for tomato soup", "bike tyre repair", "concert tickets", "climbing trip weekend forecast"]


def synth(path: Path, messages: int, words_per_message: int, per_conv: int = 200, seed: int = 7) -> Path:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(messages):
            conv = i // per_conv
            text = " ".join(rng.choice(WORDS) for _ in range(words_per_message))
            fh.write(json.dumps({"conversation": f"c{conv}", "id": f"m{i}",
                                 "timestamp": 1_700_000_000 + i * 60, "speaker": ("Ada", "Bo", "Cy")[i % 3],
                                 "text": text}) + "\n")
    return path


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def fill_random_vectors(mem, seed: int = 3) -> int:
    import numpy as np

    rng = np.random.default_rng(seed)
    space = mem.store.ensure_space(mem.embedder.fingerprint, mem.embedder.dims)
    filled = 0
    while pending := mem.store.pending_windows(space, 5000):
        vecs = rng.standard_normal((len(pending), mem.embedder.dims)).astype("float32")
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        with mem.store.transaction():
            mem.store.add_vectors(space, [h for h, _ in pending], vecs)
        filled += len(pending)
    with mem.store.transaction():
        mem.store.meta_set(f"fingerprint:{mem.settings.models.profile}", mem.embedder.fingerprint)
        mem.store.mark_embedded(space)  # as the indexer does when it finishes
    return filled


def search_latency(mem, label: str, repeats: int) -> list[dict]:
    rows = []
    lexical_p50 = None
    for mode in ("lexical", "dense", "hybrid"):
        times = []
        for r in range(repeats):
            q = QUERIES[r % len(QUERIES)]
            t = time.perf_counter()
            mem.search(q, mode=mode)
            times.append((time.perf_counter() - t) * 1000)
        p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
        if mode == "lexical":
            lexical_p50 = p50
        rows.append({"name": f"search {mode} p50 @ {label}", "value": p50, "unit": "ms",
                     "reference_value": lexical_p50})
        rows.append({"name": f"search {mode} p95 @ {label}", "value": p95, "unit": "ms"})
    return rows


def embedding_rows(mem, sample: int) -> list[dict]:
    texts = [r[0] for r in mem.store._rows("SELECT text FROM windows ORDER BY id LIMIT ?", (sample,))]
    emb = mem.embedder
    emb.embed(texts[:8])  # warm-up
    t = time.perf_counter()
    emb.embed(texts)
    onnx_rate = len(texts) / (time.perf_counter() - t)
    reference = None
    try:
        from sentence_transformers import SentenceTransformer

        from rawrag_tui.models.minilm import TOKENIZER_FILE

        st = SentenceTransformer(str(TOKENIZER_FILE.path().parent), device="cpu")
        st.max_seq_length = emb.max_tokens
        st.encode(texts[:8])
        t = time.perf_counter()
        st.encode(texts, batch_size=emb.batch_size, normalize_embeddings=True)
        reference = len(texts) / (time.perf_counter() - t)
    except ImportError:
        print("sentence-transformers not installed (pip install '.[bench]'): no reference", file=sys.stderr)
    return [{"name": f"embed bundled int8 ONNX ({len(texts)} windows; ref: sentence-transformers fp32)",
             "value": onnx_rate, "unit": "windows/s", "reference_value": reference}]


def run(quick: bool = False) -> list[dict]:
    from rawrag_tui.index.windowing import encoding
    from rawrag_tui.memory import Memory

    encoding()  # load the tokenizer outside the timed part
    small_msgs = 10_000 if quick else 100_000
    big_windows = 10_000 if quick else 100_000
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        chat = synth(tmp / "chat.jsonl", small_msgs, 12)
        t = time.perf_counter()
        with open(chat, encoding="utf-8") as handle:
            for line in handle:
                json.loads(line)
        parse_rate = small_msgs / (time.perf_counter() - t)
        mem = Memory.open(tmp / "home-small")
        t = time.perf_counter()
        report = mem.import_path(chat, "jsonl", embed=False)
        rate = small_msgs / (time.perf_counter() - t)
        rows.append({"name": f"import+window {small_msgs:,} chat messages ({report.windows_written:,} windows)",
                     "value": rate, "unit": "messages/s", "reference_value": parse_rate})
        rows += embedding_rows(mem, 64 if quick else 512)
        fill_random_vectors(mem)
        label = f"{mem.store.counts()['windows']:,} windows"
        rows += search_latency(mem, label, 10 if quick else 40)
        mem.close()

        # ~1 window per message: 230-word messages are about 240 cl100k tokens
        long = synth(tmp / "long.jsonl", big_windows, 230, per_conv=50)
        mem = Memory.open(tmp / "home-big")
        t = time.perf_counter()
        report = mem.import_path(long, "jsonl", embed=False)
        rows.append({"name": f"import+window {big_windows:,} long messages ({report.windows_written:,} windows)",
                     "value": big_windows / (time.perf_counter() - t), "unit": "messages/s"})
        fill_random_vectors(mem)
        label = f"{mem.store.counts()['windows']:,} windows"
        rows += search_latency(mem, label, 10 if quick else 40)
        mem.close()
    for row in rows:
        if row.get("reference_value"):
            row["ratio"] = row["value"] / row["reference_value"]
    return rows


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        ratio = f"  (x{row['ratio']:.2f} of reference {row['reference_value']:.1f})" if row.get("ratio") else ""
        print(f"{row['name']:<70} {row['value']:>10.1f} {row['unit']}{ratio}")
