"""German: stop words, stated dates ("3. Mai", "28.06.2025"), "when" questions,
questions about now and about an earlier state.

Runs only on text :func:`~rawrag_tui.lang.detect` takes for German (more of
German's function words than of English's or another Latin-script
language's, lang/latin.py). Before this module German was undetermined, so
no check knew a German question asked "when" or about an earlier state: the
value check replaced the right answer to "Welche E-Mail-Adresse hatte Mehmet
früher?" with the newest address. Words are matched by the neutral five-letter
prefix, as before (no German stemmer was measured). Relative times
("gestern", "nächsten Dienstag", "vor drei Tagen", "nächsten Monat") are
resolved against the day the message was sent, as the English module does,
the date written after them as a German message writes one: "nächsten
Donnerstag (20. März 2025)", sent on Monday 10 March 2025 ("nächsten" is
next week's: tomorrow is "morgen"; "kommenden" the coming one). A week with no day ("nächste Woche") and the
day, month or year it was sent in ("heute", "dieses Jahr") are left alone,
as in Chinese and Japanese (lang/cjk.py says why).
"""

from __future__ import annotations

import datetime as dt
import re

from .base import EMAIL, PHONE, Language, shift_month, stated_day, written_after
from .latin import SIGNALS

#: Function words no layer takes for a question's subject (the module's detection words among them).
STOPWORDS = (SIGNALS["de"] - {"wohnt"}) | frozenset(
    "ab am an als bin bis da dass des die du er euch hab habe hat hatte hatten ihr ihre ihm ihn ihnen in ist "
    "jetzt man mir mich nun ob seit sein seine sich so uns unser vom von vor war waren was weil wer wem wen "
    "wenn werden wird wieder wieso warum welchem welchen welches zum zur".split())

_MONTHS = ("januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
           "november", "dezember")
_MONTH_NAMES = tuple(m.capitalize() for m in _MONTHS)
#: Weekday names, Monday first (Sonnabend is Saturday, as written in the north).
_WEEKDAYS = ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag")
#: "3. Mai", "Samstag, 3. Mai 2026", "3. Jan.", "28.06.2025" (a numeric date only with its year).
_DATE = re.compile(
    rf"\b(?:(?:(?P<wd>{'|'.join(_WEEKDAYS)}|sonnabend),?\s+(?:den\s+)?)?"
    r"(?P<d>\d{1,2})\.\s*(?P<m>jan(?:uar)?|jän(?:ner)?|feb(?:ruar)?|mär(?:z)?|apr(?:il)?|mai|juni?|juli?|"
    r"aug(?:ust)?|sep(?:t(?:ember)?)?|okt(?:ober)?|nov(?:ember)?|dez(?:ember)?)\.?(?:\s+(?P<y>\d{4}))?"
    r"|(?P<nd>\d{1,2})\.(?P<nm>\d{1,2})\.(?P<ny>\d{4}))(?!\w|\.\d)",
    re.IGNORECASE,
)
_WHEN = re.compile(r"\bwann\b|\ban welchem (?:tag|datum|wochenende)\b|\bfür welchen tag\b|\bwelches datum\b|"
                   r"\bwelchem datum\b|\bum wie viel uhr\b", re.IGNORECASE)
#: A question that can only be answered knowing today's date.
_NOW = re.compile(r"\b(?:heute|gestern|morgen|vorgestern|übermorgen|wie lange|seit wann|wie alt|"
                  r"vor \d+ (?:tagen|wochen|monaten|jahren)|(?:diese|letzte|nächste)[nrms]? "
                  r"(?:woche|wochenende|monat|jahr)|bisher|kürzlich|neulich)\b", re.IGNORECASE)
#: A state earlier than the latest: "bevor", "früher", "ursprünglich", "vor Klimawerk" (vor and a name).
_EARLIER = re.compile(r"\b(?:bevor|vorher|zuvor|früher|ursprünglich|zuerst|erstmals|anfangs|ehemalig\w*|damals)\b"
                      r"|\bvor\s+(?:(?:dem|der|den|des|einem|einer)\s+)?[A-ZÄÖÜ]")
_MONEY = re.compile(r"\b\d[\d.]*(?:,\d+)?\s?(?:euro|eur|franken)\b", re.IGNORECASE)
#: A yes-or-no question: a question without a question word ("Wohnt Mehmet noch in Berlin?").
_YES_NO = re.compile(r"^(?!\s*(?:würde|wäre|hätte|könnte|sollte|müsste|dürfte)\w*\b)"
                     r"(?!.*\b(?:wer|wen|wem|wessen|was|wann|wo|woher|wohin|wie|welch\w*|warum|weshalb|wieso|"
                     r"weswegen|wom\w*|wof\w*|wor\w*|woz\w*|wob\w*|wod\w*|won\w*|wov\w*)\b).*\?\s*$",
                     re.IGNORECASE | re.DOTALL)
