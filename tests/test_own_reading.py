"""Reading again from the asked person's own lines (answer/own_reading.py): a
question about now answered only from someone else's lines. The step's rules
with a scripted reader double, then through answer_question."""

from __future__ import annotations

import pytest

from rawrag_tui.answer import own_reading, selection
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.prompts import NOT_IN_HISTORY
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.settings import ANSWER_CHECKS
from tests.conftest import GERMAN_CHATS, SECOND_CHATS, needs_bundled_reader
from tests.test_later_reading import Answers, ListHistory, msg, read_by, result

# Second unseen set: the bundled reader answered "Sandviken", the friend's old flat.
CASPAR = [
    msg(1, "I miss the Sandviken flat a little, at least the view.", "2025-02-02T10:00:00", "Solveig"),
    msg(2, "Ha! My news: I had an interview at a brewery near the Dampoort.", "2025-03-09T11:00:00", "Caspar"),
    msg(3, "Fingers crossed for you!", "2025-03-09T11:05:00", "Solveig"),
    msg(4, "First month at Vlaskop Brewery done. I come home smelling of hops.", "2025-05-04T19:00:00", "Caspar"),
    msg(5, "Sandviken still wins on rain though.", "2025-05-04T19:10:00", "Solveig"),
]
QUESTION = "Where does Caspar work now?"


def test_only_the_asked_persons_lines_are_read_again():
    reader = Answers("Vlaskop Brewery")
    found = own_reading.read_own(QUESTION, "Sandviken", [CASPAR[0], CASPAR[4]], CASPAR, EvidenceViews(),
                                 read_by(reader))
    assert found is not None and found.text == "Vlaskop Brewery" and found.asked == "Caspar"
    assert [m.message_id for m in found.said_by] == [4] and found.read == 2  # [2] has "brewery" alone
    assert "Vlaskop" in reader.prompts[0] and "Sandviken" not in reader.prompts[0]


@pytest.mark.parametrize("second", [
    "Paris",                            # none of their lines says it
    "Ghent Brewery",                    # no line of theirs says all of it: a guess
    NOT_IN_HISTORY,                     # their lines do not answer
    "Sandviken.",                       # the same answer
    "Caspar works at Vlaskop Brewery.",  # the question said back
    "Solveig",                          # only a person of the chat
])
def test_the_first_answer_stands_unless_one_of_their_lines_supports_another(second):
    assert own_reading.read_own(QUESTION, "Sandviken", [CASPAR[0]], CASPAR, EvidenceViews(),
                                read_by(Answers(second))) is None


def test_an_answer_older_than_the_first_answers_source_is_not_taken():
    # Asked where Hattie works now, her own lines gave the school she had left: a line older
    # than the one the first answer came from is no newer state. Caspar wrote nothing after
    # his last line to read again.
    reader = Answers("brewery")
    assert own_reading.read_own(QUESTION, "Sandviken", [CASPAR[4]], CASPAR, EvidenceViews(),
                                read_by(reader)) is None
    assert len(reader.prompts) == 1  # it read, and did not take what it read


# German unseen set: "In welcher Stadt wohnt Mehmet?" was answered "Berlin", from Anna's invitation;
# over his own lines the reader said "Neukölln", his district before he moved.
MEHMET = [
    msg(1, "Ich sitz in Neukölln und schwitze, meine Dachwohnung ist ein Backofen", "2025-09-14T10:00:00",
        "Mehmet"),
    msg(2, "Wir sind nach Leipzig umgezogen, Nina hat dort die Professur bekommen", "2026-01-10T10:00:00",
        "Mehmet"),
    msg(3, "Leipzig! Wie schön. Welches Viertel?", "2026-01-10T10:05:00", "Anna"),
    msg(4, "Kommt ihr mal nach Berlin? Dann stell ich ihn euch vor", "2026-02-21T10:00:00", "Anna"),
    msg(5, "Im März bestimmt.", "2026-02-21T10:05:00", "Mehmet"),
]
MEHMET_Q = "In welcher Stadt wohnt Mehmet?"


def test_from_an_older_state_of_theirs_their_lines_after_it_are_read_once_more():
    reader = Answers("Neukölln", "Leipzig")
    found = own_reading.read_own(MEHMET_Q, "Berlin", [MEHMET[3]], MEHMET, EvidenceViews(), read_by(reader))
    assert found is not None and found.text == "Leipzig" and found.after == "Neukölln"
    assert [m.message_id for m in found.said_by] == [2]
    assert "Neukölln" in reader.prompts[0] and "Neukölln" not in reader.prompts[1]
    assert "Nina hat dort" in reader.prompts[1] and "Berlin" not in reader.prompts[1]
    assert own_reading.explain("Berlin", [4], found, [2]) == (
        'the reader said "Berlin" from [4], written by someone else; read again from the 3 messages Mehmet '
        'wrote, it said "Neukölln", older than [4]; from their messages after that one, it answered from [2]')


