"""answer_question with a scripted reader double: citation mapping, invented
citations, the empty-evidence path, the prompt. The same paths run on the
real GGUF in tests/test_reader_llama.py."""

import pytest

from rawrag_tui.answer.citations import CitationFilter
from rawrag_tui.answer.prompts import NOT_IN_HISTORY, NOTHING_FOUND, build_prompt
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult


class ScriptedReader:
    name = "scripted"

    def __init__(self, pieces, context_tokens=2048):
        self.pieces = pieces
        self.context_tokens = context_tokens
        self.prompts = []

    def count_tokens(self, text):
        return len(text.split())

    def answer(self, prompt, max_tokens=256, on_progress=None):
        self.prompts.append((prompt, max_tokens))
        yield from self.pieces


def msg(mid, seq, text, speaker="Caroline"):
    return EvidenceMessage(mid, f"D1:{seq}", 1, "LoCoMo 26", seq, f"2023-05-0{seq}T10:00:00", speaker, "user", text)


def result(*hits, timings=None):
    return SearchResult("q", "hybrid", list(hits), timings or {"total": 0.25})


def hit(rank, *messages):
    return Hit(rank, 1, "LoCoMo 26", rank, "", messages=list(messages))


RESULT = result(hit(1, msg(1, 1, "I adopted a dog named Max."), msg(2, 2, "Cute!", "Mel")),
                hit(2, msg(3, 3, "Max loves the beach.")))


def test_citations_map_to_evidence_and_stream_matches_answer():
    reader = ScriptedReader(["Caroline", " adopted", " Max [", "1", "] and", " he loves", " the beach [3]."])
    seen = []
    ans = answer_question("Who is Max?", RESULT, lambda: reader, date="2023-06-01", on_token=seen.append)
    assert ans.answer == "Caroline adopted Max [1] and he loves the beach [3]."
    assert "".join(seen) == ans.answer
    assert ans.plain_text() == "Caroline adopted Max and he loves the beach."
    assert [(c.n, c.external_id, c.speaker) for c in ans.citations] == [
        (1, "D1:1", "Caroline"), (3, "D1:3", "Caroline")]
    assert ans.citations[0].text == "I adopted a dog named Max."
    assert ans.dropped_citations == 0 and ans.dropped_windows == 0
    assert set(ans.timings) >= {"search", "pack", "read", "first_token", "load"}
    assert ans.timings["search"] == 0.25
    prompt, _max_tokens = reader.prompts[0]
    # Today's date is the reader's only when the question needs it: else it could only leak into the answer.
    assert "Today is" not in prompt and "June" not in prompt
    assert "1 May 2023:\n[1] Caroline: I adopted a dog named Max." in prompt
    assert "Question: Who is Max?" in prompt
    assert NOT_IN_HISTORY in prompt
    assert ans.evidence_tokens == len(ans.evidence_text.split()) > 0
    js = ans.to_json()
    assert js["citations"][1]["external_id"] == "D1:3" and js["answer"] == ans.answer


def test_todays_date_is_told_only_to_a_question_about_now():
    for question, told in (("How long ago did Caroline adopt Max?", True), ("Who is Max?", False),
                           ("卡罗琳三天前做了什么？", True), ("マックスは何歳ですか？", False)):
        reader = ScriptedReader(["Max"])
        answer_question(question, RESULT, lambda r=reader: r, date="2023-06-01")
        assert ("Today is Thursday, 1 June 2023." in reader.prompts[0][0]) is told, question


def test_invented_citations_are_cut_from_stream_and_counted():
    reader = ScriptedReader(["Max is a dog [", "1, 7", "] [", "42]", ", see [2][9]."])
    seen = []
    ans = answer_question("Who is Max?", RESULT, lambda: reader, on_token=seen.append)
    assert ans.answer == "Max is a dog [1], see [2]."
    assert "42" not in "".join(seen) and "7" not in "".join(seen)
    assert ans.dropped_citations == 3
    assert [c.n for c in ans.citations] == [1, 2]


