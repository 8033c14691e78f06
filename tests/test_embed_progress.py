"""Embedding reports progress at least once a second, whatever the commit batch: a batch is
embedded in pieces sized from the measured pace. The pace here is a clock the test moves
(each text costs 0.2 s of it), so the check holds on any machine."""

from __future__ import annotations

import itertools

import numpy as np

from rawrag_tui.demo import demo_path
from rawrag_tui.index.pending import PIECE_S, embed_pending


class ClockedEmbedder:
    """The session's embedder, with a clock that moves ``cost`` seconds per text embedded."""

    def __init__(self, inner, cost: float):
        self.inner, self.fingerprint, self.dims, self.cost = inner, inner.fingerprint, inner.dims, cost
        self.now, self.calls = 0.0, []

    def clock(self) -> float:
        return self.now

    def embed(self, texts, kind="document"):
        self.calls.append(len(texts))
        self.now += self.cost * len(texts)
        return self.inner.embed(texts, kind)


def test_a_slow_embedder_reports_every_half_second_within_one_commit_batch(open_memory, embedder, tmp_path):
    from tests.test_interrupted import big_history

    mem = open_memory()
    mem.import_path(big_history(tmp_path / "big.jsonl", n_conv=8, per_conv=40), "jsonl", embed=False)
    total = mem.status()["pending_embeddings"]
    assert total > 10
    model = ClockedEmbedder(embedder, cost=0.2)
    reports: list[tuple[float, int, int]] = []
    done = embed_pending(mem.store, model, batch=256, clock=model.clock,
                         progress=lambda stage, d, t: reports.append((model.now, d, t)))
    assert done == total and reports[-1][1:] == (total, total)
    times = [t for t, _, _ in reports]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert max(gaps) <= 1.0, gaps  # the floor: at least once a second
    assert max(model.calls) <= PIECE_S / 0.2  # each piece sized to the pace
    assert mem.store.pending_count(mem.store.space_id(embedder.fingerprint)) == 0


def test_pieces_give_the_same_vectors_as_one_call(open_memory, embedder):
    mem = open_memory()
    mem.import_path(demo_path(), "jsonl", embed=False)
    texts = [text for _, text in mem.store.pending_windows(mem.store.ensure_space(embedder.fingerprint,
                                                                                  embedder.dims), 64)]
    from rawrag_tui.index.pending import Pieces

    model = ClockedEmbedder(embedder, cost=0.2)
    counts: list[int] = []
    pieced = Pieces(model, model.clock).embed(texts, counts.append)
    assert sum(counts) == len(texts) and len(counts) > 1
    np.testing.assert_allclose(pieced, embedder.embed(texts, kind="document"), atol=1e-6)