@pytest.mark.parametrize("third", ["Neukölln", "Berlin", "Dresden", NOT_IN_HISTORY])
def test_the_lines_after_an_older_state_must_say_something_new_that_they_hold(third):
    reader = Answers("Neukölln", third)
    assert own_reading.read_own(MEHMET_Q, "Berlin", [MEHMET[3]], MEHMET, EvidenceViews(), read_by(reader)) is None
    assert len(reader.prompts) == 2


@pytest.mark.parametrize(("question", "sources"), [
    (QUESTION, [CASPAR[3]]),                                  # the answer came from their own line
    (QUESTION, [msg(6, "Caspar lives near Sandviken.", "2025-01-01T09:00:00", "Solveig")]),  # naming them
    ("Where does Solveig's brother work now?", [CASPAR[0]]),  # not about a person the answer's lines leave out
    ("When does Caspar start at the brewery?", [CASPAR[0]]),  # a "when": the checks own dates
    ("Does Caspar still work at the brewery?", [CASPAR[0]]),  # yes or no
    ("Where does Bea work now?", [CASPAR[0]]),                # no one of the chat
    (QUESTION, []),                                           # no source
])
def test_nothing_is_read_again_where_the_answer_is_not_only_someone_elses(question, sources):
    reader = Answers("Vlaskop Brewery")
    assert own_reading.read_own(question, "Sandviken", sources, CASPAR, EvidenceViews(), read_by(reader)) is None
    assert reader.prompts == []


def test_a_line_of_a_chat_the_person_is_not_in_is_left_to_someone_else():
    # In a haystack, "Which instrument does Greta play?" took Melanie's clarinet from another chat;
    # read again over Greta's lines, the reader picked "chips". Nothing is read again.
    clarinet = msg(9, "I play clarinet in a community band.", "2023-05-01T10:00:00", "Melanie", conv=2)
    greta = [msg(1, "Fish and chips by the harbour tonight.", "2025-03-01T10:00:00", "Greta"),
             msg(2, "Sounds perfect.", "2025-03-01T10:05:00", "Ewan")]
    reader = Answers("chips")
    assert own_reading.read_own("Which instrument does Greta play?", "clarinet", [clarinet], [*greta, clarinet],
                                EvidenceViews(), read_by(reader)) is None
    assert reader.prompts == []


def test_japanese_lines_are_read_by_their_writer():
    chat = [msg(1, "富山の冬は寒いけど楽しいよ。", "2025-01-10T10:00:00", "沙織"),
            msg(2, "四月からメルカリで働いてる。", "2025-04-10T10:00:00", "大輝"),
            msg(3, "富山でも仕事探そうかな。", "2025-04-10T10:05:00", "沙織")]
    found = own_reading.read_own("大輝は今どこで働いていますか？", "富山", [chat[0], chat[2]], chat, EvidenceViews(),
                                 read_by(Answers("メルカリ")))
    assert found is not None and found.text == "メルカリ" and [m.message_id for m in found.said_by] == [2]


# Chinese unseen set: "Where does 邓凯 work now?" was answered "长沙", the city of 许悦's new studio,
# from her line and his reply to it; his own later line names his employer.
DENG = [
    msg(1, "还有个事，公司在长沙开新工作室，我可能要过去，还在谈", "2025-06-08T10:00:00", "许悦"),
    msg(2, "长沙好啊，吃的多", "2025-06-08T10:02:00", "邓凯"),
    msg(3, "国庆快乐！你在干嘛", "2025-10-04T10:00:00", "许悦"),
    msg(4, "在魅族上班第三周，国庆值班，食堂是真的香", "2025-10-04T10:05:00", "邓凯"),
]
DENG_Q = "邓凯现在在哪家公司上班？"


def test_a_reply_that_echoes_someone_elses_line_is_not_their_own_source():
    found = own_reading.read_own(DENG_Q, "长沙", [DENG[0], DENG[1]], DENG, EvidenceViews(),
                                 read_by(Answers("魅族")))
    assert found is not None and found.text == "魅族" and [m.message_id for m in found.said_by] == [4]
    assert found.replies == {2}
    assert own_reading.explain("长沙", [1, 2], found, [4], replies=[2]) == (
        'the reader said "长沙" from [1], written by someone else, and [2], 邓凯\'s reply; read again from '
        'the 2 messages 邓凯 wrote, it answered from [4]')


@pytest.mark.parametrize("sources", [
    [DENG[1]],                                                             # only his own line
    [DENG[0], msg(2, "长沙好啊，吃的多", "2025-06-08T10:02:00", "邓凯", conv=2)],  # not a reply: another chat
    [msg(1, "邓凯，公司在长沙开新工作室", "2025-06-08T10:00:00", "许悦"), DENG[1]],  # the line it answers names him
    [DENG[0], DENG[3]],                                                    # his line, not right after hers
    [msg(1, "长沙的生活怎么样？", "2025-06-08T10:00:00", "许悦"), DENG[1]],  # his reply to a question put to him
])
def test_the_asked_persons_line_counts_as_theirs_unless_it_answers_someone_elses_source(sources):
    reader = Answers("魅族")
    assert own_reading.read_own(DENG_Q, "长沙", sources, DENG, EvidenceViews(), read_by(reader)) is None
    assert reader.prompts == []


