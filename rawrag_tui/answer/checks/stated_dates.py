"""Dates the messages themselves state, for "when" questions a small reader gets wrong.

Asked "When did the Fontainebleau trip happen?", the bundled 0.5B reader
answers with the date a message was *sent* ("What a trip!", 4 May) rather
than the date the messages *say* (the trip moved to Saturday 3 May). Prompt
rules, a "latest plan" line, day headers and hiding the send dates were all
measured and none moved it. So "when" answers get a second pass
that needs no model:

- an answer is **stated** when some message's text (with relative times
  resolved, see :mod:`~rawrag_tui.answer.dates`) holds every number the answer holds;
- a question asks "when" and a date is read in a message's own language
  (rawrag_tui/lang: "When ...", "いつ", "什么时候"; "3 May", "3月21日");
- a "when" answer that no message states is replaced by the date stated in
  the **latest** message that shares a subject word with the question (or
  replies to one, stating a later date than they do, or plans a date in
  two words of an earlier plan on the subject, :func:`_carried_on`: "the
  centre's given me another slot: 8 August" after "The test centre emailed.
  Examiner shortage, so I've been pushed back to 30 June"): the latest
  statement wins, as it does in evidence selection;
- once the chat says a planned day came ("The op went fine on the 19th", after
  "19 June, 8am"), with no plan after it, the dates stated on the subject later
  are other events ("Ran 5k yesterday for the first time since the op"): the
  latest is taken from before them (:func:`came_by`);
- a year alone ("2025") answers no "when" question a message answers with a
  day: where the latest statement on the subject (the earliest, asked about
  an earlier state) states a day of that year, that day is the answer
  ("Wann war Lenas Einweihungsparty?" "2025" -> "28. Juni 2025"); a day of
  another year is another event, and the year stays (LoCoMo's "When did
  Melanie paint a sunrise?" "2022" is right, and the latest statement on it
  is of 2023). Any word beside the year ("June 2023", "2025年") makes it a
  date like any other;
- the reader's own words are kept beside it, so the faces can say what was
  replaced and why.

Only dates are touched: a date no message states, and a date that an
*earlier* message on the question's subject, in the same conversation,
states as a plan (a date after the day it was sent) where a later one on it
states another (the reader took a plan the later message moved: "When was
Elena's viva?", "16 January" from the message that postponed it, where the
latest says it happened on 6 February). A date told as past ("yesterday (7
May 2023)") stays: it is one time something happened, and a later message
on the subject is most often another time. An answer that
holds the day the question is asked (``today``), which no message states,
gets the same pass whatever the question: the reader was not told that date
to answer with it.

A question that names an earlier state ("What date was Zoe's wedding first planned for?",
answer/timeline.py decides) wants the earliest date the subject's messages
state, not the latest: an unstated answer gets that one, and so does an
answer holding only the latest message's date where an earlier message on the
subject states another (the reader took the newest plan). Where it asks for
the first state of all (``lang.asks_first``: "first", "originally",
"ursprünglich", "最早", "最初"), so does any date a later message on the subject
states and the earliest does not: of a date moved twice, the middle one is as
wrong as the last.
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
from .base import Correction

#: The setting's name for this check (``[answer] checks``).
NAME = "stated_dates"
#: A year alone, as digits, with no word beside it ("2025", "(2025)").
_YEAR_ONLY = re.compile(r"[\W_]*(?:19|20)\d{2}[\W_]*")


def asks_when(question: str) -> bool:
    """Whether ``question`` asks for a date, in its own language's words."""
    return lang.asks_when(question)


def holds_today(answer: str, today: dt.date | None) -> bool:
    """Whether ``answer`` writes the day the question is asked."""
    return today is not None and lang.long_date(today) in lang.dates_in(answer, today.isoformat())


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def is_stated(answer: str, messages: Sequence[EvidenceMessage], views: EvidenceViews | None = None) -> bool:
    """Whether some message's text holds every number ``answer`` holds, its
    relative times resolved and its dates given their year ("Saturday 3 May",
    sent in April 2026, states "3 May 2026"), and, where the message states
    dates and the answer writes a day, that day among them: digits alone
    cross languages badly ("6 June 2025" holds the 6 and the 2025 of
    "6月3日", sent in 2025)."""
    wanted = _numbers(answer)
    if not wanted:
        return True  # nothing checkable: not a date this pass can judge
    views = views or EvidenceViews()
    written: list[tuple[int | None, int, int]] = []
    if sent := [d for m in messages if (d := lang.message_date(m.timestamp))]:
        written = lang.days_written(answer, max(sent))

    def states(m: EvidenceMessage) -> bool:
        view = views(m)
        if not wanted <= _numbers(" ".join([view.annotated, *view.stated_dates])):
            return False
        return not (written and view.stated_days) or all(lang.writes_day(view.stated_days, w) for w in written)

    return any(states(m) for m in messages)


