"""English: its stop words and light stem, relative dates, stated dates, "when" questions.

Everything here runs only on text :func:`~rawrag_tui.lang.detect` takes for
English. Relative times are resolved against the message's own date:
"I lost my job yesterday", written on 20 January 2023, means 19 January 2023.
A small reader copies "yesterday" into its answer instead of working that
out, so the evidence says it for it: the phrase keeps its words and gains the
date it meant, in parentheses (``yesterday (19 January 2023)``). The forms
follow the way people (and LoCoMo's gold answers) state such dates: an exact
day where the phrase names one, "the week before 8 May 2023" where it names
a week, a month or a year where it names those.
"""

from __future__ import annotations

import datetime as dt
import re

from .base import EMAIL, PHONE, Language, long_date, long_date_day, shift_month, stated_day, written_after

#: Function words no layer takes for a question's subject: highlighting,
#: evidence selection and the answer checks leave them out of a question.
STOPWORDS = frozenset(
    "a an and are as at be by did do does for from had has have he her his how i in is it its me my now of on or "
    "our she so that the their them they this to was we were what when where which who why will with you your".split()
)

#: What the lexical channel also leaves out of a query. Its reason is cost,
#: not meaning: FTS5 scores every window a term matches before it takes the
#: best N, so each such word read most of a 200,000-window store. The answer
#: path keeps these: "before", "after", "not", "no longer" and "more" shape
#: which message a question is about (dropping them there changed the
#: evidence of 27 of 398 LoCoMo conv-26 question-and-budget cases).
LEXICAL_STOPWORDS = STOPWORDS | frozenset("""
about above after again all am any been before being below between both but can could d doing down during each
few further having here hers herself him himself if into itself just ll m more most myself no nor not off once
only other ours ourselves out over own re s same should some such t than theirs themselves then there these those
through too under until up ve very while whom would yours yourself yourselves
""".split())

#: Common English words its Latin-script neighbours (German, Spanish,
#: Portuguese, French) do not share: one of them in a text is the sign that it
#: is English (see lang/__init__.py). Time words are here too, so a short
#: line such as "Last year I painted a sunrise" is read as English.
SIGNALS = frozenset(
    "the and is are were you your my with for that this what when where which who have has had would i it "
    "not but it's i'm don't can't i'll we'll you're they're that's let's of to at we they she his him our their "
    "been does did from just some any more really thanks great cool wow awesome sounds love "
    "yesterday today tomorrow tonight last next ago week weekend month year morning evening night".split()
)

#: Endings taken off before the prefix is cut, longest first; what is left
#: keeps at least three letters ("news" stays a word, "bus" is not "bu").
_SUFFIXES = ("ings", "ing", "edly", "ed", "ies", "es", "ly", "s", "e")


