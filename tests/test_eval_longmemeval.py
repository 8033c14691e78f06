"""LongMemEval on a fixture of its shape: haystack import, two coverage levels, abstention."""

from __future__ import annotations

import json

import pytest

from rawrag_tui.errors import UserError
from rawrag_tui.eval import answers, longmemeval, runner
from rawrag_tui.eval.compare import Setting
from rawrag_tui.memory import Memory

from .eval_fixtures import longmemeval_entries, write_longmemeval
from .test_eval_locomo import install_reader_double


@pytest.fixture
def fixture_file(tmp_path):
    return write_longmemeval(tmp_path / "longmemeval-fixture.json")


def test_haystack_becomes_one_conversation_per_session_with_turn_ids(fixture_file, tmp_path):
    single = longmemeval.load(fixture_file)[0]
    q = single.questions[0]
    assert q.gold == {"session": {"answer_v1"}, "turn": {"answer_v1:2"}}
    assert q.date == "2023-06-10" and not q.abstention
    with Memory.open(tmp_path / "h") as mem:
        report = mem.import_path(single.write(tmp_path / "h"), single.fmt, embed=False)
        assert (report.conversations, report.messages_added) == (4, 32)
        conv = {c["external_id"]: c for c in mem.conversations()}
        assert set(conv) == {"s_a", "answer_v1", "s_c", "answer_v2"}
        msgs = mem.messages(conv["answer_v1"]["id"])
        assert [m["external_id"] for m in msgs][:3] == ["answer_v1:0", "answer_v1:1", "answer_v1:2"]
        assert msgs[0]["ts"].startswith("2023-05-08T10:30") and msgs[1]["role"] == "assistant"
        assert msgs[2]["text"] == "I bought a turquoise Vespa scooter yesterday."


def test_abstention_questions_have_no_coverage_and_their_own_group(fixture_file):
    abs_q = longmemeval.load(fixture_file)[2].questions[0]
    assert abs_q.abstention and abs_q.group == "abstention" and abs_q.gold == {}


def test_session_and_turn_coverage_match_the_construction(fixture_file, tmp_path):
    result = runner.run("longmemeval", str(fixture_file), longmemeval.load(fixture_file),
                        [Setting("lexical", 1, 128), Setting("lexical", 2, 128)], primary="session",
                        root=tmp_path / "stores")
    k1, k2 = ({o.question_id: o for o in outcomes} for outcomes in result.outcomes)
    single = k1["q-single"].coverage
    assert single["session"].all and single["turn"].all
    multi = k1["q-multi"].coverage  # two answer sessions, far apart: one window reaches one
    assert (multi["session"].found, multi["session"].all, multi["session"].any) == (1, False, True)
    assert k2["q-multi"].coverage["session"].all and k2["q-multi"].coverage["turn"].all
    assert k1["q-none_abs"].coverage == {}
    overall = result.summaries()[0]["all"]
    assert overall.abstentions == 1
    assert overall.coverage["session"] == {"scored": 2, "unscored": 0, "all": 0.5, "any": 1.0}
    assert list(overall.coverage) == ["session", "turn"]  # the primary level first
    assert result.haystacks == 3  # a store per question


def test_abstention_is_right_when_the_reader_declines(fixture_file, tmp_path, monkeypatch):
    asked: list = []
    install_reader_double(monkeypatch, {"What colour is the Vespa scooter I bought?": "turquoise",
                                        "What is the name of my pet parrot?": "Not in your history."}, asked)
    result = runner.run("longmemeval", str(fixture_file), longmemeval.load(fixture_file),
                        [Setting("lexical", 1, 128)], primary="session", root=tmp_path / "s", reader=True)
    by_id = {o.question_id: o for o in result.outcomes[0]}
    assert by_id["q-none_abs"].score == 1.0
    assert by_id["q-single"].score == 1.0
    assert by_id["q-multi"].score == 0.0  # the double declines: wrong on an answerable question
    s = result.summaries()[0]["all"]
    assert s.abstention_accuracy == 1.0 and s.answer_score == pytest.approx(0.5)
    assert {date for _, date, _ in asked} == {"2023-06-10"}


