"""The lexical channel's in-memory term scores (storage/lexical_index.py): FTS5's own top N, in its
order and to the last bit of each score, on a real store; kept current with every write."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from rawrag_tui.storage import cjk, lexical_index
from rawrag_tui.storage.store import Store
from rawrag_tui.words import content_words

from .conftest import write_jsonl

ON = 1 << 30  # cache_bytes: room for every term here

TOPICS = ["sourdough starter and rye flour", "marathon training and knee physio", "moving flat to Leeds",
          "the terrier puppy called Biscuit", "booking the train to Lisbon", "a wedding at the old mill",
          "repotting tomato seedlings", "a new job at the bakery", "我们明天去北京看长城", "東京で寿司を食べました"]


def chat(path, first=0, n=120):
    """Windows of different lengths and word counts, so BM25's length and frequency terms matter."""
    rows = [{"conversation": f"chat-{i % 5}", "id": f"m{i}",
             "timestamp": f"2025-03-{1 + i % 28:02d}T10:{i % 60:02d}:00Z",
             "speaker": "Zofia" if i % 23 == 0 else ("Kim", "Ola")[i % 2],
             "text": f"Message {i}: " + " ".join(TOPICS[(i * k) % len(TOPICS)] for k in range(1, 2 + i % 4))}
            for i in range(first, first + n)]
    return write_jsonl(path, rows)


@pytest.fixture
def mem(open_memory, tmp_path):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl"), embed=False)
    return mem


def fts5(store: Store, query: str, n: int, common_share: float = 1.0, allowed: bool = False) -> list[tuple[int, float]]:
    """What FTS5 itself answers for the query lexical_search runs (its terms, in their order)."""
    words = content_words(cjk.query_parts(query)[0])
    terms = store.fts_terms(query, store.common_words(words, common_share) if len(words) > 1 else ())
    match = " OR ".join(t for t, _ in terms)
    join = " CROSS JOIN temp.allowed_windows a ON a.id = windows_fts.rowid" if allowed else ""
    rows = store._rows(f"SELECT windows_fts.rowid, bm25(windows_fts) AS score FROM windows_fts{join}"
                       " WHERE windows_fts MATCH ? ORDER BY score, windows_fts.rowid LIMIT ?", (match, n))
    return [(r[0], -r[1]) for r in rows]


