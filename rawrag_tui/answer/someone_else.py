"""An answer taken only from what another person says of themself: "not in your history".

Asked about a thing the history never says of a person it knows ("Which
city does Jess's brother live in?", "Which instrument does Greta play?"),
the bundled 0.5B reader answers from the nearest line of the same kind,
most often one the *other* person of the chat wrote about their own life:
"Bristol", from Amir's "I've called off the 40th. Dad's back in hospital and
I need to be in Bristol with him"; "Greta plays the B1 exam.", from Ewan's
"The B1 exam is on 22 May, I do flashcards on the train". Nothing in either
line is about the person asked.

So where a question names a person of the chat and every message the final
answer comes from (its citations, or the messages that support it) is:

- written by someone else, a person (not an assistant: a ChatGPT reply
  drafts the user's own words, "Hello, I see my check-up has moved to 3
  March");
- without the asked person's name;
- not only asking about the answer (every sentence naming it a question:
  "陈一鸣是谁??? 我错过了什么", who is he?, tells nothing of the writer's life);
- in the first person singular and not addressed to the one it is written
  to (the line's language module, ``lang.speaks_of_self``: "I", "my",
  "ich", "我", "私"; not "we", which may include the person asked about,
  and not "How's Glasgow in March?", a question to them about their city),

the answer is "not in your history", the reader's words kept in the note.
The asked person's reply right after such a line, saying nothing of the
answer that line does not (:func:`replies`), is no line of theirs: asked the name of 王磊's girlfriend,
the reader said "阿凯" from 赵敏's "阿凯昨晚求婚了…我答应了" (he proposed to
her, she said yes) and 王磊's "恭喜" right after it.
A yes-or-no question is left alone, of any tense (``lang.asks_closed``:
"Did Melanie make the black and white bowl?" "Yes" had matched a friend's
line holding "yes"; its answer is no value taken from a
line). In a language without a module nothing is known of its pronouns,
and nothing changes.

Turned off by leaving ``someone_else`` out of ``[answer] checks``. Measured
in docs/answers.md ("Saying not in your history").
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import lang
from ..lang import query_terms
from ..search.types import EvidenceMessage
from .evidence import EvidenceViews
from .later_reading import PERSON_ROLES, only_asking

#: The setting's name for this step (``[answer] checks``).
NAME = "someone_else"


def others_own(question: str, answer: str, sources: Sequence[EvidenceMessage], evidence: Sequence[EvidenceMessage],
               views: EvidenceViews) -> bool:
    """Whether every one of ``sources`` is another person's line about themself
    (see the module's doc), for ``question``, which names someone of ``evidence``'s speakers,
    but the asked person's :func:`replies` to such a line that echo ``answer``."""
    if not sources or lang.asks_closed(question):
        return False
    named, people = views.named(question, evidence)
    if not named:
        return False
    echoes = replies(answer, question, sources, named, people, views)
    # A line that only asks about the answer tells nothing of the writer's life: "陈一鸣是谁??? 我错过了什么"
    # (who is he? what did I miss), to the asked person, whose reply says he is her boyfriend.
    said = query_terms(answer) - query_terms(question)
    return all(_of_their_own(m, named, people, views) and not only_asking(m.text, said)
               for m in sources if m.message_id not in echoes)


def replies(answer: str, question: str, sources: Sequence[EvidenceMessage], named: set[str], people: set[str],
            views: EvidenceViews) -> frozenset[int]:
    """The ids of ``sources`` that the person asked about (``named``; ``people``:
    the stems that name them) wrote as the very next message after another of
    ``sources``, another person's line about their own life, and whose words of
    ``answer`` (beyond the question's) that line already holds: such a reply
    echoes the other's fact ("长沙好啊" after "公司在长沙开新工作室…我可能要过去"). A
    reply to a question put to them ("横浜の生活はどう" - "横浜は相変わらず") or one
    that says more of the answer than the line before it ("Bristol life is the
    same as ever", a whole line the reader copied) is their own."""
    said = query_terms(answer) - query_terms(question)
    news = {(m.conversation_id, m.seq): m for m in sources if _of_their_own(m, named, people, views)}

    def echoes(reply: EvidenceMessage, line: EvidenceMessage) -> bool:
        repeated = said & views(reply).supporting_stems
        return bool(repeated) and repeated <= views(line).supporting_stems

    return frozenset(m.message_id for m in sources if m.speaker in named
                     and (m.conversation_id, m.seq - 1) in news and echoes(m, news[(m.conversation_id, m.seq - 1)]))


def _of_their_own(m: EvidenceMessage, named: set[str], people: set[str], views: EvidenceViews) -> bool:
    """Whether ``m`` is a person's line about their own life, by someone not
    ``named`` and without a word naming them (``people``)."""
    return (m.speaker not in named and m.role in PERSON_ROLES and not views(m).stems & people
            and lang.speaks_of_self(m.text))


def explain(answer: str, numbers: Sequence[int], sources: Sequence[EvidenceMessage],
            question: str, evidence: Sequence[EvidenceMessage], views: EvidenceViews) -> str:
    """The note under "not in your history": the answer it replaced, and whose line that came from."""
    named, people = views.named(question, evidence)
    echoes = replies(answer, question, sources, named, people, views)
    said = ", ".join(f"[{n}]" for n, m in zip(numbers, sources) if m.message_id not in echoes)
    writers = ", ".join(sorted({m.speaker for m in sources if m.message_id not in echoes}))
    asked = "/".join(sorted(named))
    note = (f'"{answer}" comes only from {said}, where {writers} writes in the first person, '
            f"of their own life, not of {asked}")
    if echoes:
        answered = ", ".join(f"[{n}]" for n, m in zip(numbers, sources) if m.message_id in echoes)
        note += f", and {answered}, {asked}'s {'replies' if len(echoes) > 1 else 'reply'} to it"
    return note