def year_only(answer: str) -> bool:
    """Whether ``answer`` is a year and nothing else ("2025", "(2025)"): no day
    nor month, which a "when" question asks for where a message states them.
    Any word beside the year ("June 2023", "2025年") is more than a year."""
    return bool(_YEAR_ONLY.fullmatch(answer.strip()))


def plans(answer: str, message: EvidenceMessage, views: EvidenceViews) -> bool:
    """Whether ``message`` states the date ``answer`` holds as a plan: one of its
    stated dates after the day it was sent holds every number the answer holds."""
    wanted = _numbers(answer)
    return bool(wanted) and any(wanted <= _numbers(d) for d in views(message).planned_dates)


def _subject_dates(question: str, messages: Sequence[EvidenceMessage],
                   views: EvidenceViews, same_dates: bool = False) -> list[tuple[str, int, Sequence[str]]]:
    """(sent, number, stated dates) of the dated messages on the question's
    subject that state a date: those sharing a subject word with it, and a
    reply to one of them where it states a date later than, and other than,
    the latest those state ("Did you go to the visa interview?" - "Yes, done
    on 3 June"), or, with ``same_dates``, the same date again ("The op went
    fine on the 19th": :func:`came_by`); in time order."""
    subject = views.subject(question, messages, lang.when_words(question))
    if not subject:
        return []
    worded = {(m.conversation_id, m.seq) for m in messages if subject & views(m).stems}
    on_it = worded | _carried_on(messages, worded, subject, views)  # one step: no reply to these
    stated: list[tuple[str, int, Sequence[str]]] = sorted(
        ((m.timestamp, n, views(m).stated_dates) for n, m in enumerate(messages, 1)
         if m.timestamp and (m.conversation_id, m.seq) in on_it and views(m).stated_dates),
        key=lambda s: s[0])
    for n, m in enumerate(messages, 1):
        dates = views(m).stated_dates
        if (m.timestamp and dates and (m.conversation_id, m.seq) not in on_it
                and (m.conversation_id, m.seq - 1) in worded
                and (not stated or (m.timestamp > stated[-1][0]
                                    and (same_dates or dates[-1] != stated[-1][2][-1])))):
            stated.append((m.timestamp, n, dates))
    return stated


#: How many terms (beyond the question's) a message planning a date must share with an earlier
#: one on the question's subject, planning one in the same conversation, to be on it too.
CARRIED_TERMS = 2


def _carried_on(messages: Sequence[EvidenceMessage], worded: set[tuple[int, int]], subject: set[str],
                views: EvidenceViews) -> set[tuple[int, int]]:
    """(conversation, seq) of the messages that plan a date and share
    :data:`CARRIED_TERMS` content terms, the question's aside, with an earlier
    message of their conversation that is on the subject (``worded``) and plans
    one: the plan moved again in words of its own. "The examiner's off sick and
    the centre's given me another slot: 8 August" names neither the test nor
    driving, but the examiner and the centre of "The test centre emailed.
    Examiner shortage, so I've been pushed back to 30 June". One step only: what
    such a message names brings no more. One shared term was not enough ("Van's
    booked for the 12th of July" took the test's place)."""
    def words(m: EvidenceMessage) -> set[str]:
        # The dates are what moved, not what the plan is about ("3 May works" after "move the trip to
        # Saturday 3 May?"; "Van's booked for the 12th of July" after "booked my driving test! 12 May").
        # Nor a contraction's piece ("I've": "ve"): a term of Latin letters counts from three.
        dated = set().union(*(lang.query_terms(d) for d in views(m).stated_dates))
        return {t for t in lang.query_terms(m.text) - dated - subject
                if not t.isdigit() and (len(t) >= 3 or has_cjk(t))}

    planners = [(m, words(m)) for m in messages if (m.conversation_id, m.seq) in worded and m.timestamp
                and views(m).planned_dates]
    carried: set[tuple[int, int]] = set()
    if not planners:
        return carried
    for m in messages:
        if (m.conversation_id, m.seq) in worded or not m.timestamp or not views(m).planned_dates:
            continue
        terms = words(m)
        if any(p.conversation_id == m.conversation_id and (p.timestamp or "") < m.timestamp
               and len(terms & theirs) >= CARRIED_TERMS for p, theirs in planners):
            carried.add((m.conversation_id, m.seq))
    return carried