#: A plan called off: "ich muss leider absagen", "die Party fällt aus", "abgesagt".
_CANCEL = re.compile(r"\babsag\w*|\babgesagt\b|\bsag\w* (?:\w+ ){0,3}ab\b|\bfällt (?:\w+ ){0,3}aus\b|"
                     r"\bausgefallen\b|\bstorniert\b|\bfindet nicht statt\b", re.IGNORECASE)

#: A question asking for a phone number or an e-mail address ("Handynummer", "E-Mail-Adresse").
_KINDS = {PHONE: re.compile(r"telefon|handy|nummer|mobil", re.IGNORECASE),
          EMAIL: re.compile(r"e-?mail|mailadresse", re.IGNORECASE)}


def _month_number(name: str) -> int:
    name = name.lower().replace("jän", "jan")
    return next(i for i, full in enumerate(_MONTHS, 1) if full.startswith(name[:3]))


#: A date as :func:`german_date` writes it.
_WRITTEN = re.compile(r"(?P<d>\d{1,2})\. (?P<m>\w+) (?P<y>\d{4})")


def german_date(day: dt.date) -> str:
    """``3. Mai 2026``: how a German message writes a date."""
    return f"{day.day}. {german_month(day)}"


def german_month(day: dt.date) -> str:
    """``Mai 2026``: the month of ``day``, as German writes it."""
    return f"{_MONTH_NAMES[day.month - 1]} {day.year}"


def stated_dates(body: str, sent: dt.date | None) -> list[tuple[int, str]]:
    """(position, date) of each date ``body`` states, with its year (the one nearest ``sent`` when not written)."""
    found: list[tuple[int, str]] = []
    for m in _DATE.finditer(body):
        if m["nd"]:
            day_n, month_n, year = int(m["nd"]), int(m["nm"]), m["ny"]
        else:
            day_n, month_n, year = int(m["d"]), _month_number(m["m"]), m["y"]
        written = (m["wd"] or "").lower().replace("sonnabend", "samstag")
        day = stated_day(day_n, month_n, year, sent, _WEEKDAYS.index(written) if written else None)
        if day is not None:
            found.append((m.start(), german_date(day)))
    return found


# -- relative times -----------------------------------------------------------

_COUNTS = {"ein": 1, "einem": 1, "einer": 1, "eine": 1, "einen": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5,
           "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12}
_DAYS = {"vorgestern": -2, "gestern": -1, "morgen": 1, "übermorgen": 2}
#: The word before "morgen" that makes it the morning, not tomorrow ("heute Morgen", "guten Morgen").
_MORNING = re.compile(r"(?:guten|heute|gestern|vorgestern|am|jeden|den|einen|diesen|dem)\s+$", re.IGNORECASE)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s*)$")
_NEXT, _LAST = r"nächst|kommend|folgend", r"letzt|vergangen|vorig"
_RELATIVE = re.compile(
    rf"\b(?:(?P<day>{'|'.join(_DAYS)})"
    rf"|(?:am\s+)?(?P<wrel>(?:{_NEXT}|{_LAST}|dies)en)\s+(?P<wd>{'|'.join(_WEEKDAYS)}|sonnabend)"
    rf"|(?:im\s+)?(?P<mrel>(?:{_NEXT}|{_LAST})(?:en|em))\s+monat"
    rf"|(?:im\s+)?(?P<yrel>(?:{_NEXT}|{_LAST})(?:es|en|em))\s+jahr"
    rf"|(?P<dir>vor|in)\s+(?P<n>\d{{1,2}}|{'|'.join(_COUNTS)})\s+(?P<unit>tag|monat|jahr)(?:e?n|e)?)\b",
    re.IGNORECASE,
)


def _meant(m: re.Match[str], sent: dt.date) -> str:
    """What a match of :data:`_RELATIVE` in a message sent on ``sent`` meant, as German writes it."""
    if m["day"]:
        return german_date(sent + dt.timedelta(days=_DAYS[m["day"].lower()]))
    if m["wd"]:
        target = _WEEKDAYS.index(m["wd"].lower().replace("sonnabend", "samstag"))
        rel = m["wrel"].lower()
        if re.match(_LAST, rel):
            return german_date(sent - dt.timedelta(days=(sent.weekday() - target) % 7 or 7))
        if rel.startswith("nächst"):  # "nächsten Dienstag": next week's, as 下周二 (tomorrow is "morgen")
            return german_date(sent - dt.timedelta(days=sent.weekday()) + dt.timedelta(weeks=1, days=target))
        ahead = (target - sent.weekday()) % 7  # "diesen", "kommenden Freitag": the coming one
        return german_date(sent + dt.timedelta(days=ahead if rel.startswith("dies") else ahead or 7))
    if m["mrel"] or m["yrel"]:
        step = -1 if re.match(_LAST, m["mrel"] or m["yrel"], re.IGNORECASE) else 1
        return german_month(shift_month(sent, step)) if m["mrel"] else str(sent.year + step)
    n = int(m["n"]) if m["n"].isdigit() else _COUNTS[m["n"].lower()]
    n = -n if m["dir"].lower() == "vor" else n
    unit = m["unit"].lower()
    if unit == "tag":
        return german_date(sent + dt.timedelta(days=n))
    if unit == "monat":
        return german_month(shift_month(sent, n))
    return str(sent.year + n)


