"""Reading again without the value the newest line naming it says ended
(answer/ended_reading.py): "I've switched to Brighton ... Chelsea broke my
heart", asked which team Daniel supports. The step's rules with a scripted
reader double; the bundled reader on a real store at the end."""

from __future__ import annotations

import pytest

from rawrag_tui.answer import ended_reading
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.settings import ANSWER_CHECKS
from tests.conftest import needs_bundled_reader, write_chat
from tests.test_later_reading import Answers, ListHistory, msg, read_by, result

DANIEL = [
    msg(1, "You'll smash it. Gotta run, Chelsea kick off in ten and I've got my lucky scarf on.",
        "2025-03-02T18:00:00", "Daniel"),
    msg(2, "Good luck to them!", "2025-03-02T18:01:00", "Priya"),
    msg(3, "Also, don't tell Uncle Vik, but I've switched to Brighton. Got a season ticket at the Amex. "
           "Chelsea broke my heart one too many times.", "2025-09-14T20:00:00", "Daniel"),
    msg(4, "Your dad will disown you.", "2025-09-14T20:02:00", "Priya"),
]
QUESTION = "Which football team does Daniel support?"


def test_the_source_is_the_newest_line_naming_the_answer_where_it_says_that_ended():
    views = EvidenceViews()
    assert ended_reading.ended_source(QUESTION, "Chelsea", DANIEL, views) == (3, [1])
    # The newest line naming it says nothing ended: the answer may well stand.
    kept = [*DANIEL[:2], msg(3, "Chelsea broke my heart again, 0-3 at home.", "2025-09-14T20:00:00", "Daniel")]
    assert ended_reading.ended_source(QUESTION, "Chelsea", kept, views) is None
    # Only the line that ends it names it: that is the state it introduces, not an old one.
    assert ended_reading.ended_source(QUESTION, "Brighton", DANIEL, views) is None
    # Named earlier only on the same day: no earlier statement it could end.
    same_day = [msg(1, DANIEL[0].text, "2025-09-14T08:00:00", "Daniel"), *DANIEL[2:]]
    assert ended_reading.ended_source(QUESTION, "Chelsea", same_day, views) is None
    # Named earlier only in a chat with other people: not the state this line ends.
    elsewhere = [msg(1, DANIEL[0].text, "2025-03-02T18:00:00", "Daniel", conv=2), *DANIEL[2:]]
    assert ended_reading.ended_source(QUESTION, "Chelsea", elsewhere, views) is None


@pytest.mark.parametrize(("text", "answer", "hidden"), [
    ("I've switched to Brighton. Chelsea broke my heart.", "Chelsea", "I've switched to Brighton. … broke my heart."),
    ("Left Aer Lingus in January, now at Corrib Labs.", "aer lingus.", "Left … in January, now at Corrib Labs."),
    ("Ich hab bei Siemens gekündigt. Ab Mai bin ich bei Klimawerk.", "bei Siemens",
     "Ich hab … gekündigt. Ab Mai bin ich bei Klimawerk."),
    ("任天堂辞めてソニーに転職した", "任天堂", "…辞めてソニーに転職した"),
    ("Chelsea's owners sold the club.", "Chelsea FC", "…'s owners sold the club."),
    ("I've switched to Brighton.", "Chelsea", None),
])
def test_the_answers_words_are_hidden(text, answer, hidden):
    assert ended_reading.hide(text, answer) == hidden


