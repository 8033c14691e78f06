"""The dense channel's in-memory matrix: the exact scan's answer, kept current with the store.

A real store (JSONL import, bundled embedder, real SQLite file): the matrix
path must return the windows the SQL exact scan returns, see windows as soon
as they are imported, never return a deleted one, follow writes made through
another connection, and under a filter return K hits when K windows pass it.
"""

from __future__ import annotations

import numpy as np
import pytest

from rawrag_tui.search.types import Filters
from rawrag_tui.storage.store import Store

from .conftest import write_jsonl

TOPICS = ["sourdough starter and rye flour", "marathon training and knee physio", "moving flat to Leeds",
          "the terrier puppy called Biscuit", "booking the train to Lisbon", "a wedding at the old mill",
          "repotting tomato seedlings", "a new job at the bakery"]
QUERIES = ["when is the wedding at the mill", "how is the knee after running", "what is the dog called",
           "which flour for bread", "train tickets to Portugal"]
ON = 1 << 30  # matrix_bytes: room for any space here
RARE = "Zofia Wiśniewska"


def chat(path, first=0, n=60, rare_every=0):
    rows = [{"conversation": f"chat-{i % 4}", "id": f"m{i}",
             "timestamp": f"2025-03-{1 + i // 24:02d}T10:{i % 60:02d}:00Z",
             "speaker": RARE if rare_every and i % rare_every == 0 else ("Kim", "Ola")[i % 2],
             "text": f"Message {i}: we talked about {TOPICS[i % len(TOPICS)]}. " * 6}
            for i in range(first, first + n)]
    return write_jsonl(path, rows)


def space_of(store: Store, embedder) -> int:
    space = store.space_id(embedder.fingerprint)
    assert space is not None
    return space


def both(store: Store, space: int, query: np.ndarray, n: int, allowed: int | None = None):
    """(matrix answer, SQL exact-scan answer)."""
    matrix = store.dense_search(space, query, n, allowed=allowed, matrix_bytes=ON)
    exact = store.dense_search(space, query, n, exact_below=10**9, allowed=allowed)
    return matrix, exact


def same(matrix, exact) -> None:
    """The same windows in the same order, the same distances (float rounding aside)."""
    assert [w for w, _ in matrix] == [w for w, _ in exact]
    assert np.allclose([d for _, d in matrix], [d for _, d in exact], atol=1e-5)


