"""An answer that is only the name of the other person of the chat: "not in your history".

Asked about someone the history never mentions in a person's life ("What
is the name of Tamsin's landlord?", "What is Yusuf's grandmother called?"),
the readers answer with the one name every line of the evidence carries:
the person Tamsin writes to. The bundled 0.5B said "Rohan" for the landlord
and "Yusuf" for whom Oonagh is engaged to (she is engaged to Teodor, whom
the evidence names); the 1.5B Coder said "Rohan", "Beatriz" and "Oonagh" for
three questions of the unseen sets' unanswerable ones. A speaker's name
stands before each of their lines as a label, so it is the nearest name at
hand, and nothing in the lines need say anything of what was asked.

So where a question names a person of the chat and the final answer, less
the question's own words, is only the name of another speaker of the
evidence (most often the one the asked person writes to; the 1.5B named the
speaker of another chat of the store for Kofi's sister), the answer is "not
in your history" unless some evidence message that this speaker writes, or
that names them, shares a word of the question's subject (its content
terms, the people's names and the words asking what someone is called
aside, ``Language.name_words``: "called", "heißt", 名字, 名前; the
language module's terms, CJK character pairs). "Who did Anna go to Paris with?" answered "Tom" stands
where Tom writes "Paris with you was magical"; "Tamsin's landlord"
answered "Rohan" does not, since nothing Rohan writes or is told speaks of
a landlord. A yes-or-no question is left alone, and so
is a question with no subject word left once the names are out.

Before that, the reader reads once more with the chat's names not to be
written (answer/avoided_reading.py), and its answer stands where a line of
the person asked about, on the question's subject, holds it ("Who is Oonagh
engaged to?" "Yusuf" -> "Teodor").

A name written in a message's text (not a speaker) is not checked: "Who is
Tamsin dating now?" answered "Joaquin", from "I've been seeing someone.
Joaquin!", shares no word with the question either, and is right.

No word of any language is read here. Turned off by leaving ``chat_partner``
out of ``[answer] checks``. Measured in docs/answers.md ("Saying not in your
history").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .. import lang
from ..lang import query_terms
from ..search.types import EvidenceMessage
from .evidence import EvidenceViews

#: The setting's name for this step (``[answer] checks``).
NAME = "chat_partner"


def partner_named(question: str, answer: str, evidence: Sequence[EvidenceMessage],
                  views: EvidenceViews) -> str | None:
    """The speaker of ``evidence`` (not one ``question`` asks about) whose name
    is all ``answer`` adds to the question, where no message they write or
    that names them is on the question's subject; else None (see the module's doc)."""
    if lang.asks_closed(question):
        return None
    named, _ = views.named(question, evidence)
    if not named:
        return None
    others = {s: query_terms(s) for s in {m.speaker for m in evidence} if s and s not in named}
    written = query_terms(answer)
    partners = {name for name, terms in others.items() if terms and terms <= written}
    rest = answer
    for name in partners:
        rest = re.sub(re.escape(name), " ", rest, flags=re.IGNORECASE)
    # Less their names, nothing but the question's words (terms; in CJK, its character pairs).
    if not partners or not query_terms(rest) <= query_terms(question):
        return None
    subject = views.subject(question, evidence, lang.name_words(question))
    if not subject:
        return None
    names = set().union(*(others[p] for p in partners))
    for m in evidence:
        view = views(m)
        if (m.speaker in partners or view.stems & names) and view.stems & subject:
            return None
    return ", ".join(sorted(partners))


def explain(answer: str, partner: str) -> str:
    """The note under "not in your history": the answer it replaced, and why."""
    return (f'the reader said "{answer}": only the name of {partner}, who writes in the evidence; '
            f"nothing {partner} writes or is told there is about what was asked")