@pytest.mark.parametrize(("body", "read"), [
    # The sentence saying the ending, with its neighbours: the rest of the line is other news.
    ("I've signed up for the Bergen City Marathon in April instead of doing the … again. The full 42 km. "
     "Eskil thinks I've lost my mind.",
     "I've signed up for the Bergen City Marathon in April instead of doing the … again. The full 42 km."),
    ("Bei mir auch was: Ich hab bei … gekündigt. Ab Mai bin ich bei Klimawerk. Die Kantine ist super. "
     "Und du?", "Bei mir auch was: Ich hab bei … gekündigt. Ab Mai bin ich bei Klimawerk."),
    # The ending said in another sentence than the answer's, or no sentence of it says one: all of it.
    ("I've switched to Brighton. Got a season ticket. … broke my heart one too many times.",
     "I've switched to Brighton. Got a season ticket. … broke my heart one too many times."),
    ("Ha. … is a menace. He knocked my coffee over. Twice!", "Ha. … is a menace. He knocked my coffee over. Twice!"),
    ("今天是我在字节跳动的第一天。我从…辞职了。下周见！你呢？", "今天是我在字节跳动的第一天。 我从…辞职了。 下周见！"),
])
def test_the_sentence_saying_the_ending_is_read_with_its_neighbours(body, read):
    assert ended_reading.around_ending(body, "Which race is Solveig training for now?") == read


def test_the_line_is_read_again_alone_with_the_answer_hidden():
    reader = Answers("Brighton")
    found = ended_reading.read_ended(QUESTION, "Chelsea", DANIEL, EvidenceViews(), read_by(reader))
    assert found == ended_reading.EndedReading("Brighton", 3, [1])
    assert "switched to Brighton" in reader.prompts[0] and "Chelsea" not in reader.prompts[0]
    assert "… broke my heart" in reader.prompts[0] and "lucky scarf" not in reader.prompts[0]


@pytest.mark.parametrize("second", [
    "Chelsea FC",             # the first answer again, in other words
    "Manchester United",      # a team the line does not say: the reader filled the gap
    "…",                      # the hidden mark read back
    "Not in your history.",
    "Daniel",                 # only a person of the chat
    "Daniel supports a football team.",  # the question said back
])
def test_a_second_answer_stands_only_where_the_line_says_something_new(second):
    assert ended_reading.read_ended(QUESTION, "Chelsea", DANIEL, EvidenceViews(), read_by(Answers(second))) is None


@pytest.mark.parametrize("question", [
    "When does Daniel watch Chelsea?",          # a "when" question: the checks own dates
    "Does Daniel still support Chelsea?",       # yes-or-no: answer/yes_no_reading.py
])
def test_when_and_yes_or_no_questions_are_left_to_their_own_steps(question):
    reader = Answers("Brighton")
    assert ended_reading.read_ended(question, "Chelsea", DANIEL, EvidenceViews(), read_by(reader)) is None
    assert not reader.prompts


def test_german_and_japanese_lines_end_a_state_in_their_own_words():
    jonas = [msg(1, "Bei Siemens läuft alles gut, viel Arbeit.", "2025-01-10T09:00:00", "Jonas"),
             msg(2, "Ich hab bei Siemens gekündigt. Ab Mai bin ich bei Klimawerk.", "2025-04-03T09:00:00", "Jonas")]
    found = ended_reading.read_ended("Bei welcher Firma arbeitet Jonas?", "Siemens", jonas, EvidenceViews(),
                                     read_by(Answers("Klimawerk")))
    assert found is not None and found.text == "Klimawerk" and found.message == 2
    kenta = [msg(1, "任天堂の仕事は忙しいけど楽しい", "2025-01-10T09:00:00", "健太"),
             msg(2, "任天堂辞めてソニーに転職した", "2025-06-01T09:00:00", "健太")]
    found = ended_reading.read_ended("健太は今どの会社で働いていますか？", "任天堂", kenta, EvidenceViews(),
                                     read_by(Answers("ソニー")))
    assert found is not None and found.text == "ソニー" and found.message == 2


def test_a_line_saying_the_new_state_holds_now_ends_the_old_one():
    # Second English set: "What is Caspar's cat called now?" was answered "Fennel", named in the line that renames her.
    caspar = [msg(1, "Fennel knocked my coffee into my laptop bag. Twice this week.", "2025-04-06T10:00:00", "Caspar"),
              msg(2, "How's my favourite cat?", "2025-11-16T10:00:00", "Solveig"),
              msg(3, "About that. My niece stayed for a week and decided Fennel was 'a boring name for a "
                     "vegetable'. She's Brioche now, and she actually comes when called.",
                  "2025-11-16T10:01:00", "Caspar")]
    reader = Answers("Brioche")
    found = ended_reading.read_ended("What is Caspar's cat called now?", "Fennel", caspar, EvidenceViews(),
                                     read_by(reader))
    assert found is not None and (found.text, found.message, found.earlier) == ("Brioche", 3, [1])
    assert "Fennel" not in reader.prompts[0] and "She's Brioche now" in reader.prompts[0]