def test_an_answer_that_is_only_a_citation_becomes_the_message_it_names():
    # Asked to cite, a small reader (the 1.5B behind an OpenAI-compatible server
    # did, docs/answers.md) writes "[3]" and no words: the message is the answer.
    reader = ScriptedReader(["[", "3", "]."])
    seen = []
    ans = answer_question("Where does Max like to go?", RESULT, lambda: reader, on_token=seen.append)
    assert ans.answer == "Max loves the beach."
    assert ans.reader_said == "[3]." and ans.correction == 'the reader answered "[3]." alone: the message it names'
    assert [(c.n, c.external_id) for c in ans.citations] == [(3, "D1:3")]
    assert "".join(seen) == "[3]."  # what streamed is the reader's; the final answer leads where shown
    # Words beside the citation are an answer: kept as they are.
    reader = ScriptedReader(["The beach [3]."])
    assert answer_question("Where does Max like to go?", RESULT, lambda: reader).answer == "The beach [3]."
    # With the checks off the reader's words stand as they are.
    reader = ScriptedReader(["[3]"])
    assert answer_question("Where does Max like to go?", RESULT, lambda: reader, checks=()).answer == "[3]"
    # An invented number alone is cut, and nothing is quoted.
    reader = ScriptedReader(["[9]"])
    ans = answer_question("Where does Max like to go?", RESULT, lambda: reader)
    assert ans.answer == "" and not ans.reader_said and ans.citations == []


def test_brackets_that_are_not_citations_pass_through():
    f = CitationFilter(valid=2)
    out = f.feed("a [photo] of [") + f.feed("x] and [2") + f.feed("] end [") + f.flush()
    assert out == "a [photo] of [x] and [2] end ["
    assert f.cited == [2] and f.dropped == 0


def test_empty_evidence_answers_without_loading_the_reader():
    def must_not_load():
        raise AssertionError("the reader was loaded for an empty result")

    seen = []
    ans = answer_question("Who is Max?", result(), must_not_load, on_token=seen.append)
    assert ans.answer == NOTHING_FOUND and seen == [NOTHING_FOUND]
    assert ans.citations == [] and ans.evidence_tokens == 0
    # hits whose windows expanded to no message are no evidence either
    assert answer_question("q", result(hit(1)), must_not_load).answer == NOTHING_FOUND


def test_abstention_passes_through_with_no_citations():
    reader = ScriptedReader([NOT_IN_HISTORY])
    ans = answer_question("What is Mel's job?", RESULT, lambda: reader)
    assert ans.answer == NOT_IN_HISTORY and ans.citations == []


def test_small_context_drops_windows_and_keeps_prompt_within_budget():
    reader = ScriptedReader(["ok"], context_tokens=0)
    frame = reader.count_tokens(build_prompt("Who is Max?", "", "2023-06-01"))
    reader.context_tokens = frame + 64 + 25  # answer budget 64, room for ~1 window
    ans = answer_question("Who is Max?", RESULT, lambda: reader, date="2023-06-01", answer_tokens=64)
    assert ans.dropped_windows == 1
    prompt, max_tokens = reader.prompts[0]
    assert max_tokens == 64
    assert reader.count_tokens(prompt) + max_tokens <= reader.context_tokens + 1  # "(none)" slack


@pytest.mark.parametrize("bad", ["2023-13-01", "yesterday"])
def test_bad_question_date_is_a_value_error(bad):
    with pytest.raises(ValueError):
        build_prompt("q", "", bad)


def test_empty_real_store_answers_without_any_model(open_memory):
    mem = open_memory()

    def must_not_load():
        raise AssertionError("the reader was loaded for an empty store")

    result = mem.search("Who is Max?")
    assert result.hits == []
    assert answer_question("Who is Max?", result, must_not_load).answer == NOTHING_FOUND