def annotate(text: str, sent: dt.date) -> str:
    """``text`` with each relative time followed by the date it meant, in parentheses."""
    meanings = []
    for m in _RELATIVE.finditer(text):
        if m["day"] in ("morgen", "Morgen") and (_MORNING.search(text[: m.start()]) or (
                m["day"] == "Morgen" and not _SENTENCE_START.search(text[: m.start()]))):
            continue  # the morning: "heute Morgen", "den ganzen Morgen" (a noun is capitalised)
        meanings.append((m.end(), _meant(m, sent)))
    return written_after(text, meanings)


def _words(words: str) -> frozenset[str]:
    return frozenset(w[:5] for w in words.split())


class German(Language):
    code = "de"
    stopwords = STOPWORDS
    when_words = _words("wann datum tag uhr")
    value_words = _words("was welche welcher welches wie viel viele nummer zeit uhrzeit")
    name_words = _words("heißt heißen name namen genannt")
    when_pattern, now_pattern, earlier_pattern, money_pattern = _WHEN, _NOW, _EARLIER, _MONEY
    yes_no_pattern = _YES_NO
    continuation = frozenset({"noch", "immer", "jetzt", "mehr", "aktuell", "derzeit", "momentan", "zurzeit"})
    continuation_phrases = (("im", "moment"), ("zur", "zeit"))
    negation_pattern = re.compile(r"\b(?:nein|nicht|kein\w*|nie)\b", re.IGNORECASE)
    cancel_pattern, cancelled = _CANCEL, "Abgesagt"
    first_pattern = re.compile(r"\b(?:zuerst|ursprünglich|anfangs|zunächst|erstmals|erste[nmrs]?)\b", re.IGNORECASE)
    hedge_pattern = re.compile(r"\b(?:vielleicht|eventuell|evtl|möglicherweise|mal sehen|mal schauen)\b",
                               re.IGNORECASE)
    #: A state that ended ("Ich hab bei Siemens gekündigt", "kein Zalando mehr", "wir haben uns getrennt"),
    #: or a thing done instead of another ("Tee statt Kaffee"; not the "statt" of "findet ... statt.").
    end_pattern = re.compile(r"\b(?:gekündigt|kündig\w*|getrennt|trenn\w*|schluss gemacht|verlassen|"
                             r"aufgehört|hör\w* (?:\w+ ){0,3}auf|nicht mehr|kein\w* (?:\w+ ){0,2}mehr|"
                             r"ausgezogen|weggezogen|gewechselt|geschieden|entlassen|"
                             r"(?:an)?statt\b(?!\s*(?:[.,!?;:]|$)))\b", re.IGNORECASE)
    no = "Nein"
    self_pattern = re.compile(r"\b(?:ich|mich|mir|mein|meine|meinen|meinem|meiner|meines)\b", re.IGNORECASE)
    addressee_pattern = re.compile(r"\b(?:du|dich|dir|dein|deine|deinen|deinem|deiner|deines|euch|euer|eure\w*)\b",
                                   re.IGNORECASE)
    kind_patterns = _KINDS

    def parts(self, word: str) -> frozenset[str]:
        """German writes compounds as one word: "Einweihungsparty" is a "Party",
        "Handynummer" a "Nummer". No dictionary splits them here; every ending of
        four letters or more, cut as a word is (its first five), is a part, so
        a message saying "die Party" is on the subject of "Einweihungsparty".
        Endings that are no word ("ungsp") match nothing."""
        if len(word) < 8:
            return frozenset()
        return frozenset(word[i:i + 5] for i in range(3, len(word) - 3))

    def name_forms(self, word: str) -> frozenset[str]:
        """A name and its genitive, the name with an -s and no apostrophe
        ("Annas Freund", "Lenas Bruder"): cut to its first five letters,
        "lenas" is not "lena", so the person asked about was not found.
        Names ending in s, x, z or ß take an apostrophe instead ("Jonas'")."""
        forms = {self.stem(word)}
        if not word.endswith(("s", "x", "z", "ß")):
            forms.add(self.stem(word + "s"))
        return frozenset(forms)

    def annotate(self, text: str, day: dt.date) -> str:
        return annotate(text, day)

    def stated_dates(self, body: str, sent: dt.date | None) -> list[tuple[int, str]]:
        return stated_dates(body, sent)

    def day_of(self, stated: str) -> dt.date | None:
        m = _WRITTEN.fullmatch(stated.strip())
        if m is None or m["m"] not in _MONTH_NAMES:
            return super().day_of(stated)
        try:
            return dt.date(int(m["y"]), _MONTH_NAMES.index(m["m"]) + 1, int(m["d"]))
        except ValueError:
            return None


LANGUAGE = German()
