"""Reading again from the messages later than the answer's sources
(answer/later_reading.py): a question about now whose first answer a later
message of the same conversation changed. The step's rules with a scripted
reader double; the bundled reader on a real store at the end."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from rawrag_tui.answer import later_reading
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.history import message_body, message_text
from rawrag_tui.answer.prompts import NOT_IN_HISTORY
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult
from rawrag_tui.settings import ANSWER_CHECKS
from tests.conftest import ENGLISH_CHATS, needs_bundled_reader, write_chat


def msg(mid, text, ts, speaker, conv=1):
    return EvidenceMessage(mid, f"m{mid}", conv, f"chat {conv}", mid, ts, speaker, "user", text)


AMIR = [
    msg(1, "Bristol is the same as ever, I love living here. Four flat whites today.", "2025-04-06T10:00:00",
        "Amir"),
    msg(2, "Iconic. The budgie learned to wolf-whistle.", "2025-04-06T10:02:00", "Jess"),
    msg(3, "How's Glasgow in March?", "2026-03-08T18:00:00", "Jess"),
    msg(4, "Horizontal rain in Glasgow. I genuinely love living here though.", "2026-03-08T18:03:00", "Amir"),
]
OTHER_CHAT = msg(5, "We moved to Cardiff last week!", "2026-05-01T09:00:00", "Bea", conv=2)


class Answers:
    """A reader double: one scripted answer per read, the evidence of each kept."""

    name = "scripted"
    context_tokens = 4096

    def __init__(self, *answers):
        self.answers = list(answers)
        self.prompts: list[str] = []

    def count_tokens(self, text):
        return len(text.split())

    def answer(self, prompt, max_tokens=256, on_progress=None):
        self.prompts.append(prompt)
        yield self.answers[min(len(self.prompts), len(self.answers)) - 1]


class ListHistory:
    """The history of a list of messages, with the real embedder (answer/history.py's protocol)."""

    def __init__(self, embedder, messages):
        self.embedder, self.messages = embedder, messages
        self.embedded = 0  #: how many messages were embedded (the timeline's tests count them)

    def embed(self, messages, speaker=True):
        self.embedded += len(messages)
        return self.embedder.embed([(message_text if speaker else message_body)(m) for m in messages])

    def embed_question(self, question):
        return self.embedder.embed([question], kind="query")[0]

    def last_messages(self, conversation_id, after_seq, limit):
        return [m for m in self.messages if m.conversation_id == conversation_id and m.seq > after_seq][-limit:]

    def messages_before(self, conversation_id, before_seq, limit):
        return [m for m in self.messages if m.conversation_id == conversation_id and m.seq < before_seq][-limit:]

    def messages_after(self, conversation_id, after_seq, limit):
        return [m for m in self.messages if m.conversation_id == conversation_id and m.seq > after_seq][:limit]

    def earlier_messages(self, anchor, limit):
        others = self.same_people(anchor.conversation_id) - {anchor.conversation_id}
        return [m for m in self.messages
                if (m.conversation_id == anchor.conversation_id and m.seq < anchor.seq)
                or (m.conversation_id in others and (m.timestamp or "") < (anchor.timestamp or ""))][-limit:]

    def mentions(self, word):
        return any(word.lower() in message_text(m).lower() for m in self.messages)

    def same_people(self, conversation_id):
        def people(c):
            return {m.speaker for m in self.messages if m.conversation_id == c}
        return frozenset(c for c in {m.conversation_id for m in self.messages}
                         if people(c) == people(conversation_id)) | {conversation_id}


def result(*messages):
    return SearchResult("q", "hybrid", [Hit(1, 1, "chat", 1, "", messages=list(messages))], {"total": 0.1})


def LEVEL(messages):
    """Every message as close to the question as any other."""
    return np.ones(len(messages))


def read_by(reader):
    def read(evidence):
        return "".join(reader.answer(f"Messages:\n{evidence}\n"))
    return read


def test_only_the_later_messages_of_the_sources_conversation_are_read_again():
    messages = [*AMIR, OTHER_CHAT]
    # Jess's reply and the March messages, not Bea's chat though it is later.
    assert later_reading.later_than_sources([1], messages) == [2, 3, 4]
    assert later_reading.later_than_sources([1, 3], messages) == [4]
    assert later_reading.later_than_sources([4], messages) == []
    reader = Answers("Glasgow")
    found = later_reading.read_later("Where does Amir live?", "Bristol", [1], messages, EvidenceViews(),
                                     read_by(reader), LEVEL)
    # Its sources: the later messages that share its words (answer/checks/support.py).
    assert found is not None and found.text == "Glasgow" and found.messages == [3, 4] and found.sources == [1]
    assert "Horizontal rain" in reader.prompts[0] and "Bristol is" not in reader.prompts[0]
    assert "Cardiff" not in reader.prompts[0]


@pytest.mark.parametrize("second", [
    "Paris",                      # no later message says it: a guess
    NOT_IN_HISTORY,               # the later messages do not answer
    "Bristol.",                   # the same answer
    "Amir lives in Glasgow.",     # the question said back, with the answer in it: not taken
])
def test_the_first_answer_stands_unless_a_later_message_supports_another(second):
    found = later_reading.read_later("Where does Amir live?", "Bristol", [1], AMIR, EvidenceViews(),
                                     read_by(Answers(second)), LEVEL)
    assert found is None


def test_nothing_is_read_without_a_later_message_or_a_dated_source():
    reader = Answers("Glasgow")
    assert later_reading.read_later("Where does Amir live?", "Glasgow", [4], AMIR, EvidenceViews(),
                                    read_by(reader), LEVEL) is None
    undated = [msg(1, "Bristol life.", None, "Amir"), *AMIR[1:]]
    assert later_reading.read_later("Where does Amir live?", "Bristol", [1], undated, EvidenceViews(),
                                    read_by(reader), LEVEL) is None
    assert reader.prompts == []


def test_chinese_is_read_again_by_its_own_terms():
    chat = [
        msg(1, "我在成都住了六年了。", "2025-01-12T20:00:00", "李娜"),
        msg(2, "那边的火锅最好吃。", "2025-01-12T20:01:00", "陈浩"),
        msg(3, "杭州的新家终于收拾好了，离公司骑车十分钟。", "2025-06-15T21:00:00", "李娜"),
    ]
    found = later_reading.read_later("李娜现在住在哪个城市？", "成都", [1], chat, EvidenceViews(),
                                     read_by(Answers("杭州")), LEVEL)
    assert found is not None and found.text == "杭州" and found.messages == [3]
    # "李娜住在杭州" says the question back (住在): the first answer stands.
    assert later_reading.read_later("李娜现在住在哪个城市？", "成都", [1], chat, EvidenceViews(),
                                    read_by(Answers("李娜住在杭州")), LEVEL) is None


def test_the_answer_is_the_second_reading_with_the_first_in_the_note(embedder):
    reader = Answers("Bristol", "Glasgow")
    ans = answer_question("Where does Amir live?", result(*AMIR), lambda: reader, date="2026-04-01",
                          prompt_style="plain", history=ListHistory(embedder, AMIR))
    assert ans.answer == "Glasgow" and ans.reader_said == "Bristol"
    assert [(c.n, c.how) for c in ans.citations] == [(3, "matched"), (4, "matched")]
    assert ans.correction == ('the reader said "Bristol" from [1]; read again from the 3 later messages '
                              "of that conversation, it answered from [3], [4]")
    assert len(reader.prompts) == 2 and "Bristol is" in reader.prompts[0] and "Bristol is" not in reader.prompts[1]
    assert "reread" in ans.timings and not ans.unsupported


def test_left_out_of_the_checks_or_asked_about_the_past_it_does_not_read_again(embedder):
    for question, checks, history in (
            ("Where does Amir live?", tuple(c for c in ANSWER_CHECKS if c != later_reading.NAME), True),
            ("Where does Amir live?", (), True),
            ("Where did Amir live before he moved?", None, True),
            ("Where does Amir live?", None, False)):  # no embedder to compare by meaning: no second reading
        reader = Answers("Bristol", "Glasgow")
        ans = answer_question(question, result(*AMIR), lambda r=reader: r, date="2026-04-01",
                              prompt_style="plain", checks=checks,
                              history=ListHistory(embedder, AMIR) if history else None)
        assert ans.answer == "Bristol" and not ans.reader_said, (question, checks)
        assert len(reader.prompts) == 1


def test_a_cited_source_is_the_one_read_after(embedder):
    # The cited prompt: the reader's [n] are its sources; the second reading's
    # numbers refer to another block, so they are dropped from its answer.
    reader = Answers("Bristol [1]", "Glasgow [2]")
    ans = answer_question("Where does Amir live?", result(*AMIR), lambda: reader, date="2026-04-01",
                          prompt_style="cited", history=ListHistory(embedder, AMIR))
    assert ans.answer == "Glasgow" and ans.reader_said == "Bristol [1]"
    assert [c.n for c in ans.citations] == [3, 4]


def test_dates_and_values_are_left_to_the_checks():
    # The checks own them (answer/checks): a second reading of the lines after
    # the wedding's message answers with the day after it.
    wedding = [msg(1, "The wedding moves to Sunday 11 October, at the old mill.", "2026-06-07T09:12:00", "Maya"),
               msg(2, "What a beautiful day yesterday. Photos are in the album.", "2026-10-12T10:02:00", "Dad")]
    reader = Answers("11 October 2026")
    assert later_reading.read_later("When is Maya's wedding?", "Sunday 11 October", [1], wedding, EvidenceViews(),
                                    read_by(reader), LEVEL) is None
    assert later_reading.read_later("What is Maya's number?", "07700 900318", [1], wedding, EvidenceViews(),
                                    read_by(reader), LEVEL) is None
    assert reader.prompts == []


def test_a_first_answer_a_later_message_still_says_is_not_read_again():
    still = [*AMIR[:3], msg(4, "Glasgow is grey, Bristol was sunnier, but I still love living in Bristol.",
                            "2026-03-08T18:03:00", "Amir")]
    reader = Answers("Glasgow")
    # Its sources are the two that say it best; a later one saying it too means nothing changed it.
    assert later_reading.read_later("Where does Amir live?", "Bristol", [1], still, EvidenceViews(),
                                    read_by(reader), LEVEL) is None
    assert reader.prompts == []


def test_a_second_answer_that_only_names_a_person_of_the_chat_is_not_taken():
    assert later_reading.read_later("Where does Amir live?", "Bristol", [1], AMIR, EvidenceViews(),
                                    read_by(Answers("Jess")), LEVEL) is None


def test_a_second_answer_the_asked_person_only_asks_about_is_not_taken():
    tamsin = [
        msg(1, "Ten days in Bath and I've already learned which hill not to climb with shopping.",
            "2025-07-27T19:00:00", "Tamsin"),
        msg(2, "Look at you! Is the bakery as good as it smells?", "2025-07-27T19:02:00", "Rohan"),
        msg(3, "Ha. Are we rebooking Krakow for spring then?", "2026-02-08T18:00:00", "Tamsin"),
        msg(4, "Let me see what leave I get. May, maybe.", "2026-02-08T18:04:00", "Rohan"),
    ]
    question, views = "Which city does Tamsin live in now?", EvidenceViews()
    # Her own question names the trip's city: she asks about it, she does not say she lives there.
    assert later_reading.only_asked(question, "Krakow", [tamsin[2]], tamsin, views)
    assert later_reading.read_later(question, "Bath", [1], tamsin, views, read_by(Answers("Krakow")), LEVEL) is None
    # Said, not asked, it counts; so does a question someone else writes to her ("How's Krakow?").
    told = dataclasses.replace(tamsin[2], text="Ha. I've rented a room in Krakow for the spring!")
    assert not later_reading.only_asked(question, "Krakow", [told], tamsin, views)
    asked_her = dataclasses.replace(tamsin[2], speaker="Rohan", text="How's Krakow treating you?")
    assert not later_reading.only_asked(question, "Krakow", [asked_her], tamsin, views)
    # A line with a question beside a statement naming it states it; Chinese asks with a full-width mark.
    both = dataclasses.replace(tamsin[2], text="Krakow it is, I signed the lease. Are you visiting?")
    assert not later_reading.only_asked(question, "Krakow", [both], tamsin, views)
    li = [msg(1, "我下个月搬到杭州。", "2025-06-01T10:00:00", "李娜"),
          msg(2, "我们春天去成都吗？", "2026-02-01T10:00:00", "李娜")]
    assert later_reading.only_asked("李娜现在住在哪个城市？", "成都", [li[1]], li, views)
    # Asked about the chat's Amir, Jess's "How's Glasgow in March?" is the answer (above, AMIR).
    assert not later_reading.only_asked("Where does Amir live?", "Glasgow", [AMIR[2]], AMIR, views)


def test_a_second_answer_from_a_line_less_about_the_question_than_the_first_source_is_not_taken():
    # By meaning (the home's embedder; here its scores, scripted): the later
    # line the second answer came from says less about where Amir lives.
    def closeness(messages):
        return np.array([0.9 if "Bristol" in m.text else 0.2 for m in messages])

    assert later_reading.read_later("Where does Amir live?", "Bristol", [1], AMIR, EvidenceViews(),
                                    read_by(Answers("Glasgow")), closeness) is None
    found = later_reading.read_later("Where does Amir live?", "Bristol", [1], AMIR, EvidenceViews(),
                                     read_by(Answers("Glasgow")), lambda ms: np.array([0.3] * len(ms)))
    assert found is not None  # as close: taken

    def by(second):  # the first source scores 0.3, the later lines ``second``
        return lambda ms: np.array([0.3 if "Bristol" in m.text else second for m in ms])

    # Within SAME_CLOSENESS (0.01) is as close: "Glasgow" scored 0.200 against "Bristol"'s 0.201.
    assert later_reading.read_later("Where does Amir live?", "Bristol", [1], AMIR, EvidenceViews(),
                                    read_by(Answers("Glasgow")), by(0.295)) is not None
    assert later_reading.read_later("Where does Amir live?", "Bristol", [1], AMIR, EvidenceViews(),
                                    read_by(Answers("Glasgow")), by(0.28)) is None


MOVED_AWAY = [
    ("2025-04-06T10:00:00", "Amir", "I live in Bristol, in a flat in Clifton. Four flat whites today, I'm vibrating."),
    ("2025-04-06T10:03:00", "Jess", "Iconic. My budgie has learned to wolf-whistle, so that's my life."),
    ("2025-05-25T19:00:00", "Amir", "Bit of news: I've been offered a job up north and I'm taking it."),
    ("2025-05-25T19:02:00", "Jess", "That's so far! What's the job?"),
    ("2026-03-08T18:00:00", "Jess", "How's the new place?"),
    ("2026-03-08T18:03:00", "Amir", "Horizontal rain. I live in Glasgow now, in a flat in Partick, and I love it."),
]


@needs_bundled_reader
def test_the_bundled_reader_read_again_answers_with_the_later_state(open_memory, tmp_path):
    path = write_chat(tmp_path / "moved.jsonl", "amir", "Jess & Amir", MOVED_AWAY)
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0})  # no bet on the machine's speed
    mem.import_path(path, "jsonl")
    answer = mem.ask("Where does Amir live?", date="2026-04-01")
    # The first reading takes the first place it reads (his old flat, "Clifton" here); the second,
    # from the five later messages, the place he lives now.
    assert any(now in answer.answer for now in ("Glasgow", "Partick")), answer.answer
    assert not any(then in answer.answer for then in ("Bristol", "Clifton")), answer.answer
    assert any(then in answer.reader_said for then in ("Bristol", "Clifton")), answer.reader_said
    assert "read again from the 5 later messages" in answer.correction
    assert [c.text for c in answer.citations] == [MOVED_AWAY[-1][2]]
    off = open_memory(tmp_path / "off", reader={"timeout": 1800, "first_token_seconds": 0},
                      answer={"checks": [c for c in ANSWER_CHECKS if c != later_reading.NAME]})
    off.import_path(path, "jsonl")
    # Without the step the reader's first words are the answer.
    assert off.ask("Where does Amir live?", date="2026-04-01").answer == answer.reader_said