def test_plain_style_asks_for_the_answer_only():
    reader = ScriptedReader(["Max is a golden retriever."])
    ans = answer_question("What breed is Max?", RESULT, lambda: reader, date="2023-06-01", prompt_style="plain")
    prompt = reader.prompts[0][0]
    assert "1 May 2023:\n[1] Caroline: I adopted a dog named Max." in prompt
    assert NOT_IN_HISTORY not in prompt and "cite" not in prompt
    assert prompt.rstrip().endswith("Question: What breed is Max?\nShort answer:")
    assert ans.answer == "Max is a golden retriever."
    # a reader that cannot cite gets the messages sharing its answer's words, marked as matched
    assert ans.citations == []  # no message says "golden retriever": nothing is claimed as a source
    beach = answer_question("Where does Max play?", RESULT, lambda: ScriptedReader(["On the beach."]),
                            prompt_style="plain")
    assert [(c.n, c.external_id, c.how) for c in beach.citations] == [(3, "D1:3", "matched")]
    nothing = answer_question("Where?", RESULT, lambda: ScriptedReader(["Not in your history."]), prompt_style="plain")
    assert nothing.citations == []
    with pytest.raises(ValueError, match="unknown prompt style"):
        build_prompt("q", "", None, style="fancy")


# -- evidence sized to the reader's measured prompt speed -------------------------


def test_timed_budget_fits_the_wait_between_floor_and_ceiling():
    from rawrag_tui.answer.budget import timed_budget
    from rawrag_tui.models.protocols import Warmed

    unknown = Warmed(rate=0.0, cached=0, seconds=0.0)
    assert timed_budget(1024, unknown, 10.0, 256, 40) == 1024  # no measurement: the full budget
    warm = Warmed(rate=50.0, cached=120, seconds=0.0)  # prefix already cached
    assert timed_budget(1024, warm, 10.0, 256, 40) == int(50 * 10 * 0.9) - 40  # 410 tokens
    cold = Warmed(rate=50.0, cached=120, seconds=2.4)  # the prefix was read just now
    assert timed_budget(1024, cold, 10.0, 256, 40) == int(50 * (9.0 - 2.4)) - 40  # 290: the prefix ate time
    assert timed_budget(1024, Warmed(10.0, 120, 0.0), 10.0, 256, 40) == 256  # a slow machine: the floor
    assert timed_budget(1024, Warmed(2000.0, 120, 0.0), 10.0, 256, 40) == 1024  # a GPU: the ceiling
    assert timed_budget(200, Warmed(10.0, 120, 0.0), 10.0, 256, 40) == 200  # a small context beats the floor


class TimedReader(ScriptedReader):
    """Reads prompts at ``rate`` tokens/s (its word count stands in for tokens)."""

    def __init__(self, pieces, rate):
        super().__init__(pieces)
        self.rate = rate
        self.warmed = []

    def warm(self, prefix, room):
        from rawrag_tui.models.protocols import Warmed

        self.warmed.append((prefix, room))
        return Warmed(rate=self.rate, cached=self.count_tokens(prefix), seconds=0.0)


LONG = result(*[hit(r, *[msg(10 * r + i, i, f"Max the dog went to the beach on day {r}-{i} " + "and played " * 20)
                         for i in range(1, 4)]) for r in range(1, 8)])


@pytest.mark.parametrize("rate, capped", [(30.0, True), (10_000.0, False)])
def test_a_slow_reader_gets_less_evidence_a_fast_one_the_full_budget(rate, capped):
    from rawrag_tui.answer.prompts import fixed_prefix

    reader = TimedReader(["the beach"], rate)
    ans = answer_question("Where did Max go?", LONG, lambda: reader, prompt_style="plain", evidence_tokens=600,
                          first_token_seconds=10.0, min_evidence_tokens=100)
    prefix, room = reader.warmed[0]
    assert prefix == fixed_prefix("plain") and reader.prompts[0][0].startswith(prefix)  # read ahead, then extended
    assert room >= 600 + reader.prompts[0][1]  # the context is allocated for the full budget and the answer
    assert ans.prompt_rate == rate
    if capped:
        assert 100 <= ans.evidence_budget < 300 and ans.evidence_tokens <= ans.evidence_budget
    else:
        assert ans.evidence_budget == 600 and ans.evidence_tokens > 300
    assert "warm" in ans.timings and 0 < ans.timings["first_token"] <= ans.timings["read"]


def test_no_wait_target_means_the_full_budget_and_no_warm_read():
    reader = TimedReader(["the beach"], 30.0)
    ans = answer_question("Where did Max go?", LONG, lambda: reader, prompt_style="plain", evidence_tokens=600)
    assert reader.warmed == [] and ans.evidence_budget == 600 and ans.prompt_rate == 0.0
