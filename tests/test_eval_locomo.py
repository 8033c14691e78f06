"""LoCoMo through the real search path on a hand-made file with known coverage."""

from __future__ import annotations

import json

import pytest

from rawrag_tui.answer.types import Answer
from rawrag_tui.errors import ModelError, ReaderCrashed, UserError
from rawrag_tui.eval import answers, locomo, runner
from rawrag_tui.eval.compare import Setting
from rawrag_tui.memory import Memory

from .eval_fixtures import locomo_samples, write_locomo


@pytest.fixture
def fixture_file(tmp_path):
    return write_locomo(tmp_path / "locomo-fixture.json")


def test_questions_keep_categories_1_to_4_with_parsed_evidence(fixture_file):
    first, second = locomo.load(fixture_file)
    assert [q.id for q in first.questions] == ["fx-1#0", "fx-1#1", "fx-1#2", "fx-1#3"]  # category 5 left out
    assert [q.group for q in first.questions] == ["4 single-hop", "1 multi-hop", "2 temporal", "3 open-domain"]
    assert first.questions[1].gold == {"evidence": {"D1:2", "D3:5"}}  # from 'D1:2; D3:5'
    assert first.questions[3].gold == {"evidence": frozenset()}
    assert first.questions[0].date == "2023-06-02"  # last session with turns, not the empty session_4
    assert [q.id for q in second.questions] == ["fx-2#0"]
    assert locomo.notes([first, second]) == [
        "1 question(s) have no parseable evidence id and are left out of coverage: fx-1#3"]


def test_gold_ids_are_normalised_and_dangling_ones_reported(tmp_path):
    samples = locomo_samples()
    samples[0]["qa"][0]["evidence"] = ["D01:02"]  # leading zeros: the turn D1:2
    samples[0]["qa"][2]["evidence"] = ["D3:5", "D9:99"]  # D9:99 is no turn of this sample
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(samples))
    first = locomo.load(path)[0]
    assert first.questions[0].gold == {"evidence": {"D1:2"}}
    assert locomo.notes([first])[1] == ("1 gold evidence id(s) name no message of their sample, so those "
                                        "questions can never be fully covered: fx-1#2 D9:99")


def test_limit_questions_counts_across_samples(fixture_file):
    chosen = runner.limit_questions(locomo.load(fixture_file), 3)
    assert [q.id for h in chosen for q in h.questions] == ["fx-1#0", "fx-1#1", "fx-1#2"]
    assert len(runner.limit_questions(locomo.load(fixture_file), 5)) == 2


def test_lexical_coverage_matches_the_construction(fixture_file, tmp_path):
    root = tmp_path / "stores"
    result = runner.run("locomo", str(fixture_file), locomo.load(fixture_file),
                        [Setting("lexical", 1, 128), Setting("lexical", 2, 128)], primary="evidence", root=root)
    k1, k2 = ({o.question_id: o for o in outcomes} for outcomes in result.outcomes)
    assert k1["fx-1#0"].coverage["evidence"].all  # the ferret window is the top hit
    multi = k1["fx-1#1"].coverage["evidence"]
    assert (multi.needed, multi.found, multi.all, multi.any) == (2, 1, False, True)  # facts in two windows
    assert k2["fx-1#1"].coverage["evidence"].all  # two windows reach both
    assert not k1["fx-1#3"].coverage["evidence"].scored
    assert k1["fx-2#0"].coverage["evidence"].all
    # K=2 brings the second window the two-fact question needs: more evidence. (A window
    # matching only a word found in most windows scores zero BM25 and is not recalled at
    # all, so a one-window question can stay at one window: store.common_words.)
    assert k1["fx-1#1"].evidence_tokens < k2["fx-1#1"].evidence_tokens

    overall = result.summaries()[0]["all"].coverage["evidence"]
    assert (overall["scored"], overall["unscored"], overall["all"], overall["any"]) == (4, 1, 0.75, 1.0)
    assert result.notes == ["lexical only: nothing was embedded"] and result.embed_s == 0
    # One store per sample, each holding only its own conversation.
    for name in ("fx-1", "fx-2"):
        with Memory.open(root / name) as mem:
            assert [c["external_id"] for c in mem.conversations()] == [name]


