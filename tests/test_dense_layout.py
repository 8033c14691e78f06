"""The dense channel's two paths (exact scan, binary KNN + rescore) and the migration to them."""

from __future__ import annotations

import numpy as np

from rawrag_tui.storage.store import Store

from .conftest import write_jsonl

TOPICS = ["sourdough starter and rye flour", "marathon training and knee physio", "moving flat to Leeds",
          "the terrier puppy called Biscuit", "booking the train to Lisbon", "a wedding at the old mill",
          "repotting tomato seedlings", "a new job at the bakery"]


def chat(tmp_path, n=48):
    rows = [{"conversation": f"chat-{i % 3}", "id": f"m{i}",
             "timestamp": f"2025-03-{1 + i // 24:02d}T10:{i % 60:02d}:00Z", "speaker": ("Kim", "Ola")[i % 2],
             "text": f"Message {i}: we talked about {TOPICS[i % len(TOPICS)]}. " * 6}
            for i in range(n)]
    return write_jsonl(tmp_path / "chat.jsonl", rows)


def tables(store: Store, space: int) -> set[str]:
    return {r[0] for r in store.conn.cursor().execute(
        "SELECT name FROM sqlite_master WHERE name IN (?, ?, ?)", (f"vec_{space}", f"vecf_{space}", f"vecb_{space}"))}


def counts(store: Store, space: int) -> tuple[int, int, int]:
    one = lambda sql: next(store.conn.cursor().execute(sql))[0]  # noqa: E731
    return (one(f"SELECT COUNT(*) FROM vectors WHERE space_id = {space}"), one(f"SELECT COUNT(*) FROM vecf_{space}"),
            one(f"SELECT COUNT(*) FROM vecb_{space}"))


def test_quantized_search_agrees_with_the_exact_scan(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path))
    store, space = mem.store, mem.store.space_id(embedder.fingerprint)
    total = counts(store, space)[0]
    assert total > 8 and counts(store, space) == (total, total, total)
    query = embedder.embed(["when is the wedding at the mill"], kind="query")[0]

    exact = store.dense_search(space, query, 5, exact_below=10**9)
    # Oversampled past the whole space, the rescoring pass sees every vector: the same answer.
    assert store.dense_search(space, query, 5, exact_below=0, oversample=total) == exact
    # At oversample 1 the binary KNN picks the candidates; a stored vector is its own nearest neighbour.
    stored = np.frombuffer(next(store.conn.cursor().execute(f"SELECT embedding FROM vecf_{space} LIMIT 1"))[0],
                           dtype=np.float32)
    nearest = store.dense_search(space, stored, 3, exact_below=0)
    assert nearest[0][1] < 1e-5
    assert [d for _, d in nearest] == sorted(d for _, d in nearest)
    # The distances are cosine distances, as the exact scan gives them.
    assert abs(exact[0][1] - (1 - float(np.dot(query, embedder.embed(
        [mem.store.windows_by_id([exact[0][0]])[exact[0][0]]["text"]])[0])))) < 1e-4


def test_a_version_2_store_migrates_its_vectors_without_re_embedding(open_memory, tmp_path, home, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path))
    store, space = mem.store, mem.store.space_id(embedder.fingerprint)
    query = embedder.embed(["a terrier puppy"], kind="query")[0]
    before = store.dense_search(space, query, 6)
    total = counts(store, space)[0]
    # Turn the file back into schema 2's layout: one float vec0 table per space.
    cur = store.conn.cursor()
    with store.transaction():
        cur.execute(f"CREATE VIRTUAL TABLE vec_{space} USING vec0"
                    f" (embedding float[{embedder.dims}] distance_metric=cosine)")
        cur.execute(f"INSERT INTO vec_{space} (rowid, embedding) SELECT id, embedding FROM vecf_{space}")
        cur.execute(f"DROP TABLE vecf_{space}")
        cur.execute(f"DROP TABLE vecb_{space}")
        cur.execute("PRAGMA user_version = 2")
    mem.close()

    seen = []
    migrated = Store.open(home / "rawrag.db", progress=lambda stage, done, total: seen.append((stage, done, total)))
    try:
        assert tables(migrated, space) == {f"vecf_{space}", f"vecb_{space}"}
        assert counts(migrated, space) == (total, total, total)
        assert migrated.pending_count(space) == 0  # nothing to embed again
        assert migrated.dense_search(space, query, 6) == before
        assert migrated.dense_search(space, query, 6, exact_below=0, oversample=total) == before
        assert seen[0] == ("rebuild vector index", 0, total) and seen[-1] == ("rebuild vector index", total, total)
    finally:
        migrated.close()


def test_deleting_a_conversation_removes_its_vectors_from_both_tables(open_memory, tmp_path, embedder):
    mem = open_memory()
    mem.import_path(chat(tmp_path))
    store, space = mem.store, mem.store.space_id(embedder.fingerprint)
    total = counts(store, space)[0]
    mem.delete_conversation(store.conversation_id("jsonl", "chat-0"))
    left = counts(store, space)
    assert left[0] < total and left == (left[0], left[0], left[0])


def test_a_finished_index_is_recorded_and_any_new_window_clears_the_record(open_memory, tmp_path, embedder):
    from rawrag_tui.storage.store import EMBEDDED_KEY

    mem = open_memory()
    mem.import_path(chat(tmp_path))
    store, space = mem.store, mem.store.space_id(embedder.fingerprint)
    assert store.meta_get(f"{EMBEDDED_KEY}{space}") is not None and not store.any_pending(space)
    more = write_jsonl(tmp_path / "more.jsonl", [{"conversation": "later", "id": "x1", "speaker": "Kim",
                                                   "timestamp": "2025-05-01T10:00:00Z", "text": "A brand new topic."}])
    mem.import_path(more, embed=False)
    assert store.meta_get(f"{EMBEDDED_KEY}{space}") is None
    assert store.any_pending(space) and store.pending_count(space) == 1
    result = mem.search("brand new topic")
    assert result.pending_embeddings == 1
    mem.index()
    assert store.meta_get(f"{EMBEDDED_KEY}{space}") is not None and not store.any_pending(space)
    assert mem.search("brand new topic").pending_embeddings == 0
