"""What a language module offers the answer path, and what holds in every language.

:class:`Language` is the language-neutral behaviour: words are ``\\w`` runs
cut to a five-character prefix (no stemming rules), a run of Chinese,
Japanese or Korean text is its overlapping character bigrams (the way the
lexical channel indexes it, storage/cjk.py), the only stated dates are ISO
ones (2026-05-03) and nothing is known about which words ask "when". A
language module subclasses it and overrides only what that language needs;
each runs only on text :func:`~rawrag_tui.lang.detect` says is in it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import ClassVar

from ..storage.cjk import CJK_RUN, has_cjk

WORD = re.compile(r"\w+", re.UNICODE)
_ISO = re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b")
#: Money written with a currency sign, in any language ("£40", "€ 12,50", "¥3000").
MONEY_SIGN = re.compile(r"[£$€¥₩]\s?\d[\d,]*(?:\.\d+)?")


def long_date(d: dt.date) -> str:
    """``8 May 2023``: the one way dates are written for the reader (evidence
    lines, resolved relative times, the question's date, stated dates)."""
    return f"{d.day} {d.strftime('%B %Y')}"


def shift_month(d: dt.date, months: int) -> dt.date:
    """The first day of the month ``months`` after ``d``'s (before it where negative):
    what "next month", "下个月" and "vor zwei Monaten" resolve to."""
    index = d.year * 12 + d.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def written_after(text: str, meanings: list[tuple[int, str]], form: str = " ({})") -> str:
    """``text`` with each meaning written right after the position given with it
    (``form``: how, " (9 March 2026)", or in full-width brackets for Chinese and Japanese):
    what every language's ``annotate`` does with the relative times it found.
    The stored text is never changed; this is how the reader sees it."""
    out, last = [], 0
    for end, meaning in sorted(meanings):
        out.append(text[last:end] + form.format(meaning))
        last = end
    out.append(text[last:])
    return "".join(out)


#: A date as :func:`long_date` writes it, and the month names it writes.
_LONG_DATE = re.compile(r"(?P<d>\d{1,2}) (?P<m>\w+) (?P<y>\d{4})")
_LONG_MONTHS = tuple(dt.date(2000, n, 1).strftime("%B") for n in range(1, 13))


def long_date_day(text: str) -> dt.date | None:
    """The date ``text`` writes as :func:`long_date` does (``8 May 2023``); None for anything else."""
    m = _LONG_DATE.fullmatch(text.strip())
    if m is None:
        return None
    if m["m"] not in _LONG_MONTHS:
        return None
    try:
        return dt.date(int(m["y"]), _LONG_MONTHS.index(m["m"]) + 1, int(m["d"]))
    except ValueError:
        return None


def cjk_grams(run: str) -> list[str]:
    """A CJK run's terms: its overlapping bigrams (the character itself when the run is one long)."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def year_near(day: int, month: int, sent: dt.date, weekday: int | None = None) -> dt.date | None:
    """The day-month a message sent on ``sent`` means (a plan or a memory, within the year around it).

    The coming one, unless the one gone by is less than half as far: a day
    and month written without a year are more often a plan than a memory ("We've
    got a venue! Trevenna Barns, 20 December", written in May 2025, is
    December 2025, not the nearer December 2024; "Abfahrt am 2. August",
    written in January, is the coming August), and one just gone is a memory
    ("on 3 May", written on 8 June).
    A ``weekday`` written with it (0 is Monday) decides instead: where the
    nearest date does not fall on it but the same day-month within the coming
    year does, that coming one ("save the date: Saturday 15 November", sent
    in April 2025, is 2025's Saturday); a weekday that only a past year
    agrees with is taken for a slip of the writer's, and the nearest stays."""
    candidates = []
    for year in (sent.year - 1, sent.year, sent.year + 1):
        try:
            candidates.append(dt.date(year, month, day))
        except ValueError:
            continue
    if not candidates:
        return None
    best = min(candidates, key=lambda c: abs((c - sent).days))
    if weekday is not None:
        if best.weekday() != weekday:
            ahead = [c for c in candidates if c.weekday() == weekday and sent <= c <= sent + dt.timedelta(days=366)]
            if ahead:
                return ahead[0]
        return best
    coming = next((c for c in candidates if c >= sent), None)
    if best < sent and coming is not None and 2 * (sent - best).days >= (coming - sent).days:
        return coming
    return best


def stated_day(day: int, month: int, year: int | str | None, sent: dt.date | None,
               weekday: int | None = None) -> dt.date | None:
    """The date a message states as ``day`` ``month`` (``year`` when it writes one, else
    the year that puts it nearest ``sent``, :func:`year_near`, which ``weekday``, when
    the message writes one, can move to the coming year); None when it is no date or
    nothing dates it."""
    if year:
        try:
            return dt.date(int(year), month, day)
        except ValueError:
            return None
    return year_near(day, month, sent, weekday) if sent is not None else None


#: The kinds of value a question can ask for that every language writes alike
#: (the names :attr:`Language.kind_patterns` and answer/values.py share).
PHONE, EMAIL = "phone", "email"


class Language:
    """Language-neutral defaults; a language module overrides what it knows."""

    code = "und"
    #: Words that name nothing (the lexical and subject matching leave them out), as written.
    stopwords: frozenset[str] = frozenset()
    #: Stems of question words that ask "when" and name no subject.
    when_words: frozenset[str] = frozenset()
    #: Stems of question words that ask for a value (a time, a number) and name no subject.
    value_words: frozenset[str] = frozenset()
    #: Stems of question words that ask what someone or something is called ("name", "called",
    #: "heißt", "名字", "名前"): they name no subject either.
    name_words: frozenset[str] = frozenset()

    def stem(self, word: str) -> str:
        """A word's matching form: its first five characters (``word`` is lower case)."""
        return word[:5]

    def name_forms(self, word: str) -> frozenset[str]:
        """The terms a question in this language names a person by whose name is
        ``word`` (one word of it, lower case): the name's own term, where the
        language marks a possessive with an apostrophe ("Priya's") or a particle
        ("王芳的", "美咲の")."""
        return frozenset({self.stem(word)})

    def name_terms(self, name: str) -> set[str]:
        """Every term by which a question in this language names the person called
        ``name`` (each of its words' :meth:`name_forms`, beside its own term)."""
        return {form for _, _, word, term in self.tokens(name) for form in self.name_forms(word) | {term}}

    def tokens(self, text: str) -> Iterator[tuple[int, int, str, str]]:
        """(start, end, word, term) for each term of ``text``: a CJK run gives its
        bigrams (word and term alike), every other word its lower case and its stem."""
        if not has_cjk(text):  # most text: no word to split
            for m in WORD.finditer(text):
                word = m.group().lower()
                yield m.start(), m.end(), word, self.stem(word)
            return
        for m in WORD.finditer(text):
            word, base, last = m.group(), m.start(), 0
            for run in CJK_RUN.finditer(word):
                if run.start() > last:
                    part = word[last : run.start()].lower()
                    yield base + last, base + run.start(), part, self.stem(part)
                for i, gram in enumerate(cjk_grams(run.group())):
                    yield base + run.start() + i, base + run.start() + i + len(gram), gram, gram
                last = run.end()
            if last < len(word):
                part = word[last:].lower()
                yield base + last, m.end(), part, self.stem(part)

    def parts(self, word: str) -> frozenset[str]:
        """Terms for the parts of a question's compound ``word`` (lower case), beside
        its own: none, where a language does not write compounds as one word."""
        return frozenset()

    def is_content(self, word: str) -> bool:
        """Whether ``word`` (lower case, unstemmed) can name what a question is about."""
        return word not in self.stopwords and (len(word) > 1 or word.isdigit() or not word.isascii())

    def annotate(self, text: str, day: dt.date) -> str:
        """``text`` with each relative time followed by the date it meant; no rule: unchanged."""
        return text

    def stated_dates(self, body: str, sent: dt.date | None) -> list[tuple[int, str]]:
        """(position, date) of each date ``body`` states in this language's own words."""
        return []

    def day_of(self, stated: str) -> dt.date | None:
        """The first day of a date as :meth:`stated_dates` or :meth:`annotate`
        writes it (``8 May 2023``); None when it is not one."""
        return long_date_day(stated)

    # What a question asks, told by a module's patterns (None: never).
    #: A question asking when.
    when_pattern: re.Pattern[str] | None = None
    #: A question about now, or about a time counted from now.
    now_pattern: re.Pattern[str] | None = None
    #: A question that names a state earlier than the latest ("before she moved", "之前").
    earlier_pattern: re.Pattern[str] | None = None
    #: Of those, one that asks for the first state of all ("first set for", "originally",
    #: "ursprünglich", "最早", "最初"), not the one just before the latest.
    first_pattern: re.Pattern[str] | None = None
    #: A question about what happened, beside the earlier states (the English simple past).
    past_pattern: re.Pattern[str] | None = None
    #: A question to be answered yes or no ("Is Tiago still dating Sofia?", "还住在成都吗").
    yes_no_pattern: re.Pattern[str] | None = None
    #: Beside those, a question answered yes or no about the past or a hypothetical ("Did
    #: Melanie make the bowl?", "Would she enjoy Vivaldi?"): no state now to read again, but its
    #: "Yes" is no value taken from a line either.
    closed_pattern: re.Pattern[str] | None = None
    #: The words that ask whether a state goes on ("still", "noch", "还", "まだ"): no subject.
    continuation: frozenset[str] = frozenset()
    #: The same asked in several words ("these days", "im Moment"), lower case, word by word.
    continuation_phrases: tuple[tuple[str, ...], ...] = ()
    #: An answer that says no ("No", "doesn't", "nicht", "不是", "いいえ").
    negation_pattern: re.Pattern[str] | None = None
    #: An amount of money in this language's words ("40 pounds").
    money_pattern: re.Pattern[str] | None = None
    #: A message calling a plan off ("I've called off the 40th", "今回は中止にします").
    cancel_pattern: re.Pattern[str] | None = None
    #: A message saying a state ended: a job left, a couple split up, a place moved out of,
    #: a habit given up ("I left Aer Lingus in January", "Sofia and I split up", "kein Zalando mehr").
    end_pattern: re.Pattern[str] | None = None
    #: A message that only floats a plan, hedged ("May, maybe.", "vielleicht im Mai", "也许五月",
    #: "五月かも"): a day it names is no new plan of a called-off one.
    hedge_pattern: re.Pattern[str] | None = None
    #: How an answer says a plan was called off, in this language (empty: none is said).
    cancelled = ""
    #: How an answer says no to a yes-or-no question, in this language (empty: none is said).
    no = ""
    #: The writer speaking of themself, in the singular ("I", "my", "ich", "我", "私"; not "we",
    #: which may include the person asked about).
    self_pattern: re.Pattern[str] | None = None
    #: The one written to ("you", "du", "你", "あなた"): a line that speaks to them may be about them.
    addressee_pattern: re.Pattern[str] | None = None
    #: A question asking for a value of a kind every language writes alike, by
    #: the kind's name (:data:`PHONE`, :data:`EMAIL`: answer/values.py).
    kind_patterns: ClassVar[dict[str, re.Pattern[str]]] = {}

    @staticmethod
    def _says(pattern: re.Pattern[str] | None, question: str) -> bool:
        return bool(pattern and pattern.search(question))

    def asks_when(self, question: str) -> bool:
        """Whether ``question`` asks for a date."""
        return self._says(self.when_pattern, question)

    def asks_yes_no(self, question: str) -> bool:
        """Whether ``question`` is answered yes or no ("Does Hannah still live in York?")."""
        return self._says(self.yes_no_pattern, question)

    def asks_closed(self, question: str) -> bool:
        """Whether ``question`` is answered yes or no, whatever its tense (:meth:`asks_yes_no`,
        or :attr:`closed_pattern`): the answer checks that judge a value's source leave it alone."""
        return self.asks_yes_no(question) or self._says(self.closed_pattern, question)

    def denies(self, answer: str) -> bool:
        """Whether ``answer`` says no, in this language's words."""
        return self._says(self.negation_pattern, answer)

    def _continuing(self, question: str) -> list[tuple[int, int, str, str]]:
        """The tokens of ``question`` that only ask whether a state goes on: a word of
        :data:`continuation`, one of a run of words that is a :data:`continuation_phrases`,
        or a CJK bigram holding such a word."""
        tokens = list(self.tokens(question))
        words = [word.lower() for _, _, word, _ in tokens]
        phrased: set[int] = set()
        for phrase in self.continuation_phrases:
            for i in range(len(words) - len(phrase) + 1):
                if tuple(words[i:i + len(phrase)]) == phrase:
                    phrased.update(range(i, i + len(phrase)))
        return [t for i, t in enumerate(tokens) if t[2] in self.continuation or i in phrased
                or (has_cjk(t[3]) and any(w in t[3] for w in self.continuation))]

    def continuation_terms(self, question: str) -> set[str]:
        """The terms of ``question`` that only ask whether a state goes on (:data:`continuation`:
        "still" in "Is she still in York?", "these days"; a CJK bigram holding 还 or まだ)."""
        return {term for _, _, _, term in self._continuing(question)}

    def continuation_spans(self, question: str) -> list[tuple[int, int]]:
        """Where ``question`` writes a whole word of :data:`continuation` ("now" in "Where
        does Ines live now?") or a phrase of :data:`continuation_phrases`. None in CJK text:
        with no segmenter, 今 of 今日 or 还 of 还是 cannot be told from the word, and a cut
        inside a run loses a character of the subject (answer/history.py, ``without_names``)."""
        if has_cjk(question):
            return []
        return [(start, end) for start, end, _, _ in self._continuing(question)]

    def asks_about_now(self, question: str) -> bool:
        """Whether ``question`` needs today's date to be answered ("how long ago", "this week")."""
        return self._says(self.now_pattern, question)

    def asks_about_past(self, question: str) -> bool:
        """Whether ``question`` asks about an earlier state ("before she moved", "at first"),
        or about what happened (the simple past, where the language marks it): then every
        version of a fact is shown and none is marked latest (answer/timeline.py)."""
        return self.asks_about_earlier(question) or self._says(self.past_pattern, question)

    def asks_about_earlier(self, question: str) -> bool:
        """Whether ``question`` names a state earlier than the latest ("before she moved",
        "originally"): then the latest statement is the wrong answer (answer/checks)."""
        return self._says(self.earlier_pattern, question)

    def asks_first(self, question: str) -> bool:
        """Whether ``question`` asks for the first state of all ("What date was it first set
        for?"): the earliest statement is the answer, not a later one that was replaced too."""
        return self._says(self.first_pattern, question)

    def calls_off(self, text: str) -> bool:
        """Whether ``text`` calls a plan off, in this language's words."""
        return self._says(self.cancel_pattern, text)

    def hedges(self, text: str) -> bool:
        """Whether ``text`` only floats what it says, in this language's words ("maybe")."""
        return self._says(self.hedge_pattern, text)

    def ends(self, text: str) -> bool:
        """Whether ``text`` says a state ended, in this language's words."""
        return self._says(self.end_pattern, text)

    def speaks_of_self(self, text: str) -> bool:
        """Whether ``text``'s writer speaks of themself and not to the one they write to
        (:attr:`self_pattern` and no :attr:`addressee_pattern`): "I need to be in
        Bristol with him" is the writer's own fact; "How's Glasgow?" and "I loved
        your flat" may be about the other. False where the module knows no such words."""
        return self._says(self.self_pattern, text) and not self._says(self.addressee_pattern, text)

    def speaks_to(self, text: str) -> bool:
        """Whether ``text`` is written to the one it is sent to (:attr:`addressee_pattern`:
        "How's Glasgow?" has no such word, "How's your flat?" has). False where the module
        knows no such words."""
        return self._says(self.addressee_pattern, text)

    #: A question the small reader misreads, and the words that say what it asks,
    #: written before its question mark in the reader's prompt (:meth:`for_reader`).
    reader_hints: ClassVar[tuple[tuple[re.Pattern[str], str], ...]] = ()

    def for_reader(self, question: str) -> str:
        """``question`` as the reader's prompt gives it: with the words of the first of
        :attr:`reader_hints` whose pattern it matches, in parentheses before its closing
        question mark. Only the prompt: the search and the checks read the question as asked."""
        for pattern, words in self.reader_hints:
            if pattern.search(question):
                body = question.rstrip()
                mark = body[-1] if body.endswith(("?", "？")) else ""
                return f"{body[:len(body) - len(mark)].rstrip()} ({words}){mark}"
        return question

    def kinds_asked(self, question: str) -> frozenset[str]:
        """The kinds of value ``question`` asks for (:attr:`kind_patterns`)."""
        return frozenset(kind for kind, pattern in self.kind_patterns.items() if pattern.search(question))

    def money(self) -> list[re.Pattern[str]]:
        """Patterns for an amount of money written in this language's words ("40 pounds")."""
        return [self.money_pattern] if self.money_pattern else []


def iso_dates(body: str) -> list[tuple[int, str]]:
    """(position, date) of each ISO date in ``body``: every language writes them the same way."""
    found = []
    for m in _ISO.finditer(body):
        try:
            day = dt.date(int(m["y"]), int(m["m"]), int(m["d"]))
        except ValueError:
            continue
        found.append((m.start(), long_date(day)))
    return found
