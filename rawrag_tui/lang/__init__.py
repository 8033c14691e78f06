"""Language-specific help, one module per language, chosen per text by :func:`detect`.

The answer path (evidence selection, packing, the answer checks) matches
words, finds dates and reads questions. What only makes sense in one
language (English stop words and stemming, "yesterday" and "last week",
"3 May", a question starting "When") lives in that language's module here
and runs only on text detected to be in it; everything else is the
language-neutral :class:`~.base.Language` (words cut to a prefix, CJK runs
as character bigrams, ISO dates). ``tests/test_language_lists.py`` checks
that no module of the answer path outside this package holds a word list or
a regex with words in it.

:func:`detect` is cheap and per text, by script first: any kana is Japanese;
other CJK text (Han, Hangul), when its characters are at least as many as its
Latin words, is Chinese (Han) or undetermined (Hangul: no module yet). Latin
text is English unless it holds more function words of German, Spanish,
Portuguese or French (lang/latin.py) than of English (:data:`.en.SIGNALS`):
then it is the language with the most of them where that one has a module
(German, lang/de.py), else undetermined: "Me mudé a Braga el mes pasado" is
undetermined, "Ich bin nach Hamburg gezogen" German, "Ok, 3pm!" English (what
every Latin text was before there were language modules). Undetermined
text, and other scripts, get the neutral behaviour. A new language is a
module with a :class:`~.base.Language` subclass and a line in :data:`REGISTRY`
(and, for a Latin-script one, its signal words move from lang/latin.py into it).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Sequence

from ..storage.cjk import has_cjk
from . import de, en, ja, zh
from . import latin as latin_signals
from .base import EMAIL, MONEY_SIGN, PHONE, WORD, Language, iso_dates, long_date

__all__ = ["EMAIL", "PHONE", "REGISTRY", "Language", "annotate", "asks_about_earlier", "asks_about_now",
           "asks_about_past", "asks_closed", "asks_first", "asks_when", "asks_yes_no", "calls_off", "cancelled",
           "dates_in", "days_written", "denies", "detect", "ends", "get", "hedges",
           "kinds_asked", "knows_pronouns", "long_date", "message_date", "money_patterns", "of", "planned_dates",
           "query_terms", "says_no", "speaks_of_self", "speaks_to", "stated_days", "subject_terms", "term_spans",
           "word_stems", "writes_day"]

NEUTRAL = Language()
REGISTRY: dict[str, Language] = {"en": en.LANGUAGE, "zh": zh.LANGUAGE, "ja": ja.LANGUAGE, "de": de.LANGUAGE}

_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
#: A letter of neither the Latin script nor CJK (Cyrillic, Greek, Arabic...).
_OTHER_LETTER = re.compile(r"[^\W\d_A-Za-z\u00c0-\u024f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
                           r"\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\uff66-\uff9f]")
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:['’][A-Za-z]+)?")


def detect(text: str) -> str:
    """The language code of ``text`` (a key of :data:`REGISTRY`), or "und" (see the module's doc)."""
    latin = [w.lower().replace("’", "'") for w in _LATIN_WORD.findall(text)]
    if has_cjk(text):
        kana, han, hangul = len(_KANA.findall(text)), len(_HAN.findall(text)), len(_HANGUL.findall(text))
        if kana + han + hangul >= len(latin):
            if kana:
                return "ja"
            return "zh" if han >= hangul else "und"
    if not latin or _OTHER_LETTER.search(text):
        words = [w for w in WORD.findall(text) if not w.isdigit()]
        if not latin or len(latin) * 2 < len(words):
            return "und" if words else "en"
    english = sum(w in en.SIGNALS for w in latin)
    counts = {code: sum(w in signals for w in latin) for code, signals in latin_signals.SIGNALS.items()}
    likeliest = max(counts, key=counts.__getitem__)
    if counts[likeliest] <= english:
        return "en"
    # The likeliest other language, where it has a module and no other ties with it; else undetermined.
    tied = any(n == counts[likeliest] for code, n in counts.items() if code != likeliest)
    return likeliest if likeliest in REGISTRY and not tied else "und"


def get(code: str) -> Language:
    return REGISTRY.get(code, NEUTRAL)


def of(text: str) -> Language:
    """The module for ``text``'s language (the neutral one when undetermined)."""
    return get(detect(text))


# -- words ------------------------------------------------------------------------

def word_stems(text: str) -> set[str]:
    """Every term of ``text``, in its language's matching form."""
    language = of(text)
    if not has_cjk(text):  # the common case, without the token tuples
        return {language.stem(w.lower()) for w in WORD.findall(text)}
    return {term for *_, term in language.tokens(text)}


def query_terms(text: str) -> set[str]:
    """``text``'s content terms: its language's stop words and single letters left out (single digits kept)."""
    language = of(text)
    return {term for _, _, word, term in language.tokens(text) if language.is_content(word)}


def subject_terms(question: str) -> set[str]:
    """A question's content terms and the parts of its compound words (German
    "einweihungsparty" also finds the "Party" a message names): the terms a
    message must share with it to be on its subject."""
    language = of(question)
    terms = set()
    for _, _, word, term in language.tokens(question):
        if language.is_content(word):
            terms.add(term)
            terms |= language.parts(word)
    return terms


def term_spans(terms: set[str], text: str) -> list[tuple[int, int]]:
    """Character spans of the terms of ``text`` that are among ``terms``."""
    return [(start, end) for start, end, _, term in of(text).tokens(text) if term in terms]


def when_words(question: str) -> frozenset[str]:
    """The stems of ``question``'s language's words asking "when" (they name no subject)."""
    return of(question).when_words


def name_words(question: str) -> frozenset[str]:
    """The stems of ``question``'s language's words asking what someone is called (no subject)."""
    return of(question).name_words


def value_words(question: str) -> frozenset[str]:
    """The stems of ``question``'s language's words asking for a value (they name no subject)."""
    return of(question).value_words


# -- dates and questions --------------------------------------------------------------

def message_date(timestamp: str | None) -> dt.date | None:
    if not timestamp:
        return None
    try:
        return dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def annotate(text: str, timestamp: str | None) -> str:
    """``text`` with each relative time its language's module knows followed by the date it meant."""
    day = message_date(timestamp)
    return text if day is None else of(text).annotate(text, day)


def dates_in(text: str, timestamp: str | None, annotated: str | None = None) -> list[str]:
    """The dates ``text`` states, in the order it states them, each with its year
    (``annotated``: ``text`` with its relative times resolved, when already made)."""
    body = annotate(text, timestamp) if annotated is None else annotated
    found = of(text).stated_dates(body, message_date(timestamp)) + iso_dates(body)
    return [what for _, what in sorted(found)]


def planned_dates(text: str, timestamp: str | None, annotated: str | None = None,
                  stated: Sequence[str] | None = None) -> list[str]:
    """The dates ``text`` states (:func:`dates_in`, or ``stated`` when already found)
    that lie after the day it was sent: plans ("the wedding moves to Sunday 11
    October", written in June), not reports of what happened ("yesterday (7 May
    2023)", "last year (2022)")."""
    sent = message_date(timestamp)
    if sent is None:
        return []
    language = of(text)
    found = dates_in(text, timestamp, annotated) if stated is None else stated
    return [d for d in found if (day := language.day_of(d)) is not None and day > sent]


def days_written(text: str, near: dt.date) -> list[tuple[int | None, int, int]]:
    """The calendar days ``text`` writes itself, no relative time resolved, as
    (year, or None where it writes none; month; day); ``near`` only places a
    date written without a year, whose year is then dropped. An answer's
    dates, to be told apart from those of a message in another language by
    day, not by digits: "6 June 2025" holds the 6 of "6月3日" and is not it."""
    language = of(text)
    digits = unicodedata.normalize("NFKC", text)
    days = []
    for _, stated in sorted(language.stated_dates(text, near) + iso_dates(text)):
        if (day := language.day_of(stated)) is not None:
            days.append((day.year if str(day.year) in digits else None, day.month, day.day))
    return days


def stated_days(text: str, stated: Sequence[str]) -> frozenset[dt.date]:
    """The days of the dates ``text`` states (``stated``, :func:`dates_in`), and
    of the dates written inside them ("the week before 9 June 2023" is 2 June
    and names 9 June): what an answer's :func:`days_written` may be."""
    language = of(text)
    days = set()
    for date in stated:
        if (day := language.day_of(date)) is not None:
            days.add(day)
            days.update(d for _, inner in language.stated_dates(date, day) + iso_dates(date)
                        if (d := language.day_of(inner)) is not None)
    return frozenset(days)


def writes_day(days: Iterable[dt.date], written: tuple[int | None, int, int]) -> bool:
    """Whether one of ``days`` is the ``written`` day (its year only where written)."""
    year, month, day = written
    return any(d.month == month and d.day == day and (year is None or d.year == year) for d in days)


def kinds_asked(question: str) -> frozenset[str]:
    """The kinds of value ``question`` asks for, in its own language's words (``phone``, ``email``)."""
    return of(question).kinds_asked(question)


def asks_first(question: str) -> bool:
    """Whether ``question`` asks for the first state of all, in its own language's words."""
    return of(question).asks_first(question)


def calls_off(text: str) -> bool:
    """Whether ``text`` calls a plan off, in its own language's words."""
    return of(text).calls_off(text)


def hedges(text: str) -> bool:
    """Whether ``text`` only floats what it says ("May, maybe."), in its own language's words."""
    return of(text).hedges(text)


def speaks_of_self(text: str) -> bool:
    """Whether ``text``'s writer speaks of themself, not to the one they write to, in its own
    language's words (False where its module knows none)."""
    return of(text).speaks_of_self(text)


def speaks_to(text: str) -> bool:
    """Whether ``text`` is written to the one it is sent to, in its own language's words
    ("you", "du", "你"; False where its module knows none)."""
    return of(text).speaks_to(text)


def knows_pronouns(text: str) -> bool:
    """Whether ``text``'s language module knows how a writer names themself and the one
    they write to (``self_pattern``, ``addressee_pattern``)."""
    language = of(text)
    return language.self_pattern is not None and language.addressee_pattern is not None


def cancelled(question: str) -> str:
    """How an answer to ``question`` says its plan was called off, in the question's language
    ("" where its module says nothing)."""
    return of(question).cancelled


def ends(text: str, question: str = "") -> bool:
    """Whether ``text`` says a state ended, in its own language's words or those of
    ``question``'s language (a German question over an English line)."""
    return of(text).ends(text) or (bool(question) and of(question).ends(text))


def says_no(question: str) -> str:
    """How an answer to the yes-or-no ``question`` says no, in the question's language
    ("" where its module says nothing)."""
    return of(question).no


def asks_when(question: str) -> bool:
    return of(question).asks_when(question)


def asks_closed(question: str) -> bool:
    """Whether ``question`` is answered yes or no, whatever its tense, in its own language's form."""
    return of(question).asks_closed(question)


def asks_yes_no(question: str) -> bool:
    """Whether ``question`` is answered yes or no, in its own language's form."""
    return of(question).asks_yes_no(question)


def denies(question: str, answer: str) -> bool:
    """Whether ``answer`` to ``question`` says no: in the question's language's words or in
    English, which a reader often answers in."""
    return of(question).denies(answer) or REGISTRY["en"].denies(answer)


def asks_about_past(question: str) -> bool:
    """Whether ``question`` asks about an earlier state or what happened, in its own language's words."""
    return of(question).asks_about_past(question)


def asks_about_earlier(question: str) -> bool:
    """Whether ``question`` names a state earlier than the latest, in its own language's words."""
    return of(question).asks_about_earlier(question)


def says_now(question: str) -> bool:
    """Whether ``question`` writes a word of its language that asks whether a state goes
    on ("now", "still", "jetzt", 现在, まだ: ``Language.continuation``)."""
    return bool(of(question).continuation_terms(question))


def asks_about_now(question: str) -> bool:
    """Whether ``question`` can only be answered knowing today's date."""
    return of(question).asks_about_now(question)


def money_patterns(texts: Iterable[str]) -> list[re.Pattern[str]]:
    """Money with a currency sign, plus the written forms of the languages of ``texts``."""
    patterns = [MONEY_SIGN]
    for code in {detect(t) for t in texts}:
        patterns.extend(get(code).money())
    return patterns
