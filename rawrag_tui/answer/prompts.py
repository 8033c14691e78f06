"""The one place for the reader's prompt: every word the local reader is told.

The reader is small (0.5B parameters by default), so the prompt is short,
literal and repeats the two rules that matter: answer from the numbered
messages only, and cite them as ``[n]``. When the messages do not hold the
answer it must say :data:`NOT_IN_HISTORY` rather than guess; the faces and the
evaluation recognise that sentence.
"""

from __future__ import annotations

import datetime as dt

from .. import lang
from .dates import long_date

#: Bump when the wording changes, so measured answer figures name their prompt.
PROMPT_VERSION = 7  # 7: a language's question hints (lang, ``for_reader``)

#: Follows the date of the newest message on a subject (answer/timeline.py),
#: unless the question asks about the past.
LATEST_MARK = "(latest)"

#: What the reader says when the evidence does not hold the answer.
NOT_IN_HISTORY = "Not in your history."

#: Said without loading any model when the question names something no
#: message holds (answer/unknown.py); ``{names}`` are those names, quoted.
NOT_MENTIONED = "Not in your history: no message mentions {names}."

#: Said without loading any model when the search found nothing at all.
NOTHING_FOUND = "Nothing in your history matches this question, so there is nothing to answer from."

# The fixed instructions come first, so every question's prompt starts with
# the same tokens and llama.cpp reads them once (its prompt cache); the
# evidence follows, then the date and the question, last, ending on "Short
# answer:" so a small reader answers with the answer itself rather than a
# sentence restating the question (a 20-line reference script with this form
# scored LoCoMo F1 42.9 with the bundled 0.5B reader where a sentence-style
# prompt scored 13.7, docs/answers.md). The rules a small reader gets wrong are said
# plainly: the later message wins (the newest on a subject is marked); a date
# in parentheses is what "yesterday" meant.
_RULES = (
    "Answer a question about the user's chat history using only the messages below. "
    "Each message follows the line with the date it was sent. When messages disagree, the later one is right, "
    f"and a message marked {LATEST_MARK} is the newest on its subject. "
    'A date in (parentheses) after "yesterday", "last week" and the like is the date it meant: use that date.'
)

_CITED = _RULES + (
    " Reply with a short phrase (a date, a name, a place, a few words) and cite the message number like [3]. "
    "If the messages do not say, reply: {abstain}"
) + """

Messages:
{evidence}

{today}Question: {question}
Short answer:"""

# Measured on LoCoMo evidence (bench/reader_locomo.py): Qwen2.5-Coder-0.5B
# answers with a bare "[n]" or abstains on nearly every question as soon as
# the prompt mentions citations or abstaining, and answers in words without
# them. "plain" is for such small readers: no [n] to map, no abstention.
_PLAIN = _RULES + """ Reply with a short phrase only: a date, a name, a place or a few words.

Messages:
{evidence}

{today}Question: {question}
Short answer:"""

STYLES = {"cited": _CITED, "plain": _PLAIN}


def fixed_prefix(style: str) -> str:
    """The start every prompt of ``style`` shares, up to the evidence: the
    reader reads it ahead (it is the same for every question) and caches it."""
    return _template(style).split("{evidence}", 1)[0].format(abstain=NOT_IN_HISTORY)


def _template(style: str) -> str:
    try:
        return STYLES[style]
    except KeyError:
        raise ValueError(f"unknown prompt style {style!r}; known: {', '.join(STYLES)}") from None


def format_date(day: dt.date) -> str:
    """``Monday, 8 May 2023``: the weekday helps with "last Friday" questions,
    and the day-month-year form is the one the evidence lines use."""
    return f"{day.strftime('%A')}, {long_date(day)}"


def parse_question_date(value: str | dt.date | None) -> dt.date:
    """The date the question is asked: the caller's, or today (local time)."""
    if value is None:
        return dt.date.today()
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(value)


def build_prompt(question: str, evidence: str, date: str | dt.date | None = None, style: str = "cited",
                 say_date: bool = True, hints: bool = True) -> str:
    """The full user message: numbered evidence, date, rules, question. Without
    ``say_date`` the reader is not told today's date: an answer cannot then
    write a date no message states because it is today (the faces pass it only
    when the question needs it, ``lang.asks_about_now``). ``hints``: the
    question with its language's words for the small reader
    (``Language.for_reader``; ``reader.hints``, answer/options.py)."""
    asked = question.strip()
    return _template(style).format(
        today=f"Today is {format_date(parse_question_date(date))}.\n" if say_date else "",
        evidence=evidence.strip() or "(none)",
        question=lang.of(question).for_reader(asked) if hints else asked,
        abstain=NOT_IN_HISTORY,
    )


def is_abstention(answer: str) -> bool:
    """Whether an answer is the reader saying the history does not hold it."""
    text = answer.strip().lower()
    return NOT_IN_HISTORY.lower().rstrip(".") in text or text.startswith(NOTHING_FOUND.lower()[:30])