def test_the_matrix_answers_as_the_exact_scan(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl"))
    store = mem.store
    space = space_of(store, embedder)
    for q in embedder.embed(QUERIES, kind="query"):
        for n in (1, 5, 40, 500):  # 500: more than the store holds
            matrix, exact = both(store, space, q, n)
            assert matrix and len(matrix) == len(exact)
            same(matrix, exact)
    held = store._matrices.current(space, embedder.dims, ON)
    assert held is not None and held.count == store.vector_count(space)
    assert held.nbytes == held.unit.nbytes == len(held._buffer) * embedder.dims * 4  # rows x dims x 4, no spare


def test_windows_sharing_a_text_share_its_vector_and_come_back_together(open_memory, tmp_path, embedder):
    mem = open_memory()
    rows = [{"conversation": f"c{c}", "id": f"{c}-{i}", "timestamp": f"2025-01-0{1 + c}T10:0{i}:00Z",
             "speaker": "Kim", "text": f"the same words about {TOPICS[i]}"} for c in range(3) for i in range(3)]
    mem.import_path(write_jsonl(tmp_path / "dup.jsonl", rows))
    space = space_of(mem.store, embedder)
    q = embedder.embed(["the same words"], kind="query")[0]
    matrix, exact = both(mem.store, space, q, 6)
    same(matrix, exact)


def test_an_import_is_seen_by_the_next_search(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl", n=24))
    store = mem.store
    space = space_of(store, embedder)
    q = embedder.embed(["a wedding at the old mill"], kind="query")[0]
    before, _ = both(store, space, q, 200)
    mem.import_path(chat(tmp_path / "b.jsonl", first=24, n=40))
    after, exact = both(store, space, q, 200)
    same(after, exact)
    assert len(after) > len(before)
    assert store._matrices.current(space, embedder.dims, ON).count == store.vector_count(space)


def test_a_deleted_window_never_comes_back(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl"))
    store = mem.store
    space = space_of(store, embedder)
    q = embedder.embed(["the terrier puppy called Biscuit"], kind="query")[0]
    first, _ = both(store, space, q, 10)
    doomed = store.windows_by_id([first[0][0]])[first[0][0]]["conversation_id"]
    gone = {r[0] for r in store.conn.cursor().execute("SELECT id FROM windows WHERE conversation_id = ?", (doomed,))}
    vectors_before = store.vector_count(space)
    mem.delete_conversation(doomed)
    after, exact = both(store, space, q, 500)
    same(after, exact)
    assert after and not gone & {w for w, _ in after}
    held = store._matrices.current(space, embedder.dims, ON)
    assert held is not None and held.count == store.vector_count(space) < vectors_before


def test_a_window_deleted_before_its_vector_is_collected_is_not_returned(open_memory, tmp_path, embedder):
    """Between the delete and the garbage collection the matrix still holds the vector: SQL says
    which windows it stands for, at every search."""
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl"))
    store = mem.store
    space = space_of(store, embedder)
    q = embedder.embed(["repotting tomato seedlings"], kind="query")[0]
    first = store.dense_search(space, q, 5, matrix_bytes=ON)
    with store.transaction():
        store.delete_conversations([store.windows_by_id([first[0][0]])[first[0][0]]["conversation_id"]])
    after = store.dense_search(space, q, 5, matrix_bytes=ON)
    assert first[0][0] not in {w for w, _ in after}
    same(after, store.dense_search(space, q, 5, exact_below=10**9))


def test_writes_through_another_connection_are_seen(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl"))
    store = mem.store
    space = space_of(store, embedder)
    q = embedder.embed(["booking the train to Lisbon"], kind="query")[0]
    first, _ = both(store, space, q, 5)
    other = Store.open(store.path)
    try:
        victim = first[0][0]
        with other.transaction():
            other.delete_conversations([other.windows_by_id([victim])[victim]["conversation_id"]])
            assert other.collect_garbage() > 0
    finally:
        other.close()
    after, exact = both(store, space, q, 5)
    same(after, exact)
    assert victim not in {w for w, _ in after}
    assert store._matrices.current(space, embedder.dims, ON).count == store.vector_count(space)


def test_rows_of_an_open_write_are_not_kept(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl", n=24))
    store = mem.store
    space = space_of(store, embedder)
    count = store.vector_count(space)
    q = embedder.embed(["a new job at the bakery"], kind="query")[0]
    store.dense_search(space, q, 5, matrix_bytes=ON)
    store.conn.cursor().execute("BEGIN IMMEDIATE")
    store.add_vectors(space, ["not-a-window-hash"], q[None, :])
    assert store._matrices.current(space, embedder.dims, ON) is None  # the SQL paths answer in a write
    same(*both(store, space, q, 5))
    store.conn.cursor().execute("ROLLBACK")
    assert store._matrices.current(space, embedder.dims, ON).count == count
    same(*both(store, space, q, 5))


def test_connections_to_one_file_share_one_matrix(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl", n=24))
    space = space_of(mem.store, embedder)
    other = Store.open(mem.store.path)
    try:
        first = mem.store._matrices.current(space, embedder.dims, ON)
        assert first is not None and other._matrices.current(space, embedder.dims, ON) is first
        mem.import_path(chat(tmp_path / "b.jsonl", first=24, n=24))  # vectors added by the first connection
        grown = other._matrices.current(space, embedder.dims, ON)
        assert grown is not None and grown.count == other.vector_count(space) > 0
        q = embedder.embed(["sourdough starter"], kind="query")[0]
        same(other.dense_search(space, q, 8, matrix_bytes=ON), other.dense_search(space, q, 8, exact_below=10**9))
    finally:
        other.close()


def test_a_space_over_the_memory_cap_takes_the_sql_path(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl", n=24))
    store = mem.store
    space = space_of(store, embedder)
    assert store._matrices.current(space, embedder.dims, embedder.dims * 4) is None
    q = embedder.embed(["marathon training"], kind="query")[0]
    assert store.dense_search(space, q, 5, matrix_bytes=embedder.dims * 4) == \
        store.dense_search(space, q, 5, exact_below=10**9)


@pytest.mark.parametrize("rare_every", [9, 2])  # a narrow filter (its vectors scored alone) and a broad one
def test_a_filtered_search_returns_k_hits_when_k_pass(open_memory, tmp_path, embedder, rare_every):
    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl", n=90, rare_every=rare_every))
    store = mem.store
    space = space_of(store, embedder)
    rare = Filters(speakers=("zofia",))  # first name, no accent: still Zofia Wiśniewska
    for query in QUERIES[:3]:
        result = mem.search(query, mode="dense", limit=6, filters=rare)
        assert len(result.hits) == 6
        assert all(any(m.speaker == RARE for m in h.messages) for h in result.hits)
        allowed = store._scalar("SELECT COUNT(*) FROM temp.allowed_windows")
        assert 6 <= allowed < store.counts()["windows"]
        matrix, exact = both(store, space, embedder.embed([query], kind="query")[0], 6, allowed)
        same(matrix, exact)
        assert [h.window_id for h in result.hits] == [w for w, _ in matrix]


def test_a_large_matrix_multiplied_in_two_halves_gives_the_same_answer(open_memory, tmp_path, embedder, monkeypatch):
    from rawrag_tui.storage import vector_matrix

    mem = open_memory()
    mem.import_path(chat(tmp_path / "a.jsonl"))
    store = mem.store
    space = space_of(store, embedder)
    held = store._matrices.current(space, embedder.dims, ON)
    assert held is not None and held.count > 4
    for q in embedder.embed(QUERIES, kind="query"):
        whole = held.unit @ (q / np.linalg.norm(q)).astype(np.float32)
        monkeypatch.setattr(vector_matrix, "SPLIT_ROWS", 3)
        halves = vector_matrix.product(held.unit, (q / np.linalg.norm(q)).astype(np.float32))
        assert np.allclose(whole, halves, atol=1e-6)  # each row's dot product alone: rounding aside, the same
        matrix, exact = both(store, space, q, 5)
        same(matrix, exact)
        monkeypatch.setattr(vector_matrix, "SPLIT_ROWS", 50_000)