def test_the_answer_is_the_second_reading_with_the_first_in_the_note(embedder):
    reader = Answers("Sandviken", "Vlaskop Brewery")
    ans = answer_question(QUESTION, result(*CASPAR), lambda: reader, date="2025-06-01",
                          prompt_style="plain", history=ListHistory(embedder, CASPAR))
    assert ans.answer == "Vlaskop Brewery" and ans.reader_said == "Sandviken"
    assert [(c.external_id, c.how) for c in ans.citations] == [("m4", "matched")]
    numbers = ", ".join(f"[{c.n}]" for c in ans.citations)
    assert ans.correction.startswith('the reader said "Sandviken" from [')
    assert ans.correction.endswith(f"read again from the 2 messages Caspar wrote, it answered from {numbers}")
    assert len(reader.prompts) == 2 and "Sandviken" not in reader.prompts[1].split("Question")[0].split("Messages")[-1]


def test_a_reply_is_named_as_such_in_the_note(embedder):
    reader = Answers("长沙", "魅族")
    ans = answer_question(DENG_Q, result(*DENG), lambda: reader, date="2025-10-05", prompt_style="plain",
                          history=ListHistory(embedder, DENG))
    assert ans.answer == "魅族" and ans.reader_said == "长沙", (ans.answer, ans.correction)
    assert [c.external_id for c in ans.citations] == ["m4"]
    assert "written by someone else, and [" in ans.correction and "邓凯's reply" in ans.correction


def test_left_out_of_the_checks_the_first_answer_stands(embedder):
    reader = Answers("Sandviken", "Vlaskop Brewery")
    without = tuple(c for c in ANSWER_CHECKS if c not in (own_reading.NAME, "someone_else"))
    ans = answer_question(QUESTION, result(*CASPAR), lambda: reader, date="2025-06-01", prompt_style="plain",
                          history=ListHistory(embedder, CASPAR), checks=without)
    assert ans.answer == "Sandviken" and len(reader.prompts) == 1


@needs_bundled_reader
@pytest.mark.parametrize(("chats", "question", "asked_on", "first", "right", "note", "writer"), [
    # The second unseen English set (bench/data): the first reading took "Sandviken" from lines
    # Solveig wrote of her old flat; Caspar's own lines say where he works.
    (SECOND_CHATS, QUESTION, "2026-04-12", "Sandviken", "Vlaskop Brewery", "messages Caspar wrote", "Caspar"),
    # The German set: "Berlin" came from Anna's invitation; over Mehmet's own lines the reader
    # said "Neukölln", where he lived before; over his lines after that one, "Leipzig".
    (GERMAN_CHATS, MEHMET_Q, "2026-02-21", "Berlin", "Leipzig", 'it said "Neukölln", older than', "Mehmet"),
])
def test_the_bundled_reader_reads_the_asked_persons_own_lines(open_memory, monkeypatch, chats, question, asked_on,
                                                              first, right, note, writer):
    # Without the employer hint (reader.hints) and the asked person's change lines
    # (answer/selection.py), each of which answers Caspar's question at its first reading.
    monkeypatch.setattr(selection, "CHANGE_LINES", 0)
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0, "evidence_tokens": 1024, "hints": "off"})
    mem.import_path(chats, "locomo")
    answer = mem.ask(question, date=asked_on)
    assert answer.answer == right, (answer.answer, answer.reader_said, answer.correction)
    if not answer.reader_said:
        # Right at the first reading: on the 2-core AMD EPYC VM of 2026-12-07 (the embedder's
        # closeness moves the evidence a little between CPUs) for Caspar's question.
        pytest.skip(f"the bundled reader answered {right!r} at its first reading here")
    assert answer.reader_said == first and note in answer.correction
    assert answer.citations and all(right in c.text and c.speaker == writer for c in answer.citations)


@needs_bundled_reader
def test_with_his_change_line_the_first_reading_is_right(open_memory):
    # "My turn: first month at Vlaskop Brewery done" is read besides the anchors (answer/selection.py);
    # the newer "I've switched to Club Brugge. Vlaskop pours the beer at their fan bar" ends a team,
    # not the job, and leaves the answer as it is (answer/ended_reading.py).
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0, "evidence_tokens": 1024, "hints": "off"})
    mem.import_path(SECOND_CHATS, "locomo")
    answer = mem.ask(QUESTION, date="2026-04-12")
    assert answer.answer == "Vlaskop Brewery" and not answer.reader_said, (answer.answer, answer.correction)
    assert any("first month at Vlaskop Brewery" in c.text for c in answer.citations)