def latest_stated_date(question: str, messages: Sequence[EvidenceMessage],
                       views: EvidenceViews | None = None, unless: str = "") -> Correction | None:
    """The date stated by the latest message on the question's subject, if any
    states one; with the reader's ``unless`` (a date some message states), only
    where an earlier message on the subject states it as a plan (:func:`plans`)
    and the latest on the subject in that conversation does not (the reader
    took a plan a later message moved; a date stated off the subject, told as
    past, or stated by the latest message too, is kept: the latest up to the
    day the planned thing came, :func:`came_by`, where the reader's date
    writes a day)."""
    views = views or EvidenceViews()
    stated = _subject_dates(question, messages, views)
    if unless:
        # Only the conversations planning the reader's date: another chat's date is another event
        # ("Zoe's wedding" moved to 11 October; Daniel's, in his chat, is "next year"), and a date
        # told as past ("yesterday (7 May 2023)") is one time something happened, not a plan a
        # later message can move (LoCoMo's support group, gone to again a week later).
        # A later conversation between the same people is not another chat (views.circle: a ChatGPT
        # export's next thread moves the date the first one planned).
        where = {views.circle(messages[n - 1]) for _, n, _ in stated if plans(unless, messages[n - 1], views)}
        stated = [s for s in stated if views.circle(messages[s[1] - 1]) in where]
    if not stated:
        return None
    came = came_by(_subject_dates(question, messages, views, same_dates=True), messages, views)
    circle = [views.circle(messages[s[1] - 1]) for s in stated]
    # A conversation none of whose dated statements here is from before the line saying the day
    # came (that line a same-date reply after another chat's statement) keeps them all.
    cut = {c: t for c, t in came.items() if any(ci == c and s[0] <= t for ci, s in zip(circle, stated))}
    happened = [s for ci, s in zip(circle, stated) if s[0] <= cut.get(ci, s[0])]
    latest = happened[-1]
    # The reader's date stated by the latest statement up to the day it came is kept; one a later
    # line states of another event is not ("Ran 5k yesterday (14 March 2026) for the first time
    # since the op", asked when the op was, first planned for 14 March 2025). A year alone names
    # no day to have come: the latest statement of all judges it, as before.
    judge = latest if any(len(n) <= 2 for n in _numbers(unless)) else stated[-1]
    if unless and is_stated(unless, [messages[judge[1] - 1]], views):
        return None
    return Correction(latest[1], latest[2][-1], superseded=bool(unless), happened=len(happened) < len(stated))


def came_by(stated: Sequence[tuple[str, int, Sequence[str]]], messages: Sequence[EvidenceMessage],
            views: EvidenceViews) -> dict[int, str]:
    """Conversation (``views.circle``) -> the send time of the first of
    ``stated`` (the subject's dated statements, in time order) that states,
    not as a plan, a date an earlier message of it (any of ``messages``)
    planned, where no later statement of it plans a date: the planned thing
    happened then ("19 June, 8am", then "The op went fine on the 19th"), and a
    date stated on the subject after it is another event ("Ran 5k yesterday
    for the first time since the op"). A later plan means it did not ("2 June
    was last week, right?", then "They moved it AGAIN, it's now 23 June").
    Only dates and send times are read."""
    plans = [(m.timestamp, views.circle(m), set(views(m).planned_dates)) for m in messages if m.timestamp]
    circles = [views.circle(messages[n - 1]) for _, n, _ in stated]
    planning = [bool(views(messages[n - 1]).planned_dates) for _, n, _ in stated]
    came: dict[int, str] = {}
    for i, (sent, n, dates) in enumerate(stated):
        circle = circles[i]
        if circle in came or any(planning[j] for j in range(i + 1, len(stated)) if circles[j] == circle):
            continue
        own = set(views(messages[n - 1]).planned_dates)
        before = set().union(*(p for at, c, p in plans if c == circle and at < sent))
        if any(d in before for d in dates if d not in own):
            came[circle] = sent
    return came