def test_evidence_ids_match_only_within_the_sample(fixture_file, open_memory):
    """Both samples have a D1:2; a hit on fx-2's must not cover fx-1's question."""
    mem = open_memory()
    mem.import_path(fixture_file, "locomo", embed=False)
    found = mem.search("emerald kitchen painted", mode="lexical", limit=1).evidence()
    assert "D1:2" in {m.external_id for m in found}
    fx1, fx2 = locomo.load(fixture_file)
    assert fx1.retrieved(mem, found)["evidence"] == set()
    assert "D1:2" in fx2.retrieved(mem, found)["evidence"]


def test_dense_and_hybrid_run_on_the_real_embedder_and_reuse_the_store(fixture_file, tmp_path, embedder):
    root = tmp_path / "stores"
    haystacks = locomo.load(fixture_file)
    settings = [Setting("dense", 1, 128), Setting("hybrid", 1, 128)]
    first = runner.run("locomo", str(fixture_file), haystacks, settings, primary="evidence", root=root,
                       embedder=embedder)
    assert first.windows == 9 and first.embed_s > 0
    dense = {o.question_id: o for o in first.outcomes[0]}
    assert dense["fx-1#0"].coverage["evidence"].all
    assert dense["fx-2#0"].coverage["evidence"].all
    again = runner.run("locomo", str(fixture_file), haystacks, settings, primary="evidence", root=root,
                       embedder=embedder)
    assert [[o.coverage for o in s] for s in again.outcomes] == [[o.coverage for o in s] for s in first.outcomes]
    with Memory.open(root / "fx-1") as mem:
        assert len(mem.sources()) == 1 and mem.status()["pending_embeddings"] == 0


def test_reader_missing_is_one_clear_error_before_any_import(fixture_file, tmp_path, monkeypatch):
    """Without llama-cpp-python the run stops at once with the reader's one-line
    ModelError (a UserError), before a single history is imported."""
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "llama_cpp" else real_find_spec(name, *a))
    root = tmp_path / "s"
    with pytest.raises(ModelError, match="llama-cpp-python, which is not installed") as exc:
        runner.run("locomo", str(fixture_file), locomo.load(fixture_file), [Setting("lexical", 1, 128)],
                   primary="evidence", root=root, reader=True)
    assert isinstance(exc.value, UserError) and "\n" not in str(exc.value)
    assert not root.exists() or not any(root.iterdir())
    assert answers.load_scorer()("Pickles", "Pickles", 4) == pytest.approx(1.0)


#: The double's reading times, seconds.
READ_S, FIRST_TOKEN_S = 0.25, 0.1


def install_reader_double(monkeypatch, replies: dict[str, str | Exception], asked: list, marker: str = " [2]"):
    """A stand-in for the reader behind ``Memory.ask``: it returns a real
    ``Answer`` whose text is the reply with a citation ``marker`` before its
    last character (as a reader that cites writes it); an exception as the
    reply is raised instead (a crash). Declining replies carry no marker."""

    def ask(self, question, *, date=None, result=None, **_):
        asked.append((question, date, self.settings.retrieval.top_k))
        assert result is not None and result.query == question  # the search coverage was measured on
        reply = replies.get(question, "Not in your history.")
        if isinstance(reply, Exception):
            raise reply
        text = reply if answers.abstains(reply) else f"{reply}{marker}."
        return Answer(question, text, timings={"search": 0.0, "pack": 0.0, "read": READ_S,
                                               "first_token": FIRST_TOKEN_S})

    monkeypatch.setattr(Memory, "ask", ask)
    monkeypatch.setattr(answers, "require_reader", lambda: None)  # the double needs no llama-cpp-python