@pytest.mark.parametrize("text, declines", [
    ("Not in your history.", True),
    ("You never mentioned a parrot, so I don't know.", True),
    ("The information provided does not mention a parrot.", True),
    ("Your parrot is called Kiwi.", False),
    ("It was not until May that you bought it.", False),
])
def test_abstention_phrases(text, declines):
    assert answers.abstains(text) is declines


def test_bad_files_are_one_clear_error(tmp_path):
    entries = longmemeval_entries()
    entries[1]["haystack_dates"] = entries[1]["haystack_dates"][:2]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(entries))
    with pytest.raises(UserError, match=r"bad.json: not a LongMemEval file: \[1\] \(q-multi\): haystack lists differ"):
        longmemeval.load(bad)
    entries = longmemeval_entries()
    entries[0]["haystack_dates"][1] = "May 8th"
    bad.write_text(json.dumps(entries))
    with pytest.raises(UserError, match=r"haystack_dates\[1\]: unreadable date 'May 8th'"):
        longmemeval.load(bad)
    bad.write_text("{not json")
    with pytest.raises(UserError, match="not valid JSON"):
        longmemeval.load(bad)
    with pytest.raises(UserError, match="no such file"):
        longmemeval.load(tmp_path / "missing.json")


class CountingEmbedder:
    """Wraps the real embedder and records what it is asked to embed."""

    def __init__(self, inner):
        self.inner, self.fingerprint, self.dims, self.calls = inner, inner.fingerprint, inner.dims, []

    def embed(self, texts, kind="document"):
        self.calls.append((kind, list(texts)))
        return self.inner.embed(texts, kind=kind)


def test_cached_embedder_asks_the_model_once_per_distinct_text(embedder):
    from rawrag_tui.eval.vector_cache import CachedEmbedder

    counting = CountingEmbedder(embedder)
    cache = CachedEmbedder(counting, max_items=2)
    first = cache.embed(["alpha text", "beta text", "alpha text"])
    assert counting.calls == [("document", ["alpha text", "beta text"])]
    assert (first[0] == first[2]).all() and first.shape == (3, embedder.dims)
    second = cache.embed(["beta text", "gamma text"])
    assert counting.calls[-1] == ("document", ["gamma text"])
    assert (second[0] == first[1]).all()
    assert (second[1] == embedder.embed(["gamma text"])[0]).all()
    assert (cache.hits, cache.misses) == (2, 3)
    cache.embed(["a question?"], kind="query")  # queries pass straight through
    assert counting.calls[-1] == ("query", ["a question?"])
    cache.embed(["alpha text"])  # evicted (max_items=2): embedded again
    assert counting.calls[-1] == ("document", ["alpha text"])


def test_shared_sessions_are_embedded_once_across_question_stores(fixture_file, tmp_path, embedder):
    result = runner.run("longmemeval", str(fixture_file), longmemeval.load(fixture_file),
                        [Setting("hybrid", 1, 128)], primary="session", root=tmp_path / "stores", embedder=embedder)
    per_store = result.windows // 3
    assert result.windows_embedded == per_store and result.windows_reused == 2 * per_store
    assert {o.question_id: o for o in result.outcomes[0]}["q-single"].coverage["session"].all


def test_ids_that_read_alike_as_folders_get_their_own_stores(tmp_path):
    entries = longmemeval_entries()[:2]
    entries[0]["question_id"], entries[1]["question_id"] = "q/1", "q_1"
    path = tmp_path / "alike.json"
    path.write_text(json.dumps(entries))
    root = tmp_path / "stores"
    runner.run("longmemeval", str(path), longmemeval.load(path), [Setting("lexical", 1, 128)],
               primary="session", root=root)
    assert sorted(p.name for p in root.iterdir()) == ["q_1", "q_1-2"]