def test_later_messages_of_a_thread_between_the_same_people_are_read_again_too():
    # A ChatGPT export: one thread per topic, every thread between the user and
    # the assistant. A later thread is later; another people's chat is not.
    later_thread = [EvidenceMessage(m.message_id, m.external_id, 3, "chat 3", m.seq, m.timestamp, m.speaker,
                                    m.role, m.text) for m in AMIR[2:]]
    messages = [*AMIR[:2], *later_thread, OTHER_CHAT]
    kin = {1: frozenset({1, 3}), 3: frozenset({1, 3})}

    def same_people(conversation_id):
        return kin.get(conversation_id, frozenset({conversation_id}))

    assert later_reading.later_than_sources([1], messages) == [2]
    assert later_reading.later_than_sources([1], messages, same_people) == [2, 3, 4]


def test_a_second_answer_of_the_first_ones_form_is_no_restatement():
    # Asked which school, "Roundhay School" then "Fulford School": the shared word is the
    # answers' form, not the question said back; a word only the second adds still is.
    assert not later_reading.restates("Which school does the user work at?", "Fulford School", "Roundhay School")
    assert later_reading.restates("What is Priya's job?", "Priya's job is a bus driver.", "UX designer")
    assert later_reading.restates("Which school does the user work at?", "Fulford School", "Roundhay")