def earliest_stated_date(question: str, messages: Sequence[EvidenceMessage],
                         views: EvidenceViews | None = None, unless: str = "") -> Correction | None:
    """The first date stated by the earliest message on the question's subject,
    for a question about the past; None when none states one, or when the
    reader's ``unless`` is not only the latest message's date (it already
    holds an earlier one, or the subject's messages all state it). Where the
    question asks for the first state of all (its language's words: "first set
    for", "最早"), an ``unless`` that a later message on the subject states and
    the earliest does not is replaced: a date moved twice has a middle date
    that is no answer either (asked when Yusuf's defence was first set for,
    the reader gave the second date, "16 September", not the first, "3 June")."""
    views = views or EvidenceViews()
    stated = _subject_dates(question, messages, views)
    if not stated:
        return None
    first, latest = stated[0], stated[-1]
    if unless and lang.asks_first(question):
        # Only a date a later message of the subject moved it to: one said elsewhere may be
        # the first plan, in words the subject's terms missed ("親知らず抜く ... 5月9日", asked
        # about the 抜歯).
        moved_to = [messages[n - 1] for _, n, _ in stated[1:]]
        if is_stated(unless, [messages[first[1] - 1]], views) or not is_stated(unless, moved_to, views):
            return None
    elif unless:
        latest_only = (is_stated(unless, [messages[latest[1] - 1]], views)
                       and not is_stated(unless, [messages[first[1] - 1]], views))
        if not latest_only:
            return None
    return Correction(first[1], first[2][0], earlier=True)


def check(question: str, said: str, messages: Sequence[EvidenceMessage],
          views: EvidenceViews | None = None, today: dt.date | None = None,
          earlier: bool = False, latest: Collection[int] = (),
          replaced: Sequence[EvidenceMessage] = ()) -> Correction | None:
    """The stated date to answer with instead of ``said``, or None to keep the reader's.

    An answer holding the day the question is asked, which no message states,
    for a question that is not about now, is the reader's mistake whatever
    else it says (most often the send date of a message written that day):
    with no stated date to give instead, the answer is "not in your history"
    (a correction citing no message, ``message`` 0). For a question about the
    past (``earlier``) the date given instead is the earliest on the subject."""
    if not said.strip():
        return None
    unstated_today = holds_today(said, today) and not lang.asks_about_now(question)
    if not (asks_when(question) or unstated_today):
        return None
    if asks_when(question) and year_only(said):
        # A year alone, where a message on the subject states the day in that year: that day. A
        # date of another year is another event ("2022", asked when Melanie painted a sunrise).
        found = (earliest_stated_date if earlier else latest_stated_date)(question, messages, views)
        return found if found is not None and _numbers(said) <= _numbers(found.text) else None
    stated = is_stated(said, messages, views)
    if earlier and asks_when(question):
        found = earliest_stated_date(question, messages, views, unless=said if stated else "")
    elif stated and not asks_when(question):
        return None
    else:
        found = latest_stated_date(question, messages, views, unless=said if stated else "")
    if found is None and unstated_today and not stated:
        return Correction(0, NOT_IN_HISTORY)
    return found


def explain(answer: str, correction: Correction) -> str:
    if correction.earlier:
        return (f'the reader said "{answer}"; the question asks about before the latest message on this, '
                f"and [{correction.message}], the earliest, says {correction.text}")
    if not correction.message:
        return f'the reader said "{answer}": the day the question is asked, which no message says'
    # "that states a date": a later message on the subject may state none (a
    # cancelled plan), and then [n] is not the latest message on it.
    if correction.happened:
        latest = (f"[{correction.message}], the latest message on this that states a date, up to the one "
                  f"saying the day came, says {correction.text}")
    else:
        latest = f"[{correction.message}], the latest message on this that states a date, says {correction.text}"
    if year_only(answer):
        return f'the reader said "{answer}", a year alone; {latest}'
    if correction.superseded:
        return f'the reader said "{answer}", what an earlier message said; {latest}'
    return f'the reader said "{answer}", which no message says; {latest}'

