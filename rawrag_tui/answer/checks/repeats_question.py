"""Answers that only repeat the question: "not in your history" instead.

Asked "Wie heißt Mehmets Hund?" about a dog no message mentions, the bundled
0.5B reader answers "Mehmet", the owner's own name; asked in Chinese what Chen
Hao's dog is called, it answers that Chen Hao's dog is called Chen Hao. An answer
made only of the question's own names (in a script with capitals) or of its
own characters (Chinese, Japanese) tells the user nothing the question did
not, and reads as a fact: the person's name given as the dog's. So it becomes
:data:`~..prompts.NOT_IN_HISTORY`, the reader's words kept in the note.

No word of any language is read: names are the capitalised words that do not
start a sentence (answer/unknown.py), CJK text is compared by characters,
hiragana aside where there are others (Japanese grammar: "仙台の住んでいました。"
repeats the question "...仙台に...住んでいましたか" but for its "の").
An answer that repeats a question's *ordinary* words is left alone: "National
park" answers "a national park or a theme park?"; unless the question asks
about an earlier state, where any word of it is the later state it names
("Which hobby did Hattie do before pottery?" "pottery"). Measured on the LoCoMo dev
conversation's answers at 4dbce1c (docs/answers.md): 3 of 152 answers are only
the question's names ("Caroline" to "What is Caroline's identity?"), all with
F1 0; no right answer of the LoCoMo or changed-facts sets is one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Sequence

from ... import lang
from ...search.types import EvidenceMessage
from ...storage.cjk import has_cjk
from ..evidence import EvidenceViews
from ..prompts import NOT_IN_HISTORY
from ..unknown import named
from .base import Correction

#: The setting's name for this check (``[answer] checks``).
NAME = "repeats_question"
#: One hiragana character (a script, not a word list).
_HIRAGANA = re.compile(r"[\u3040-\u309f]")


def repeats_question(question: str, said: str, earlier: bool = False) -> bool:
    """Whether ``said`` holds nothing but the question's names, or, in CJK
    text, nothing but the question's own characters. ``earlier``: the question
    asks about a state earlier than the latest (answer/timeline.py), and then
    any of its words counts, not only its names: asked "Which hobby did Hattie
    do before pottery?", "pottery" is the later state the question names, as
    "Corrib Labs" is asked where Sam worked before Corrib Labs (no "a or b?"
    choice among its own words is asked that way)."""
    text = said.strip()
    if not text:
        return False
    if has_cjk(text):
        characters = {c for c in text if c.isalnum()}
        # Hiragana is Japanese grammar (particles, endings): "仙台の住んでいました。", asked
        # "翔太は仙台に引っ越す前、どこに住んでいましたか", repeats it but for its "の". Where
        # the answer is all hiragana (a name, "ほのか") its characters are compared as they are.
        characters = {c for c in characters if not _HIRAGANA.match(c)} or characters
        return bool(characters) and characters <= set(question)
    language = lang.of(question)
    terms = {term for _, _, word, term in language.tokens(text) if language.is_content(word)}
    if earlier:
        asked = {term for _, _, word, term in language.tokens(question) if language.is_content(word)}
    else:
        asked = {term for name in named(question) for _, _, _, term in language.tokens(name)}
    return bool(terms) and terms <= asked


def check(question: str, said: str, messages: Sequence[EvidenceMessage],
          views: EvidenceViews | None = None, today: dt.date | None = None,
          earlier: bool = False, latest: Collection[int] = (),
          replaced: Sequence[EvidenceMessage] = ()) -> Correction | None:
    """"Not in your history" for an answer that only repeats the question, else None."""
    return Correction(0, NOT_IN_HISTORY) if repeats_question(question, said, earlier) else None


def explain(answer: str, correction: Correction) -> str:
    return f'the reader said "{answer}", which only repeats the question'