FIESTA = [
    msg(1, "My car, a Ford Fiesta from 2012, failed its MOT on the brakes.", "2025-03-03T16:05:00", "User"),
    msg(2, "For a 2012 Ford Fiesta, new pads cost far less than the car is worth.", "2025-03-03T16:06:00",
        "ChatGPT"),
    msg(3, "Sold the Fiesta at last and bought a second-hand Nissan Leaf. Chargers in York?",
        "2025-11-22T11:15:00", "User", conv=2),
    msg(4, "Zap-Map shows every public charger in York.", "2025-11-22T11:16:00", "ChatGPT", conv=2),
]


def test_a_later_thread_naming_the_first_answer_beside_a_new_one_is_read_alone():
    # The later thread still says "Fiesta", so nothing would be read again; but it says it
    # beside what replaced it, so that line alone is read, and its answer taken.
    def same_people(conversation_id):
        return frozenset({1, 2})

    def first_closer(messages):  # the first answer's lines closer to the question: the gate would stop it
        return np.array([1.0 if m.conversation_id == 1 else 0.0 for m in messages])

    reader = Answers("Nissan Leaf")
    # The line names the first answer, so it is on its subject: the closeness gate is not asked.
    found = later_reading.read_later("What car does the user drive?", "Ford Fiesta", [1, 2], FIESTA, EvidenceViews(),
                                     read_by(reader), first_closer, same_people=same_people)
    assert found is not None and found.text == "Nissan Leaf" and found.messages == [3] and found.read == 1
    assert later_reading.explain("Ford Fiesta", found) == (
        'the reader said "Ford Fiesta" from [1], [2]; read again from the 1 later message of the same '
        "people's conversations, it answered from [3]")
    assert len(reader.prompts) == 1 and "Zap-Map" not in reader.prompts[0] and "Sold the Fiesta" in reader.prompts[0]
    # In one conversation the same line is the chat going on about the first answer: not read again.
    one_chat = [EvidenceMessage(m.message_id, m.external_id, 1, "chat 1", m.seq, m.timestamp, m.speaker, m.role,
                                m.text) for m in FIESTA]
    reader = Answers("Nissan Leaf")
    assert later_reading.read_later("What car does the user drive?", "Ford Fiesta", [1, 2], one_chat,
                                    EvidenceViews(), read_by(reader), LEVEL) is None
    assert reader.prompts == []