def test_reader_scores_and_utilisation(fixture_file, tmp_path, monkeypatch):
    asked: list = []
    samples = locomo_samples()
    replies = {qa["question"]: qa["answer"] for qa in samples[0]["qa"][:3]}  # right on fx-1#0..2
    replies["What colour did Carol paint the kitchen?"] = "blue walls"  # wrong on fx-2#0
    install_reader_double(monkeypatch, replies, asked)
    result = runner.run("locomo", str(fixture_file), locomo.load(fixture_file), [Setting("lexical", 1, 128)],
                        primary="evidence", root=tmp_path / "s", reader=True)
    by_id = {o.question_id: o for o in result.outcomes[0]}
    assert by_id["fx-1#0"].score == 1.0 and by_id["fx-2#0"].score == 0.0
    assert by_id["fx-1#0"].answer == "Pickles."  # the plain text: no [2]
    assert (by_id["fx-1#0"].read_s, by_id["fx-1#0"].first_token_s) == (READ_S, FIRST_TOKEN_S)
    s = result.summaries()[0]["all"]
    # Covered at k=1: fx-1#0 (right), fx-1#2 (right), fx-2#0 (wrong); fx-1#1 only touched.
    assert s.utilisation == pytest.approx(2 / 3)
    assert ("What is the name of the ferret Alice adopted?", "2023-06-02", 1) in asked


def test_answers_are_scored_without_their_citation_markers(fixture_file, tmp_path, monkeypatch):
    """"Pickles [2]." must score 1.0: scored with its marker, "2" is a wrong token (F1 2/3)."""
    samples = locomo_samples()
    replies = {qa["question"]: qa["answer"] for qa in samples[0]["qa"][:3]}
    install_reader_double(monkeypatch, replies, [], marker=" [2]")
    result = runner.run("locomo", str(fixture_file), locomo.load(fixture_file), [Setting("lexical", 1, 128)],
                        primary="evidence", root=tmp_path / "s", reader=True)
    by_id = {o.question_id: o for o in result.outcomes[0]}
    for qid in ("fx-1#0", "fx-1#1", "fx-1#2"):  # categories 4, 1 (comma parts) and 2
        assert by_id[qid].score == pytest.approx(1.0), (qid, by_id[qid].answer)
        assert "[" not in by_id[qid].answer
    assert answers.load_scorer()("Pickles [2].", "Pickles", 4) < 1.0  # what scoring the marker would give


def test_a_reader_crash_is_scored_0_counted_and_left_out_of_timings(fixture_file, tmp_path, monkeypatch):
    samples = locomo_samples()
    replies: dict = {qa["question"]: qa["answer"] for qa in samples[0]["qa"][:3]}
    replies["When did Marguerite move to Lisbon?"] = ReaderCrashed("the reader was killed (SIGKILL)")
    install_reader_double(monkeypatch, replies, [])
    result = runner.run("locomo", str(fixture_file), locomo.load(fixture_file), [Setting("lexical", 1, 128)],
                        primary="evidence", root=tmp_path / "s", reader=True)
    crashed = {o.question_id: o for o in result.outcomes[0]}["fx-1#2"]
    assert crashed.error == "the reader was killed (SIGKILL)" and crashed.score == 0.0
    assert crashed.read_s is None and crashed.first_token_s is None
    summary = result.summaries()[0]
    assert summary["all"].reader_crashes == 1 and summary["2 temporal"].reader_crashes == 1
    assert summary["4 single-hop"].reader_crashes == 0
    assert summary["all"].read_s_mean == READ_S and summary["all"].first_token_s_mean == FIRST_TOKEN_S
    read = [o for o in result.outcomes[0] if o.error is None]
    assert summary["all"].question_s_mean == pytest.approx(sum(o.search_s + READ_S for o in read) / len(read))
    assert any("crashed on 1 question" in n for n in result.notes)
