"""The lexical channel leaves out the words that match (nearly) everything, and only those."""

from __future__ import annotations

from rawrag_tui.storage.store import Store

from .conftest import write_jsonl


def test_stop_words_are_left_out_unless_nothing_else_remains():
    assert Store.fts_query("When is the wedding at the mill?") == '"wedding" OR "mill"'
    assert Store.fts_query("what is it") == '"what" OR "is" OR "it"'
    assert Store.fts_query("Zoe and the 北京 trip", common={"zoe"}) == '"trip" OR cjk : "北京"'
    assert Store.fts_query("Zoe", common={"zoe"}) == '"zoe"'


def test_a_word_in_most_windows_is_common_and_left_out(open_memory, tmp_path):
    rows = [{"conversation": f"c{i // 4}", "id": f"m{i}", "timestamp": f"2025-04-{1 + i // 8:02d}T09:{i % 60:02d}:00Z",
             "speaker": "Kim", "text": f"Kim here, note {i}. " + ("Bought sourdough flour today. " if i == 9 else
                                                                 "Walked the dogs by the canal. ") * 20}
            for i in range(40)]
    mem = open_memory()
    mem.import_path(write_jsonl(tmp_path / "kim.jsonl", rows))
    store = mem.store
    # "Kim" (the speaker, in every window; stemmed "kim") is common; "sourdough" is in one window only.
    assert store.common_words(["kim", "sourdough", "walked"], 0.5) == {"kim", "walked"}
    assert store.common_words(["kim", "sourdough"], 1.0) == set()
    everything = store.lexical_search("Kim sourdough", 50, common_share=1.0)
    pruned = store.lexical_search("Kim sourdough", 50, common_share=0.5)
    assert len(everything) > len(pruned) >= 1
    assert pruned[0][0] == everything[0][0]  # the window that holds the rare word ranks first either way
    assert {wid for wid, _ in pruned} <= {wid for wid, _ in everything}
    # A query of common words alone still finds them.
    assert len(store.lexical_search("Kim", 50, common_share=0.5)) == len(everything)
