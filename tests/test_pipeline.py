"""Search on real data: modes, fusion, the rerank slot, expansion."""

import pytest

from rawrag_tui.demo import demo_path
from rawrag_tui.errors import UserError
from rawrag_tui.search.pipeline import rrf


@pytest.fixture(scope="module")
def demo_memory(tmp_path_factory, embedder):
    """One imported demo store for the read-only tests of this module."""
    from rawrag_tui.memory import Memory

    mem = Memory.open(tmp_path_factory.mktemp("demo") / "home", embedder=embedder)
    mem.import_path(demo_path(), "jsonl")
    yield mem
    mem.close()


def test_rrf_is_the_sum_of_reciprocal_ranks():
    fused = rrf({"dense": [(1, 0.9), (2, 0.8)], "lexical": [(2, 5.0), (3, 4.0)]}, k=60)
    assert [c.window_id for c in fused] == [2, 1, 3]
    assert fused[0].scores["fused"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused[0].ranks == {"dense": 2, "lexical": 1}


@pytest.mark.parametrize("mode", ["dense", "lexical", "hybrid"])
def test_each_mode_finds_the_dog(demo_memory, mode):
    result = demo_memory.search("What is the name of Jordan's dog?", mode=mode, limit=3)
    assert result.mode == mode and 1 <= len(result.hits) <= 3
    texts = [m.text for m in result.evidence()]
    assert any("Her name is Biscuit" in t for t in texts)
    hit = result.hits[0]
    assert hit.rank == 1 and ("dense" in hit.scores or "lexical" in hit.scores) and "fused" in hit.scores


def test_expansion_gives_whole_messages_in_order_with_export_ids(demo_memory):
    result = demo_memory.search("wedding at the old mill", limit=15)
    for hit in result.hits:
        seqs = [m.seq for m in hit.messages]
        assert seqs == sorted(seqs) and seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        for m in hit.messages:
            assert m.conversation == hit.conversation
            assert m.external_id.startswith(("family", "dm-", "climbing", "assistant"))
    evidence = result.evidence()
    assert len({m.message_id for m in evidence}) == len(evidence)
    moved = next(m for m in evidence if "old mill" in m.text)
    assert moved.timestamp == "2026-06-07T09:12:00Z" and moved.speaker == "Maya" and moved.external_id == "family-041"


class ReverseAlphabetReranker:
    """Test double for the rerank slot: an order no channel would produce."""

    name = "reverse-alpha"

    def __init__(self):
        self.calls = 0

    def score(self, query, docs):
        self.calls += 1
        return [-ord(d[40]) if len(d) > 40 else 0.0 for d in docs]


def test_rerank_slot_reorders_candidates(demo_memory):
    reranker = ReverseAlphabetReranker()
    from rawrag_tui.memory import Memory

    plain = demo_memory
    base = plain.search("climbing trip", limit=5)
    mem = Memory(plain.settings, plain.store, plain.embedder, reranker)
    reranked = mem.search("climbing trip", limit=5)
    assert reranker.calls == 1
    assert all("rerank" in h.scores for h in reranked.hits)
    scores = [h.scores["rerank"] for h in reranked.hits]
    assert scores == sorted(scores, reverse=True)
    assert "rerank" not in base.hits[0].scores


def test_limits_and_bad_modes(demo_memory):
    assert len(demo_memory.search("Lisbon", limit=2).hits) == 2
    assert demo_memory.search("zzqx nothing matches", mode="lexical").hits == []
    with pytest.raises(UserError, match="unknown search mode"):
        demo_memory.search("x", mode="fuzzy")
    with pytest.raises(UserError, match="empty query"):
        demo_memory.search("   ")


def test_search_notes_windows_not_yet_embedded(open_memory, tmp_path):
    mem = open_memory()
    mem.import_path(demo_path(), "jsonl", embed=False)
    result = mem.search("Biscuit", mode="hybrid")
    assert any("lexical channel alone" in n for n in result.notes) and result.lexical_only
    assert result.hits  # the lexical channel still answers
