"""The lexical channel's pruning (storage/bm25_bound.py): scoring only the windows of a query's
rarer words gives FTS5's own top N, in its order, on a real store."""

import math
import re
from collections import Counter

import pytest

from rawrag_tui.demo import demo_path
from rawrag_tui.storage import bm25_bound
from rawrag_tui.storage.store import Store


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory, embedder):
    from rawrag_tui.memory import Memory

    mem = Memory.open(tmp_path_factory.mktemp("prune") / "home", embedder=embedder)
    mem.import_path(demo_path(), "jsonl")
    yield mem.store
    mem.close()


def fts5_order(store: Store, match: str, n: int) -> list[tuple[int, float]]:
    rows = store._rows("SELECT rowid, bm25(windows_fts) FROM windows_fts WHERE windows_fts MATCH ?"
                       " ORDER BY rank LIMIT ?", (match, n))
    return [(r[0], -r[1]) for r in rows]


def queries(store: Store) -> list[str]:
    """Pairs and triples of the store's own words, from rare to common, so most queries mix both."""
    counts = Counter(w for (text,) in store._rows("SELECT text FROM windows")
                     for w in set(re.findall(r"[a-z]{4,}", text.lower())))
    ranked = [w for w, _ in counts.most_common()]
    common, rare = ranked[:40], ranked[-200:]
    return [f"{rare[i]} {common[i % 40]}" for i in range(0, 200, 5)] + \
        [f"{rare[i]} {rare[i + 1]} {rare[i + 2]} {common[i % 40]} {common[(i + 7) % 40]}" for i in range(0, 190, 3)]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_pruned_search_returns_fts5s_own_top_n(demo_store, n, monkeypatch):
    # The demo's 9 windows are fewer than pruning pays off for: the cost guard is lifted.
    monkeypatch.setattr(Store, "PRUNE_SHARE", 1.0)
    pruned = 0
    for q in queries(demo_store):
        ordered, rows = demo_store._lexical_pruned(demo_store.fts_terms(q), n)
        match = " OR ".join(t for t, _ in ordered)
        assert demo_store.lexical_search(q, n) == fts5_order(demo_store, match, n), q
        pruned += rows is not None
    assert pruned >= 10  # the pruned path really answered many of them


def test_counts_seen_inside_a_write_are_not_kept(demo_store):
    word = "zyxwvutsr"
    assert demo_store._term_docs(word, demo_store._word_counts()) == 0
    cur = demo_store.conn.cursor()
    cur.execute("BEGIN")
    try:
        cur.execute("INSERT INTO windows_fts (rowid, text) VALUES (?, ?)", (10**9, f"{word} {word} maya"))
        assert demo_store._term_docs(word, demo_store._word_counts()) == 1
        assert demo_store.lexical_search(f"{word} maya", 1) == fts5_order(demo_store, f'"{word}" OR "maya"', 1)
    finally:
        cur.execute("ROLLBACK")
    assert demo_store._term_docs(word, demo_store._word_counts()) == 0


def test_the_bound_is_above_any_term_score():
    rows = 1000
    for docs in (1, 10, 400, 600, 999):
        idf = math.log((rows - docs + 0.5) / (docs + 0.5))
        for tf in (1, 5, 1000):
            for length in (0.0, 0.5, 1.0, 30.0):  # the window's length over the average
                score = max(idf, 1e-6) * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length))
                assert score < bm25_bound.term_bound(docs, rows) <= bm25_bound.term_bound(docs, rows + 50)


def test_splits_take_the_rarest_words_first_and_always_score_unknown_ones():
    docs = [500, 5, None]
    assert bm25_bound.order(docs) == [2, 1, 0]
    assert bm25_bound.splits([None, 5, 500], 1000, 3) == [(2, bm25_bound.term_bound(500, 1000))]
    assert [j for j, _ in bm25_bound.splits([5, 50, 500], 1000, 3)] == [1, 2]
    assert bm25_bound.splits([1, 1, 500], 1000, 3) == []  # the rare words' windows cannot hold 3
