"""Names a question asks about that no message holds: "not in your history", before any reading.

Asked about a person or a place the history never mentions, a reader answers
from the nearest person's facts ("What is Xavier's job?" gets Caroline's).
No reader is needed to know better: a name is a capitalised word that does
not start a sentence (in every script that has capitals), and the lexical
index says whether any message holds it (``Store.mentions``, lenient with
inflected endings). The question is answered so when none of its names is
anywhere: a question that also names someone the history knows ("When did
Melanie go camping in June?") is read, since a month, a title or a German
noun is capitalised too and the history may say it otherwise
(``bench/not_in_history.py`` measured one absent name alone abstaining on 10
of 152 answerable LoCoMo questions).

A thing the history never mentions, asked of a person it knows ("What
colour is Hannah's car?"), is not caught here: the reader is asked.

Scripts without capitals (Chinese, Japanese) are not checked: a name there
cannot be told from a word without a language's help.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..storage.cjk import CJK_RUN
from .history import History

#: A word: letters, then letters, digits, apostrophes or hyphens.
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
#: What ends a sentence before a new one starts with a capital.
_SENTENCE_END = re.compile(r"[.!?¿¡:;\"«»“”„]\s*$")
#: The letters a name's check looks up: up to a possessive or hyphen ("Ines's" -> "Ines").
_NAME_PART = re.compile(r"[^\W\d_]+")


def _words(text: str) -> Iterable[tuple[int, str]]:
    """(start, word) for each word of ``text``, a CJK run ending one: Chinese
    and Japanese write a Latin name between characters with no space
    ("大輝のLINE IDは何ですか": "LINE", then "ID", not "IDは何ですか")."""
    for match in _WORD.finditer(text):
        word, start = match.group(), match.start()
        last = 0
        for run in CJK_RUN.finditer(word):
            if run.start() > last:
                yield start + last, word[last : run.start()]
            last = run.end()
        if last < len(word):
            yield start + last, word[last:]


def named(question: str) -> list[str]:
    """The capitalised words of ``question`` that do not start a sentence, in order."""
    names: list[str] = []
    for start, text in _words(question):
        before = question[:start]
        if not before.strip() or _SENTENCE_END.search(before):
            continue
        part = _NAME_PART.match(text)
        word = part.group() if part else ""
        if len(word) >= 2 and word[0].isupper() and word not in names:
            names.append(word)
    return names


def named_as_written(question: str, texts: Iterable[str]) -> list[str]:
    """The names of ``question`` (:func:`named`); where it is written without a
    single capital ("when is zoe's wedding?", typed in a hurry), the words of it
    that ``texts`` write as names, as written there ("Zoe"): capitalised away
    from a sentence's start, or capitalised at one and never in lower case
    ("Zoe's wedding is on 8 November", where "When" is also written "when").
    Lower case asked the English changed-facts set, the selection lost who a
    question is about and answered another chat's wedding (docs/answers.md)."""
    if any(ch.isupper() for ch in question):
        return named(question)
    texts = list(texts)
    lower: set[str] = set()
    capitalised: dict[str, str] = {}
    for text in texts:
        for match in _WORD.finditer(text):
            part = _NAME_PART.match(match.group())
            word = part.group() if part else ""
            if len(word) < 2:
                continue
            if word[0].isupper():
                capitalised.setdefault(word.casefold(), word)
            else:
                lower.add(word.casefold())
    written = {key: word for key, word in capitalised.items() if key not in lower}
    for text in texts:
        for name in named(text):
            written.setdefault(name.casefold(), name)
    names: list[str] = []
    for match in _WORD.finditer(question):
        part = _NAME_PART.match(match.group())
        found = written.get(part.group().casefold()) if part else None
        if found and found not in names:
            names.append(found)
    return names


def unknown_names(question: str, history: History) -> list[str]:
    """The names ``question`` asks about, when no message of the history holds any
    of them (else none: one known name is a person the history knows, and the
    others may be words it says otherwise: "June", "Formula 1", a German noun)."""
    names = named(question)
    return names if names and not any(history.mentions(name) for name in names) else []