def queries(store: Store) -> list[str]:
    """Single words, pairs and triples of the store's own words, rare and common, plus CJK runs
    (bigram terms), a lone CJK character (a prefix term), repeated and stemmed-alike words."""
    counts = Counter(w for (text,) in store._rows("SELECT text FROM windows")
                     for w in set(re.findall(r"[a-z]{3,}", text.lower())))
    ranked = [w for w, _ in counts.most_common()]
    out = [ranked[i] for i in range(0, len(ranked), 3)]
    out += [f"{ranked[i]} {ranked[-1 - i]}" for i in range(0, len(ranked) // 2, 2)]
    out += [f"{ranked[i]} {ranked[i + 5]} {ranked[-2 - i]}" for i in range(0, len(ranked) // 2 - 5, 3)]
    return out + ["北京 长城", "寿司", "京", "train trains training", "Kim Ola wedding", "zzzunknown", "mill mill"]


def cached(store: Store) -> lexical_index.TermScores:
    held = store._lexical.current(ON)
    assert held is not None
    return held


@pytest.mark.parametrize("n", [1, 3, 10, 200])
def test_the_same_top_n_as_fts5_to_the_last_bit(mem, n):
    store = mem.store
    for q in queries(store):
        assert store.lexical_search(q, n, cache_bytes=ON) == fts5(store, q, n), q
    assert len(cached(store).terms) > 20  # the in-memory path answered, not FTS5


def test_common_words_left_out_as_before(mem):
    store = mem.store
    for q in queries(store):
        got = store.lexical_search(q, 10, common_share=0.5, cache_bytes=ON)
        assert got == fts5(store, q, 10, common_share=0.5), q


def test_a_filtered_search_scores_only_the_allowed_windows(mem):
    store = mem.store
    for where, args in (("m.speaker = ?", ["Zofia"]), ("m.conversation_id = ?", [store.conversations()[0]["id"]])):
        allowed = store.allow_windows(where, args)
        assert 0 < allowed < store.counts()["windows"]
        for q in queries(store):
            got = store.lexical_search(q, 7, allowed=True, cache_bytes=ON)
            assert got == fts5(store, q, 7, allowed=True), q
            kept = {r[0] for r in store._rows("SELECT id FROM temp.allowed_windows")}
            assert {w for w, _ in got} <= kept


def test_windows_added_and_deleted_are_seen_by_the_next_search(mem, tmp_path):
    store = mem.store
    q = "wedding mill bakery"
    before = store.lexical_search(q, 500, cache_bytes=ON)
    mem.import_path(chat(tmp_path / "b.jsonl", first=1000, n=40), embed=False)
    after = store.lexical_search(q, 500, cache_bytes=ON)
    assert after == fts5(store, q, 500) and len(after) > len(before)
    doomed = store.windows_by_id([after[0][0]])[after[0][0]]["conversation_id"]
    mem.delete_conversation(doomed)
    gone = store.lexical_search(q, 500, cache_bytes=ON)
    assert gone == fts5(store, q, 500) and after[0][0] not in {w for w, _ in gone}


def test_a_write_through_another_connection_is_seen(mem):
    store = mem.store
    q = "terrier puppy Biscuit"
    first = store.lexical_search(q, 50, cache_bytes=ON)
    other = Store.open(store.path)
    try:
        assert other._lexical.current(ON) is cached(store)  # one copy per file per process
        with other.transaction():
            other.delete_conversations([store.windows_by_id([first[0][0]])[first[0][0]]["conversation_id"]])
        after = store.lexical_search(q, 50, cache_bytes=ON)
        assert after == fts5(store, q, 50) and first[0][0] not in {w for w, _ in after}
        assert other.lexical_search(q, 50, cache_bytes=ON) == after
    finally:
        other.close()


def test_inside_an_open_write_fts5_answers_and_nothing_is_kept(mem):
    store = mem.store
    word = "zyxwvutsr"
    assert store.lexical_search(word, 5, cache_bytes=ON) == []
    cur = store.conn.cursor()
    cur.execute("BEGIN")
    try:
        store.conn.cursor().execute("INSERT INTO windows_fts (rowid, text) VALUES (?, ?)", (10**6, f"{word} mill"))
        assert store.lexical_search(f"{word} mill", 3, cache_bytes=ON)[0][0] == 10**6
    finally:
        cur.execute("ROLLBACK")
    assert store.lexical_search(f"{word} mill", 3, cache_bytes=ON) == fts5(store, f"{word} mill", 3)
    assert 10**6 not in {w for w, _ in store.lexical_search(f"{word} mill", 500, cache_bytes=ON)}


def test_the_cache_stays_under_its_cap(mem):
    store = mem.store
    cap = 40 * lexical_index.PAIR_BYTES
    held = cached(store)
    held.terms.clear()
    held.nbytes = 0
    for q in queries(store):
        assert store.lexical_search(q, 10, cache_bytes=cap) == fts5(store, q, 10), q
        assert held.nbytes <= cap
        assert held.nbytes == sum(len(ids) for ids, _ in held.terms.values()) * lexical_index.PAIR_BYTES  # int32 ids
    assert held.terms  # the rarer terms are still kept


def test_top_n_breaks_ties_by_window_id():
    ids = np.array([9, 3, 5, 7], dtype=np.int32)
    scores = np.array([1.0, 2.0, 1.0, 1.0])
    assert lexical_index.top_n([(ids, scores)], 3) == [(3, 2.0), (5, 1.0), (7, 1.0)]
    assert lexical_index.top_n([(ids, scores), (ids[:1], np.array([0.5]))], 2) == [(3, 2.0), (9, 1.5)]
    assert lexical_index.top_n([(ids, scores)], 3, np.array([9, 7, 100])) == [(7, 1.0), (9, 1.0)]
    assert lexical_index.top_n([(ids[:0], scores[:0])], 3) == []


def test_search_keeps_term_scores_unless_turned_off(mem):
    import dataclasses

    held = cached(mem.store)
    held.terms.clear()
    cached_hits = mem.search("wedding at the mill", mode="lexical")
    assert '"mill"' in held.terms
    held.terms.clear()
    mem.settings = dataclasses.replace(mem.settings, retrieval=dataclasses.replace(mem.settings.retrieval,
                                                                                   lexical_cache_mb=0))
    assert [h.window_id for h in mem.search("wedding at the mill", mode="lexical").hits] == \
        [h.window_id for h in cached_hits.hits] != []
    assert not held.terms  # FTS5 answered


def test_the_same_filter_is_laid_out_once_until_a_write(mem, tmp_path):
    store = mem.store
    where, args = "m.speaker = ?", ["Zofia"]
    first = store.allow_windows(where, args)
    scratch = store._scratch_changes
    assert store.allow_windows(where, args) == first and store._scratch_changes == scratch  # not laid out again
    assert store.allow_windows("m.speaker = ?", ["Kim"]) != first  # another filter is
    assert store.allow_windows(where, args) == first
    mem.import_path(chat(tmp_path / "b.jsonl", first=1000, n=60), embed=False)
    grown = store.allow_windows(where, args)
    assert grown > first
    assert grown == store._scalar("SELECT COUNT(*) FROM temp.allowed_windows")
    ola = ("m.speaker = ?", ["Ola"])
    cur = store.conn.cursor()
    cur.execute("BEGIN")
    in_write = store.allow_windows(*ola)
    cur.execute("ROLLBACK")  # the temp table's rows roll back too (to the last filter's): laid out again
    assert store.allow_windows(*ola) == in_write == store._scalar("SELECT COUNT(*) FROM temp.allowed_windows")