def test_an_answer_that_came_in_as_a_new_state_is_not_ended_by_a_line_ending_something_else():
    # Second English set: "Where does Rohan work now?" was answered "Tidewell Energy", the job he said he moved to;
    # the newest line naming it says he switched drinks, not jobs.
    rohan = [msg(1, "Nope, left at the start of July. I'm a data analyst at Tidewell Energy now.",
                 "2025-07-27T10:00:00", "Rohan"),
             msg(2, "Confession time: I've switched from flat whites to matcha. Tidewell has a little matcha bar.",
                 "2025-11-30T10:00:00", "Rohan")]
    question = "Where does Rohan work now?"
    assert ended_reading.ended_source(question, "Tidewell Energy", rohan, EvidenceViews()) is None
    # Where the sentence naming it says the ending, it did end.
    left = [rohan[0], msg(2, "I've left Tidewell Energy for a start-up.", "2025-11-30T10:00:00", "Rohan")]
    assert ended_reading.ended_source(question, "Tidewell Energy", left, EvidenceViews()) == (2, [1])


# Chinese set: "Which city does 李娜 live in now?" was answered "成都"; the line that gives up the Chengdu flat
# does not say where she goes, the offer two lines before it does.
LINA = [
    msg(1, "我在成都住了六年还是不习惯", "2025-01-05T19:00:00", "李娜"),
    msg(2, "告诉你个事，我拿到杭州一家公司的offer了！", "2025-04-26T19:40:00", "李娜"),
    msg(3, "哇！真的要走啦？", "2025-04-26T19:41:00", "陈浩"),
    msg(4, "嗯，下个月底就过去。成都的房子我已经退了", "2025-04-26T19:42:00", "李娜"),
]
LINA_Q = "李娜现在住在哪个城市？"


def before_in(messages):
    def before(line, n):
        return [m for m in messages if m.conversation_id == line.conversation_id and m.seq < line.seq][-n:]
    return before


def test_where_the_ending_line_says_no_new_state_the_lines_just_before_it_are_read_with_it():
    reader = Answers("北京", "杭州")
    evidence = [LINA[0], LINA[3]]  # the evidence held the old city and the line that ends it
    found = ended_reading.read_ended(LINA_Q, "成都", evidence, EvidenceViews(), read_by(reader),
                                     before=before_in(LINA))
    assert found is not None and found.text == "杭州" and found.said_by == LINA[1] and found.before == 2
    assert found.message == 2 and found.earlier == [1]
    assert "offer" in reader.prompts[1] and "真的要走啦" in reader.prompts[1] and "成都" not in reader.prompts[1]
    assert ended_reading.explain("成都", found, 3) == (
        'the reader said "成都", named in [1]; [2], the latest message naming it, says that ended: read again '
        "without it, with the 2 messages just before it, it answered from [3]")


@pytest.mark.parametrize(("lines", "second"), [
    (LINA, "上海"),                                     # no line before it says it
    (LINA, "成都"),                                     # the first answer again
    ([LINA[0], msg(2, "杭州的房子好贵", "2025-04-26T19:40:00", "陈浩"), *LINA[2:]], "杭州"),  # someone else's line
    ([LINA[0], msg(2, "我拿到杭州一家公司的offer了！", "2025-04-20T19:40:00", "李娜"), *LINA[2:]],
     "杭州"),                                           # another day
])
def test_a_line_before_the_ending_one_answers_only_where_the_same_person_said_it_that_day(lines, second):
    reader = Answers("北京", second)
    assert ended_reading.read_ended(LINA_Q, "成都", [lines[0], lines[3]], EvidenceViews(), read_by(reader),
                                    before=before_in(lines)) is None


