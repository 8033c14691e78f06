"""Reading the evidence again with the question's echo and the chat's names set aside.

Asked "Who is Kabir engaged to?" over evidence holding his "I proposed to
Farah last night ... She said yes!!", the bundled 0.5B reader answered
"Kabir": the question's own name, which the check repeats_question turns
into "not in your history". Read again over the three closest messages
(answer/nearest_reading.py) it said "Kabir" again. Told not to write the
tokens of "Kabir" it named his sister, the other person of the chat; told
not to write either of their names, it answered "Farah". The same on the
German and Chinese sets: "Wer war Annas Freund vor Sebastian?" "Sebastian"
-> "Tobias", "赵敏和阿凯在一起之前 ... 她的男朋友是谁" (her boyfriend before 阿凯) "阿凯" -> "小周".

So, where the first answer only repeated the question and no other
reading stood (the answer is still "not in your history"), the reader reads
the same prompt once more with the tokens of that answer and of the names
of the evidence's speakers forbidden (llama.cpp's logit bias,
models/protocols.py ``AvoidingReader``). The answer stands only where:

- it is no abstention, repeats nothing of the question and is not only a
  person of the chat (answer/later_reading.py, ``only_people``);
- a line written by a person the question names supports it
  (answer/checks/support.py): what the history says of someone is in their
  own lines or in what they are told, and asked about a thing the history
  never mentions ("Wie heißt Mehmets Hund?") the forced answer came from
  another person's line ("Herrlich!", Anna's);
- it states no date where the question does not ask when (each language's
  module reads dates, ``lang.dates_in``): asked where Daniel lived before
  Brighton, the forced answer was "Last week";
- it is at most :data:`PART_OF_LINE` of that line: forced to say something,
  the reader copies a whole line ("了解、カレンダー直しとく", asked the name of
  健太's cat, which the history never names); an answer is a part of a line.

Otherwise "not in your history" stands.

The same reading follows an answer that was only the name of the other
person of the chat (answer/chat_partner.py), which that check would make
"not in your history": asked "Who is Oonagh engaged to?", the bundled
reader said "Oonagh engaged to Yusuf." (the friend she writes to) over
evidence holding her "Teodor proposed! ... We're engaged!!"; told not to
write either name, it answered "Teodor". There the new answer also needs
its supporting line to share a word of the question's subject
(``EvidenceViews.subject``, the words asking for a name aside): asked for
Tamsin's landlord, whom the history never mentions, the forced answer was
"Keziah", a school friend from a line about flat listings.

No word of any language is read:
the names are the speakers', the tokens the reader's own (models/avoided.py).
The bundled reader can always be told; a server only where it says its
token ids (llama-server, llama-cpp-python's server: ``can_avoid``). Ollama,
LM Studio and vLLM's OpenAI API do not, and there this step is skipped.
Turned off by leaving ``avoided_reading``
out of ``[answer] checks``. Measured in docs/answers.md ("The question's
echo and the chat's names set aside").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import lang
from ..search.types import EvidenceMessage
from .checks.repeats_question import repeats_question
from .checks.support import match_sources
from .evidence import EvidenceViews
from .later_reading import only_people
from .prompts import is_abstention

#: The setting's name for this step (``[answer] checks``).
NAME = "avoided_reading"
#: The largest share of a supporting line's characters the answer may be:
#: more is the line copied whole, not a value read from it.
PART_OF_LINE = 0.5
#: The most tokens the reading may write. Kept from writing what it meant to,
#: the 0.5B reader sometimes runs on to the answer budget (256 tokens, 12-30 s
#: on 2 cores) with a text no gate keeps; an answer it keeps is part of a line.
ANSWER_TOKENS = 48


@dataclass(frozen=True)
class AvoidedReading:
    """The second answer, the words it was read without, and the evidence numbers of its sources."""

    text: str
    avoided: list[str]
    sources: list[int]


def avoided_words(first: str, messages: Sequence[EvidenceMessage]) -> list[str]:
    """What the second reading may not write: the first answer and every
    speaker's name among ``messages``, in that order, each once."""
    words = [first.strip(), *sorted({(m.speaker or "").strip() for m in messages})]
    return [w for w in dict.fromkeys(words) if w]


def read_avoiding(question: str, first: str, messages: Sequence[EvidenceMessage], views: EvidenceViews,
                  read: Callable[[Sequence[str]], str], earlier: bool = False,
                  partner: bool = False) -> AvoidedReading | None:
    """The reader's answer to ``question`` over ``messages`` (the evidence, as
    first read) without the words of :func:`avoided_words`, where it stands
    (the module's doc), else None. ``read`` reads the first prompt again,
    avoiding the words it is given; ``earlier``: the question asks about an
    earlier state (any of its words said back repeats it); ``partner``: ``first``
    was only the name of another person of the chat (answer/chat_partner.py),
    not an echo of the question."""
    named, _ = views.named(question, messages)
    if not named or not (partner or repeats_question(question, first, earlier)):
        return None
    avoided = avoided_words(first, messages)
    second = read(avoided).strip()
    if (not second or is_abstention(second) or repeats_question(question, second, earlier)
            or only_people(second, messages)):
        return None
    evidence = list(messages)
    if not lang.asks_when(question) and lang.dates_in(second, evidence[-1].timestamp if evidence else None):
        return None
    sources = [n for n in match_sources(second, question, evidence, views)
               if evidence[n - 1].speaker in named
               and len(second) <= PART_OF_LINE * len(views(evidence[n - 1]).body.strip())]
    if partner:
        # Named instead of the chat's other person: only from a line on what was asked.
        subject = views.subject(question, evidence, lang.name_words(question))
        sources = [n for n in sources if views(evidence[n - 1]).stems & subject]
    if not sources:
        return None
    return AvoidedReading(second, avoided, sources)


def explain(first: str, reading: AvoidedReading, partner: str = "") -> str:
    """The note under the answer; ``partner``: the chat's other person ``first``
    only named (answer/chat_partner.py), else ``first`` only repeated the question."""
    names = ", ".join(f'"{w}"' for w in reading.avoided)
    cited = ", ".join(f"[{n}]" for n in reading.sources)
    said = (f'the reader said "{first}": only the name of {partner}, who writes in the evidence' if partner
            else f'the reader said "{first}", which only repeats the question')
    return f"{said}; read again without writing {names}, it answered from {cited}, a line of the person asked about"