def stem(word: str) -> str:
    """A light English stem: common endings off, a doubled last consonant
    undone, then the first five letters. "live", "lived" and "living" meet
    ("liv"), as do "move"/"moving", "aim"/"aiming", "run"/"running" and
    "wedding"/"weddings"; a five-letter prefix alone kept "live" and
    "livin" apart, and a question about where someone lives found no
    message saying "Living in Lisbon"."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            if suffix in ("ing", "ings", "ed", "edly") and len(word) > 3 and word[-1] == word[-2] \
                    and word[-1] not in "lsz":
                word = word[:-1]
            break
    return word[:5]


def _stems(words: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words.split())


# -- relative dates ------------------------------------------------------------

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3, "couple of": 2, "few": 3}

_AGO = re.compile(
    r"\b(?P<n>\d+|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?P<unit>day|week|month|year)s?\s+ago\b", re.IGNORECASE)
_PHRASE = re.compile(
    r"\b(?:(?P<fixed>the day before yesterday|yesterday|last night|tonight|today|this morning|this afternoon|"
    r"this evening|tomorrow)"
    r"|(?P<rel>last|next|this|past)\s+(?P<what>week(?:end)?|month|year|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday))\b", re.IGNORECASE)

#: "the 8th" with no month: a day of the coming month ("Wedding's in three
#: weeks, are you still good for the 8th?"); not "the 8th of May" (a stated
#: date) nor "the 3rd time", "the 40th".
_DAY_OF_MONTH = re.compile(r"\bthe (?P<day>[12]?\d|3[01])(?:st|nd|rd|th)\b(?!\s*(?:of\b|[^\W\d_]))",
                           re.IGNORECASE)
#: A verb in the past tense: a day of the month told "on the 19th" after one in
#: the same sentence is the last such day ("The op went fine on the 19th", sent
#: on 6 July, is 19 June), not the coming one. Not "booked" or "moved", and
#: not "to"/"for the 8th": a plan made in the past for a day to come ("it was
#: moved to the 8th").
_PAST_TENSE = re.compile(r"\b(?:was|were|went|did|happened|passed|finished|ended|arrived|landed)\b",
                         re.IGNORECASE)
_ON = re.compile(r"\bon\s+$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?]\s")


def _month(d: dt.date) -> str:
    return d.strftime("%B %Y")


def _fixed(phrase: str, d: dt.date) -> str:
    phrase = phrase.lower()
    if phrase == "the day before yesterday":
        return long_date(d - dt.timedelta(days=2))
    if phrase in ("yesterday", "last night"):
        return long_date(d - dt.timedelta(days=1))
    if phrase == "tomorrow":
        return long_date(d + dt.timedelta(days=1))
    return long_date(d)  # today, tonight, this morning...


def _relative(rel: str, what: str, d: dt.date) -> str | None:
    rel, what = rel.lower(), what.lower()
    if what in _WEEKDAYS:
        target = _WEEKDAYS.index(what)
        if rel in ("last", "past"):
            back = (d.weekday() - target) % 7 or 7
            return long_date(d - dt.timedelta(days=back))
        if rel == "next":
            ahead = (target - d.weekday()) % 7 or 7
            return long_date(d + dt.timedelta(days=ahead))
        ahead = (target - d.weekday()) % 7  # "this Friday": the coming one (or today)
        return long_date(d + dt.timedelta(days=ahead))
    if what == "week":
        return {"last": f"the week before {long_date(d)}", "past": f"the week before {long_date(d)}",
                "next": f"the week after {long_date(d)}", "this": f"the week of {long_date(d)}"}[rel]
    if what == "weekend":
        return {"last": f"the weekend before {long_date(d)}", "past": f"the weekend before {long_date(d)}",
                "next": f"the weekend after {long_date(d)}", "this": f"the weekend of {long_date(d)}"}[rel]
    if what == "month":
        return _month(shift_month(d, {"last": -1, "past": -1, "next": 1, "this": 0}[rel]))
    if what == "year":
        return str(d.year + {"last": -1, "past": -1, "next": 1, "this": 0}[rel])
    return None


#: How far ahead a day named without a month may be read (the longest month).
_DAY_OF_MONTH_AHEAD = 31


def _next_day_of_month(day: int, d: dt.date) -> str | None:
    """The first date on or after ``d`` that is the ``day``-th of its month: a
    day named without a month is a plan, unless its sentence tells it in the
    past tense (:func:`_told_as_past`: then :func:`_last_day_of_month`).

    None where that date is more than a month ahead: "the 29th" sent on 2
    February (no 29th that month) is the 29th of January as often as of
    March ("Did you last the whole month?" "Till the 29th."), and a guess two
    months out put a dry January's end among a knee operation's dates."""
    first = dt.date(d.year, d.month, 1)
    for months in range(3):  # the 31st may skip a month
        start = shift_month(first, months)
        try:
            found = start.replace(day=day)
        except ValueError:
            continue
        if found >= d:
            return long_date(found) if (found - d).days <= _DAY_OF_MONTH_AHEAD else None
    return None


def _last_day_of_month(day: int, d: dt.date) -> str | None:
    """The last date on or before ``d`` that is the ``day``-th of its month."""
    first = dt.date(d.year, d.month, 1)
    for months in range(3):
        start = shift_month(first, -months)
        try:
            found = start.replace(day=day)
        except ValueError:
            continue
        if found <= d:
            return long_date(found)
    return None


def _told_as_past(text: str, at: int) -> bool:
    """Whether the day at ``at`` is told "on" it, after a past-tense verb of its sentence."""
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, at)), default=0)
    return bool(_ON.search(text[start:at]) and _PAST_TENSE.search(text, start, at))


def _ago(n: int, unit: str, d: dt.date) -> str:
    unit = unit.lower()
    if unit == "day":
        return long_date(d - dt.timedelta(days=n))
    if unit == "week":
        return f"the week of {long_date(d - dt.timedelta(weeks=n))}"
    if unit == "month":
        return _month(shift_month(d, -n))
    return str(d.year - n)


def annotate(text: str, day: dt.date) -> str:
    """``text`` with each relative time followed by the date it meant, in parentheses."""
    spans: list[tuple[int, int, str]] = []
    for m in _AGO.finditer(text):
        spans.append((m.start(), m.end(), _ago(_NUMBERS.get(m["n"].lower()) or int(m["n"]), m["unit"], day)))
    for m in _PHRASE.finditer(text):
        if any(s <= m.start() < e for s, e, _ in spans):
            continue
        meaning = _fixed(m["fixed"], day) if m["fixed"] else _relative(m["rel"], m["what"], day)
        if meaning:
            spans.append((m.start(), m.end(), meaning))
    for m in _DAY_OF_MONTH.finditer(text):
        resolve = _last_day_of_month if _told_as_past(text, m.start()) else _next_day_of_month
        meaning = resolve(int(m["day"]), day) if int(m["day"]) else None
        if meaning:
            spans.append((m.start(), m.end(), meaning))
    return written_after(text, [(end, meaning) for _start, end, meaning in sorted(spans)])


# -- stated dates -------------------------------------------------------------

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MONTH = r"(?P<{0}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|" \
         r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
#: What :data:`_WEEKDAY` captures of each weekday's name, Monday first.
_WEEKDAY_STEMS = ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")
_WEEKDAY = rf"(?:(?P<wd>{'|'.join(_WEEKDAY_STEMS)})day,?\s+(?:the\s+)?)?"
_ORD = r"(?:st|nd|rd|th)?"
#: "Saturday 3 May", "3rd of May 2026", "May 3", "May 3rd, 2026".
_DATE = re.compile(
    r"\b(?:" + _WEEKDAY + r"(?P<d1>\d{1,2})" + _ORD + r"(?:\s+of)?\s+" + _MONTH.format("m1")
    + r"(?:,?\s+(?P<y1>\d{4}))?"
    + r"|" + _WEEKDAY.replace("wd", "wd2") + _MONTH.format("m2") + r"\s+(?P<d2>\d{1,2})" + _ORD
    + r"(?:,?\s+(?P<y2>\d{4}))?)\b",
    re.IGNORECASE,
)
#: What :func:`annotate` adds: "(7 May 2023)", "(the week before 9 June 2023)", "(May 2023)", "(2022)".
_RESOLVED = re.compile(r"\((?P<what>(?:the (?:week|weekend) (?:before|after|of) )?(?:\d{1,2} )?"
                       r"(?:[A-Z][a-z]+ )?\d{4})\)")


def _month_number(name: str) -> int:
    name = name.lower()
    return next(i for i, full in enumerate(_MONTHS, 1) if full.startswith(name[:3]))


def stated_dates(body: str, sent: dt.date | None) -> list[tuple[int, str]]:
    """(position, date) of each date ``body`` (relative times already resolved) states, with its year."""
    annotations = list(_RESOLVED.finditer(body))
    found: list[tuple[int, str]] = [(m.start(), m["what"]) for m in annotations]
    for m in _DATE.finditer(body):
        if any(a.start() <= m.start() < a.end() for a in annotations):
            continue  # inside an annotation already taken whole (not after a date: "17 May out, 21 May back")
        d, month, year = (m["d1"], m["m1"], m["y1"]) if m["d1"] else (m["d2"], m["m2"], m["y2"])
        written = m["wd"] or m["wd2"]
        weekday = _WEEKDAY_STEMS.index(written.lower()) if written else None
        day = stated_day(int(d), _month_number(month), year, sent, weekday)
        if day is None:
            continue
        # The weekday a person wrote is not repeated: it can disagree with the
        # calendar ("Saturday 3 May" in 2026, a Sunday), and the day is what counts.
        found.append((m.start(), long_date(day)))
    return found


#: What :func:`annotate` writes for a week, a month, a year: "the week before 9 June 2023", "May 2023", "2022".
_WEEK_OF = re.compile(r"the (?:week|weekend) (?P<rel>before|after|of) (?P<day>.+)")
_MONTH_OF = re.compile(r"(?P<m>[A-Z][a-z]+) (?P<y>\d{4})")
_YEAR_OF = re.compile(r"\d{4}")


def day_of(stated: str) -> dt.date | None:
    """The day a date as :func:`stated_dates` and :func:`annotate` write it
    stands for: ``8 May 2023``; a week (``the week before 9 June 2023``: 2
    June, a week before the day it is counted from; "after": a week after;
    "of": that day), a month (``May 2023``: its first day), a year
    (``2022``: its first day)."""
    stated = stated.strip()
    week = _WEEK_OF.fullmatch(stated)
    if week:
        day = long_date_day(week["day"])
        if day is None:
            return None
        return day + dt.timedelta(days={"before": -7, "after": 7, "of": 0}[week["rel"]])
    month = _MONTH_OF.fullmatch(stated)
    if month and month["m"].lower() in _MONTHS:
        return dt.date(int(month["y"]), _MONTHS.index(month["m"].lower()) + 1, 1)
    if _YEAR_OF.fullmatch(stated):
        return dt.date(int(stated), 1, 1)
    return long_date_day(stated)


# -- questions ------------------------------------------------------------------

_WHEN = re.compile(r"^\s*(?:when\b|on what (?:date|day)|what (?:date|day)|which (?:date|day))", re.IGNORECASE)
#: A question that can only be answered knowing today's date.
_NOW = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|ago|how long|how old|how many (?:days|weeks|months|years)|"
    r"(?:this|last|next|past) (?:week(?:end)?|month|year)|so far|recent(?:ly)?|current date)\b", re.IGNORECASE)
#: A state earlier than the latest, named: the answer is not the latest statement.
_EARLIER = re.compile(r"\b(?:before|used to|previous(?:ly)?|originally|at first|first|initially|formerly|former)\b",
                      re.IGNORECASE)
#: An earlier state, or the simple past (what happened, when it happened: every version counts).
_PAST = re.compile(rf"{_EARLIER.pattern}|\b(?:did|was|were|had)\b", re.IGNORECASE)
_MONEY = re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?(?:pounds|dollars|euros|quid)\b", re.IGNORECASE)
#: A yes-or-no question about how things stand: an auxiliary verb of the present or future
#: first ("Is Tiago still dating Sofia?", "Does she live in York?"). Not a hypothetical
#: ("Would Melanie enjoy Vivaldi?": no state to have changed) nor the past ("Did ...", _PAST).
_YES_NO = re.compile(r"^\s*(?:is|are|am|do|does|has|have|can|will)(?:n't)?\b", re.IGNORECASE)
#: An answer that says no: "No", "Daniel does not support Chelsea", "She doesn't".
_NO = re.compile(r"\b(?:no|not|never|nope)\b|n['’]t\b", re.IGNORECASE)
#: A plan called off: "I've had to cancel Lisbon", "I've called off the 40th", "the trip is off",
#: "No marathon for me this year".
_CANCEL = re.compile(r"\bcancel(?:s|led|ed|ling|ing)?\b|\bcall(?:s|ed|ing)? (?:it |the \w+ |\w+ )?off\b(?!-)|"
                     r"\b(?:is|it's|it is) off\b|\bnot happening\b|\bno longer happening\b|"
                     r"\bno (?:\w+ ){1,2}for (?:me|us)\b", re.IGNORECASE)


#: A state that ended: a job quit or left, a couple split, a place moved out of, a habit
#: given up, a team switched from ("I left Aer Lingus", "the engagement is off"), a thing done
#: instead of another ("the Bergen City Marathon in April instead of doing the mountain race again"),
#: a state said to hold now, so not before ("decided Fennel was 'a boring name for a vegetable'.
#: She's Brioche now"), a first day somewhere or a last one ("First week at Larchfield Games
#: done", "First week as deputy head at Riverside Primary done!", "Last day there was the
#: 13th"; not "last week at the gym"). Time off is no leaving
#: ("Tidewell won't give me leave till January", "on leave").
_END = re.compile(r"\b(?:quit(?:s|ting)?|left|(?<!me )(?<!us )(?<!on )(?<!of )leav(?:e|es|ing)|"
                  r"resign(?:s|ed|ing)?|split(?:s|ting)?|"
                  r"broke(?:n)? up|break(?:s|ing)? up|divorc(?:e|ed|ing)|dumped|fired|sacked|laid off|"
                  r"no longer|any ?more|mov(?:ed|ing) (?:out|away)|switch(?:ed|ing)|gave up|given up|"
                  r"(?:is|was|it's|are) off|instead of)\b|"
                  r"(?:'s|\bis|\bare|'re|\bam|'m)\s+(?:[\w'-]+\s+){0,4}now\b|"
                  r"\bfirst (?:day|week|month|shift) (?:as (?:an? |the )?[\w'-]+(?: [\w'-]+){0,2} )?at\b|"
                  r"\blast (?:day|shift) (?:at|there)\b", re.IGNORECASE)


#: The writer of their own life: "I" (a capital, as written: "I'm", "I've"), "me", "my".
_SELF = re.compile(r"\bI\b|\b(?i:me|my|mine|myself)\b")
#: The one written to.
_ADDRESSEE = re.compile(r"\b(?:you|your|yours|yourself|yourselves|ya)\b", re.IGNORECASE)


#: A question asking for a phone number or an e-mail address.
_KINDS = {PHONE: re.compile(r"\b(?:phone|mobile|cell|number)\b", re.IGNORECASE),
          EMAIL: re.compile(r"\be-?mail", re.IGNORECASE)}

#: "Where does Thandi work now?" asks for an employer, but the bundled 0.5B
#: reader reads "where" as a town: "Hout Bay" from "Sandpiper Marine Rescue in
#: Hout Bay took me on" (docs/answers.md, "Where someone works, asked of the reader").
_WHERE_WORK = re.compile(r"^\s*where\s+(?:do|does|did|is|are|was|were)\b.*?\bwork(?:s|ed|ing)?\b(?!\s+out\b)",
                         re.IGNORECASE)


class English(Language):
    code = "en"
    stopwords = STOPWORDS
    when_words = _stems("when date day happen happened happening take place")
    value_words = _stems("what which how much many number time")
    name_words = _stems("name named called call")
    when_pattern, now_pattern, earlier_pattern, past_pattern, money_pattern = _WHEN, _NOW, _EARLIER, _PAST, _MONEY
    yes_no_pattern = _YES_NO
    closed_pattern = re.compile(r"^\s*(?:did|was|were|had|would|could|should)(?:n't)?\b", re.IGNORECASE)
    continuation = frozenset({"still", "anymore", "longer", "currently", "now", "nowadays"})
    continuation_phrases = (("these", "days"), ("at", "the", "moment"), ("at", "present"), ("right", "now"))
    negation_pattern = _NO
    cancel_pattern, cancelled = _CANCEL, "Cancelled"
    hedge_pattern = re.compile(r"\b(?:maybe|perhaps|possibly|might|not sure)\b", re.IGNORECASE)
    first_pattern = re.compile(r"\b(?:first|originally|original|initially)\b", re.IGNORECASE)
    end_pattern = _END
    no = "No"
    kind_patterns = _KINDS
    self_pattern, addressee_pattern = _SELF, _ADDRESSEE
    reader_hints = ((_WHERE_WORK, "which employer"),)

    def stem(self, word: str) -> str:
        return stem(word)

    def annotate(self, text: str, day: dt.date) -> str:
        return annotate(text, day)

    def stated_dates(self, body: str, sent: dt.date | None) -> list[tuple[int, str]]:
        return stated_dates(body, sent)

    def day_of(self, stated: str) -> dt.date | None:
        return day_of(stated)


LANGUAGE = English()
