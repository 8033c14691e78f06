"""Dense recall at a heavy user's scale: sqlite-vec's exact float KNN against its binary-quantized KNN.

    python bench/dense_scale.py [--quick] [--windows N]

Latency: N (default 200,000; quick 20,000) random unit 384-d vectors in a
real vec0 table (``float[384] distance_metric=cosine``, as the store makes
them) and beside it a ``bit[384]`` vec0 table of ``vec_quantize_binary`` of the
same vectors. Per query, p50 over 15 queries near stored vectors:

- exact: float KNN, k=128 (the store's dense channel before migration 3; the reference);
- bit k=128 alone, and bit k=128*oversample followed by a float rescoring
  pass (the candidates' float vectors read back by id, cosine in numpy,
  best 128 kept), for oversample 1, 2, 4 and 8, reading the floats from a
  plain (id, blob) table; once from the vec0 table itself, for comparison.

Quality: the same rescored search on the real vectors of the LoCoMo dev
conversation (95 windows) at a depth that makes it choose (k=8 of 95): the
share of exact top-8 windows the rescored search also returns, averaged
over the 150 answerable questions. Random vectors say nothing about recall;
LoCoMo is small, so this is the cost per candidate slot, not at 200,000.

The store's own path (a plain float table + a ``bit`` vec0 table with
4,096-vector chunks, migration 3) is measured end to end, inside
``Memory.search``, by bench/search_scale.py.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

K = 128


def _tables(conn, vectors: np.ndarray) -> None:
    cur = conn.cursor()
    cur.execute(f"CREATE VIRTUAL TABLE vf USING vec0 (embedding float[{vectors.shape[1]}] distance_metric=cosine)")
    cur.execute(f"CREATE VIRTUAL TABLE vb USING vec0 (embedding bit[{vectors.shape[1]}])")
    # The store's layout (migration 3): 4,096 vectors per chunk, vec0's largest, against the default 1,024.
    cur.execute(f"CREATE VIRTUAL TABLE vb4 USING vec0 (embedding bit[{vectors.shape[1]}], chunk_size=4096)")
    with conn:
        cur.executemany("INSERT INTO vf (rowid, embedding) VALUES (?, ?)",
                        ((i + 1, v.tobytes()) for i, v in enumerate(vectors)))
        cur.execute("INSERT INTO vb (rowid, embedding) SELECT rowid, vec_quantize_binary(embedding) FROM vf")
        cur.execute("INSERT INTO vb4 (rowid, embedding) SELECT rowid, embedding FROM vb")
        # The rescoring pass reads float vectors by id; a plain table answers
        # point lookups faster than vec0's chunked storage (measured below).
        cur.execute("CREATE TABLE vblob (id INTEGER PRIMARY KEY, embedding BLOB NOT NULL)")
        cur.execute("INSERT INTO vblob (id, embedding) SELECT rowid, embedding FROM vf")


def exact(conn, q: np.ndarray, k: int = K) -> list[int]:
    return [r[0] for r in conn.cursor().execute(
        "SELECT rowid FROM vf WHERE embedding MATCH ? AND k = ?", (q.tobytes(), k))]


def rescored(conn, q: np.ndarray, k: int = K, oversample: int = 1, table: str = "vblob") -> list[int]:
    cur = conn.cursor()
    ids = [r[0] for r in cur.execute("SELECT rowid FROM vb WHERE embedding MATCH vec_quantize_binary(?) AND k = ?",
                                     (q.tobytes(), k * oversample))]
    if not ids:
        return []
    key = "rowid" if table == "vf" else "id"
    rows = list(cur.execute(f"SELECT {key}, embedding FROM {table} WHERE {key} IN ({','.join('?' * len(ids))})",
                            ids))
    mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    order = np.argsort(-(mat @ q))[:k]
    return [rows[i][0] for i in order]


def p50(fn, queries) -> float:
    times = []
    for q in queries:
        t = time.perf_counter()
        fn(q)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def locomo_recall(oversamples=(1, 2, 4, 8), k: int = 8) -> dict[int, float]:
    import json

    from rawrag_tui.memory import Memory
    from rawrag_tui.storage.db import connect

    source = Path("/work/shared/data/locomo-conv-26.json")
    sample = json.loads(source.read_text())
    sample = sample[0] if isinstance(sample, list) else sample
    with tempfile.TemporaryDirectory() as tmp, Memory.open(Path(tmp) / "home") as mem:
        mem.import_path(source, "auto", embed=False)
        texts = [r[0] for r in mem.store._rows("SELECT text FROM windows ORDER BY id")]
        emb = mem.embedder
        vectors = emb.embed(texts)
        questions = [qa["question"] for qa in sample["qa"] if qa.get("question") and qa.get("category") != 5]
        qvecs = np.vstack([emb.embed([q], kind="query")[0] for q in questions])
        conn = connect(Path(tmp) / "scratch.db")
        _tables(conn, vectors)
        out = {}
        for over in oversamples:
            shares = [len(set(exact(conn, q, k)) & set(rescored(conn, q, k, over))) / k for q in qvecs]
            out[over] = statistics.mean(shares)
        conn.close()
    return out


def run(quick: bool = False, windows: int | None = None) -> list[dict]:
    from rawrag_tui.storage.db import connect

    n = windows or (20_000 if quick else 200_000)
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((n, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    picks = vectors[rng.integers(n, size=15)] + 0.3 * rng.standard_normal((15, 384)).astype(np.float32)
    queries = [q / np.linalg.norm(q) for q in picks]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        conn = connect(Path(tmp) / "dense.db")
        _tables(conn, vectors)
        reference = p50(lambda q: exact(conn, q), queries)
        rows.append({"name": f"dense exact float KNN k={K}, {n:,} windows", "value": reference, "unit": "ms p50"})
        rows.append({"name": f"dense bit KNN k={K} alone, {n:,} windows", "unit": "ms p50",
                     "value": p50(lambda q: conn.cursor().execute(
                         "SELECT rowid FROM vb WHERE embedding MATCH vec_quantize_binary(?) AND k = ?",
                         (q.tobytes(), K)).fetchall(), queries), "reference_value": reference})
        rows.append({"name": f"dense bit KNN k={K} alone, 4,096 per chunk, {n:,} windows", "unit": "ms p50",
                     "value": p50(lambda q: conn.cursor().execute(
                         "SELECT rowid FROM vb4 WHERE embedding MATCH vec_quantize_binary(?) AND k = ?",
                         (q.tobytes(), K)).fetchall(), queries), "reference_value": reference})
        rows.append({"name": f"dense bit KNN k={K} + rescore from the vec0 table, {n:,}", "unit": "ms p50",
                     "value": p50(lambda q: rescored(conn, q, K, 1, "vf"), queries), "reference_value": reference})
        for over in (1, 2, 4, 8):
            rows.append({"name": f"dense bit KNN k={K}x{over} + rescore from a blob table, {n:,}", "unit": "ms p50",
                         "value": p50(lambda q, o=over: rescored(conn, q, K, o), queries),
                         "reference_value": reference})
        conn.close()
    for over, share in locomo_recall().items():
        rows.append({"name": f"LoCoMo: exact top-8 windows kept by bit x{over} + rescore", "value": 100 * share,
                     "unit": "%"})
    for row in rows:
        if row.get("reference_value"):
            row["ratio"] = row["value"] / row["reference_value"]
    return rows


if __name__ == "__main__":
    n = int(sys.argv[sys.argv.index("--windows") + 1]) if "--windows" in sys.argv else None
    for row in run(quick="--quick" in sys.argv, windows=n):
        ratio = f"  (x{row['ratio']:.2f} of exact)" if row.get("ratio") else ""
        print(f"{row['name']:<62} {row['value']:>8.1f} {row['unit']}{ratio}")