def test_a_line_before_the_ending_one_is_cited_after_the_evidence(embedder):
    reader = Answers("成都", "北京", "杭州")
    evidence = [LINA[0], LINA[3]]
    ans = answer_question(LINA_Q, result(*evidence), lambda: reader, date="2025-08-20", prompt_style="plain",
                          checks=(ended_reading.NAME,), history=ListHistory(embedder, LINA))
    assert ans.answer == "杭州" and ans.reader_said == "成都", ans.correction
    assert [(c.external_id, c.how) for c in ans.citations] == [("m2", "matched")]
    assert ans.correction.endswith("with the 2 messages just before it, it answered from [3]")


def test_the_answer_is_the_second_reading_with_the_first_in_the_note(embedder):
    reader = Answers("Chelsea", "Brighton")
    ans = answer_question(QUESTION, result(*DANIEL), lambda: reader, date="2026-01-01",
                          prompt_style="plain", history=ListHistory(embedder, DANIEL))
    assert ans.answer == "Brighton" and ans.reader_said == "Chelsea"
    assert ans.correction == ('the reader said "Chelsea", named in [1]; [3], the latest message naming it, '
                              "says that ended: read again without it, it answered from [3]")
    assert [(c.n, c.how) for c in ans.citations] == [(3, "matched")]
    # On its own, without the later reading before it: the hidden line is the only second read.
    alone = Answers("Chelsea", "Brighton")
    only = answer_question(QUESTION, result(*DANIEL), lambda: alone, date="2026-01-01", prompt_style="plain",
                           checks=(ended_reading.NAME,), history=ListHistory(embedder, DANIEL))
    assert only.answer == "Brighton" and len(alone.prompts) == 2 and "… broke my heart" in alone.prompts[1]
    # The later reading read "Your dad will disown you." first and found no team there.
    assert len(reader.prompts) == 3 and "… broke my heart" in reader.prompts[-1]


def test_left_out_of_the_checks_or_asked_about_the_past_it_does_not_read_again(embedder):
    for question, checks in (
            (QUESTION, tuple(c for c in ANSWER_CHECKS if c != ended_reading.NAME)),
            (QUESTION, ()),
            ("Which football team did Daniel support before he switched?", None)):
        reader = Answers("Chelsea", "Brighton")
        ans = answer_question(question, result(*DANIEL), lambda r=reader: r, date="2026-01-01",
                              prompt_style="plain", checks=checks, history=ListHistory(embedder, DANIEL))
        assert ans.answer.startswith("Chelsea") and reader.prompts[-1] != "", (question, checks)
        assert all("… broke my heart" not in p for p in reader.prompts), (question, checks)


SWITCHED = [
    ("2025-03-02T17:58:00", "Priya", "Driving test went fine I think, fingers crossed."),
    ("2025-03-02T18:00:00", "Daniel", "You'll smash it. Gotta run, Chelsea kick off in ten and I've got my "
                                      "lucky scarf on."),
    ("2025-03-02T18:01:00", "Priya", "Enjoy the match!"),
    ("2025-09-14T20:00:00", "Daniel", "Also, don't tell Uncle Vik, but I've switched to Brighton. Got a season "
                                      "ticket at the Amex. Chelsea broke my heart one too many times."),
    ("2025-09-14T20:02:00", "Priya", "Your dad will disown you."),
]


@needs_bundled_reader
def test_the_bundled_reader_read_again_names_the_team_he_switched_to(open_memory, tmp_path):
    path = write_chat(tmp_path / "switched.jsonl", "daniel", "Priya & Daniel", SWITCHED)
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0})  # no bet on the machine's speed
    mem.import_path(path, "jsonl")
    answer = mem.ask(QUESTION, date="2026-01-01")
    assert "Brighton" in answer.answer and "Chelsea" not in answer.answer, (answer.answer, answer.reader_said)
    if answer.reader_said:  # the first reading took the old team: this step read the line again
        assert "Chelsea" in answer.reader_said and "says that ended" in answer.correction