CAT = [
    msg(1, "Here she is, eight weeks old. We're calling her Biscuit.", "2025-03-23T20:40:00", "Hannah"),
    msg(2, "Biscuit is a perfect name.", "2025-03-23T20:41:00", "Marcus"),
    msg(3, "And how did Biscuit cope with the move?", "2025-06-15T11:20:00", "Marcus"),
    msg(4, "About that. We've changed her name, the vet's idea: she's Miso now.", "2025-06-15T11:22:00", "Hannah"),
    msg(5, "Ha, it suits her.", "2025-06-15T11:23:00", "Marcus"),
]


def test_a_later_line_naming_the_first_answer_leaves_the_later_marked_statements_to_read():
    # "And how did Biscuit cope with the move?" still names the first answer, asking; the
    # statement the timeline marks latest does not, and it alone is read again.
    def first_closer(messages):  # "calling her Biscuit" is closer to the question: the gate would stop it
        return np.array([1.0 if "Biscuit" in m.text else 0.2 for m in messages])

    question = "What is the name of Hannah's cat?"
    reader = Answers("Miso")
    found = later_reading.read_later(question, "Biscuit", [1, 2], CAT, EvidenceViews(), read_by(reader),
                                     first_closer, latest={4})
    assert found is not None and found.text == "Miso" and found.messages == [4] and found.read == 1
    assert len(reader.prompts) == 1 and "Miso now" in reader.prompts[0] and "cope" not in reader.prompts[0]
    # No statement marked latest, or the marked one names the first answer too: nothing is read.
    for latest in (set(), {3}):
        reader = Answers("Miso")
        assert later_reading.read_later(question, "Biscuit", [1, 2], CAT, EvidenceViews(), read_by(reader),
                                        first_closer, latest=latest) is None
        assert reader.prompts == []


@needs_bundled_reader
def test_the_bundled_reader_reads_the_renamed_cats_latest_statement(open_memory):
    # The English changed-facts chats (bench/data): Hannah's kitten Biscuit was renamed Miso in
    # June 2025; Marcus's "And how did Biscuit cope with the move?" comes just before.
    mem = open_memory(reader={"timeout": 1800, "first_token_seconds": 0, "evidence_tokens": 1024})
    mem.import_path(ENGLISH_CHATS, "locomo")
    answer = mem.ask("What is the name of Hannah's cat?", date="2026-01-18")
    assert answer.reader_said == "Biscuit" and answer.answer == "Miso", (answer.answer, answer.correction)
    # How many later lines are read depends on which the timeline marks latest (the embedder's
    # closeness, which moves a little between CPUs): 2 on one VM, 1 on another; the statement is one.
    assert re.search(r"read again from the \d later messages? of that conversation", answer.correction)
    assert [c.how for c in answer.citations] == ["matched"] and "Miso now" in answer.citations[0].text
