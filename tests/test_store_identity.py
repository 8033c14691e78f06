"""A store deleted and made anew at the same path is another store, to the in-memory copies too.

The vector matrix and the term scores are kept once per database per process
and checked against counters in the store (vectors removed, window text
written). Two stores of the same shape read the same counters, so the path
alone named the old store's copies for the new one: a search in the new store
was answered with the deleted store's vectors and words. Real stores, the
bundled embedder, one process, as a long-running face (the app, the MCP
server) lives through a memory deleted and imported again.
"""

from __future__ import annotations

import shutil

from rawrag_tui.storage import lexical_index, migrations, vector_matrix

from .conftest import write_jsonl
from .test_vector_matrix import ON, both, same, space_of


def _chat(path, topic: str):
    rows = [{"conversation": "c", "id": f"m{i}", "timestamp": f"2025-03-01T10:{i:02d}:00Z",
             "speaker": ("Kim", "Ola")[i % 2], "text": f"Message {i}: {topic}. " * 6} for i in range(12)]
    return write_jsonl(path, rows)


def test_a_store_made_anew_at_a_deleted_ones_path_is_searched_as_itself(open_memory, home, tmp_path, embedder):
    first = open_memory()
    first.import_path(_chat(tmp_path / "a.jsonl", "sourdough starter and rye flour"))
    space = space_of(first.store, embedder)
    flour = embedder.embed(["which flour for bread"], kind="query")[0]
    same(*both(first.store, space, flour, 5))  # the matrix of the first store is built and held
    assert first.search("sourdough", mode="lexical").hits  # and its term scores
    old_id = first.store.meta_get(migrations.STORE_ID_KEY)
    first.close()
    shutil.rmtree(home)

    second = open_memory()  # the same path, the same shape: 12 messages, the same windows and counters
    second.import_path(_chat(tmp_path / "b.jsonl", "the terrier puppy called Biscuit"))
    assert second.store.meta_get(migrations.STORE_ID_KEY) not in (None, old_id)
    assert second.store.counts()["messages"] == 12
    dog = embedder.embed(["what is the dog called"], kind="query")[0]
    for query in (flour, dog):
        matrix, exact = both(second.store, space_of(second.store, embedder), query, 5)
        same(matrix, exact)
    assert second.store.dense_search(space, dog, 3, matrix_bytes=ON)[0][1] < 0.6  # Biscuit's windows, near
    assert second.search("sourdough", mode="lexical").hits == []
    assert "Biscuit" in second.search("Biscuit", mode="lexical").hits[0].messages[0].text


def test_an_older_store_gets_its_id_when_it_is_upgraded(open_memory, home, tmp_path):
    mem = open_memory()
    mem.import_path(_chat(tmp_path / "a.jsonl", "moving flat to Leeds"), embed=False)
    conn = mem.store.conn
    conn.execute(f"DELETE FROM meta WHERE key = '{migrations.STORE_ID_KEY}'; PRAGMA user_version = 5")
    assert migrations.migrate(conn) == len(migrations.MIGRATIONS)
    made = mem.store.meta_get(migrations.STORE_ID_KEY)
    assert made and len(made) == 32
    assert migrations.migrate(conn) == len(migrations.MIGRATIONS) and mem.store.meta_get(
        migrations.STORE_ID_KEY) == made  # kept, not made again


def _held(identity: str) -> tuple[bool, bool]:
    """Whether this process holds ``identity``'s matrices, and its term scores."""
    return (any(key[0] == identity for key in vector_matrix._SHARED), identity in lexical_index._SHARED)


def test_the_last_store_of_a_file_to_close_takes_its_in_memory_copies_with_it(open_memory, home, tmp_path,
                                                                              embedder):
    # A long-lived process (the app, the MCP server) that opens memories in turn, or deletes
    # one, does not keep their vectors and words after they are closed.
    first = open_memory()
    first.import_path(_chat(tmp_path / "a.jsonl", "sourdough starter and rye flour"))
    flour = embedder.embed(["which flour for bread"], kind="query")[0]
    same(*both(first.store, space_of(first.store, embedder), flour, 5))
    assert first.search("sourdough", mode="lexical").hits
    identity = first.store._identity()
    assert _held(identity) == (True, True)
    second = open_memory()  # the same file again, in the same process: the copies are shared
    assert second.store._identity() == identity
    second.close()
    assert _held(identity) == (True, True)  # the first is still open and still uses them
    first.close()
    assert _held(identity) == (False, False)
    first.close()  # closing twice changes nothing
    assert _held(identity) == (False, False)
