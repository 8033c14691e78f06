"""Dates as exports from other languages and calendars write them.

Phones and Google write times in the user's locale: digits of the script
(Arabic-Indic ``١٨``, Persian ``۱۸``), the era of the calendar (Thai
Buddhist years, 543 ahead; Japanese era years, ``R4`` or ``令和4年``;
Solar Hijri dates, ``۱۴۰۱/۱۲/۲۷``, whose months fall across ours), the
locale's order of day, month and year, its month names and its morning and
afternoon markers. Nothing in an export says which locale wrote it, so the
importers read the *structure* (which field is four digits, which is a
word, where the clock is) and use the tables here only to turn a locale's
word into its number. A word no table knows leaves the date unread (and
reported), never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime
from functools import lru_cache

#: First year of each Japanese era, by its letter and its name. Year 1 of an
#: era (written 元年, "first year") is that Gregorian year.
JAPANESE_ERAS = {
    "M": 1868, "T": 1912, "S": 1926, "H": 1989, "R": 2019,
    "明治": 1868, "大正": 1912, "昭和": 1926, "平成": 1989, "令和": 2019,
}
#: Thai solar (Buddhist era) years run 543 ahead of the Gregorian ones.
BUDDHIST_OFFSET = 543
#: A year this large is a Buddhist-era year even without its "BE" mark: no
#: export is dated four centuries ahead.
BUDDHIST_FROM = 2400


#: Years a chat can only be dated in the Solar Hijri calendar (Iran's and
#: Afghanistan's; 1300 began in 1921, 1424 begins in 2045). No chat export is
#: dated in the Gregorian 14th or 15th century, and the lunar Hijri years of
#: WhatsApp's lifetime (1430 on, 2009) lie above the range.
SOLAR_HIJRI_YEARS = range(1300, 1425)


@lru_cache(maxsize=4096)  # a chat repeats each day's date on every message of it
def solar_hijri_date(year: int, month: int, day: int) -> date:
    """The Gregorian date of a Solar Hijri one (1 Farvardin 1403 -> 2024-03-20).

    The months do not line up with ours (the year starts at the March
    equinox), so the whole date is converted, by jdatetime (python-jalali,
    a maintained library, imported only when such a date is met). An
    impossible date (Esfand 30 of a common year) raises ValueError.
    """
    import jdatetime

    return jdatetime.date(year, month, day).togregorian()


def era_year(era: str, year: int) -> int:
    """The Gregorian year of year ``year`` of a Japanese era (``R4`` -> 2022)."""
    if year < 1:
        raise ValueError(f"era year {year} before the era's first")
    return JAPANESE_ERAS[era] + year - 1


def gregorian_year(year: int, buddhist: bool = False) -> int:
    """A year as written -> Gregorian: Buddhist-era years (marked, or too far
    ahead to be anything else) lose 543."""
    return year - BUDDHIST_OFFSET if buddhist or year >= BUDDHIST_FROM else year


def ascii_digits(text: str) -> str:
    """Any script's decimal digits (Arabic-Indic, Persian, Devanagari, ...) as 0-9."""
    if text.isascii():
        return text
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in text)


#: Month names and their abbreviations, casefolded, in the languages Google
#: writes with words (numeric locales need none). Prefix matches below take
#: care of the many abbreviation styles ("Sept", "sept.", "sep").
_MONTH_NAMES = {
    1: "january jan januar janv janvier enero ene gennaio gen janeiro januari januar leden ledna led styczeń "
       "stycznia sty январь января янв",
    2: "february feb februar févr février febrero febbraio fevereiro fev februari únor února úno luty lutego lut "
       "февраль февраля февр фев",
    3: "march mar märz mars marzo março maart mrt březen března bře marzec marca март марта мар",
    4: "april apr avril avr abril abr aprile duben dubna dub kwiecień kwietnia kwi апрель апреля апр",
    5: "may mai mayo maggio mag maio mei květen května kvě maj maja май мая",
    6: "june jun juni juin junio giugno giu junho červen června čvn czerwiec czerwca cze июнь июня июн",
    7: "july jul juli juil juillet julio luglio lug julho červenec července čvc lipiec lipca lip июль июля июл",
    8: "august aug août agosto ago augustus srpen srpna srp sierpień sierpnia sie август августа авг",
    9: "september sep sept septembre septiembre settembre set setembro září zář wrzesień września wrz "
       "сентябрь сентября сен",
    10: "october oct oktober okt octobre octubre ottobre ott outubro out říjen října říj październik "
        "października paź октябрь октября окт",
    11: "november nov novembre noviembre novembro listopad listopadu lis listopada ноябрь ноября нояб ноя",
    12: "december dec dezember dez décembre déc diciembre dic dicembre dezembro prosinec prosince pro grudzień "
        "grudnia gru декабрь декабря дек",
}
_MONTHS: dict[str, int] = {w: m for m, words in _MONTH_NAMES.items() for w in words.split()}


def month_number(word: str) -> int | None:
    """The month a locale's name or abbreviation stands for, or None."""
    key = word.casefold().strip(".")
    if key in _MONTHS:
        return _MONTHS[key]
    for size in (4, 3):  # "sept." "Sep" "mars" "märz": compare their starts
        if len(key) >= size:
            found = {m for w, m in _MONTHS.items() if w[:size] == key[:size] and len(w) >= size}
            if len(found) == 1:
                return found.pop()
    return None


#: Afternoon and morning markers, any script. Each is matched as a whole token.
_PM = r"PM|P\.M\.|p\.m\.|p\. m\.|odp\.|nachm\.|午後|오후|下午|م|μ\.μ\.|ب\.ظ"
_AM = r"AM|A\.M\.|a\.m\.|a\. m\.|dop\.|vorm\.|午前|오전|上午|ص|π\.μ\.|ق\.ظ"
_MARK = re.compile(rf"(?<!\w)(?:(?P<pm>{_PM})|(?P<am>{_AM}))(?!\w)")
_CLOCK = re.compile(r"(?<!\d)(\d{1,2}):(\d{2}):(\d{2})(?!\d)|(?<!\d)(\d{1,2})\.(\d{2})\.(\d{2})(?![\d.])")
_ZONE = re.compile(r"(?<!\w)(?:(?:GMT|UTC)\s?[+\-−]\s?\d{1,2}(?::?\d{2})?|[A-ZÀ-Ž]{2,5})(?!\w)\s*$")
_SPACES = re.compile(r"[\u00a0\u2009\u202f\u200e\u200f\u061c]")


def parse_stamp(text: str) -> tuple[datetime, str | None] | None:
    """(local wall-clock time, zone as written) of a line that is only a
    date and a time in some locale, e.g. ``Aug 3, 2026, 9:14:05 AM PDT``,
    ``18. 3. 2022 14:56:01 SEČ``, ``2022/03/18 14:56:01 JST``,
    ``18 mars 2022, 14:56:01 UTC+1``, ``2022. 3. 18. 오후 2:56:01 GMT+9``;
    None for anything else.

    The rule is structural: a clock with seconds, a four-digit year, a day
    and a month (a number or a month's name) and nothing else but a zone,
    a morning/afternoon marker and at most two short words (Russian "year", "um").
    The year is the four-digit number; numbers in year-month-day order when
    the year leads, else day before month unless the first exceeds 12.
    """
    line = ascii_digits(_SPACES.sub(" ", text)).strip()
    if not line or len(line) > 80:
        return None
    clock = _CLOCK.search(line)
    if clock is None:
        return None
    parts = [p for p in clock.groups() if p is not None]
    hour, minute, second = (int(p) for p in parts)
    rest = line[: clock.start()] + " " + line[clock.end():]
    mark = _MARK.search(rest)
    if mark:
        rest = rest[: mark.start()] + " " + rest[mark.end():]
        if hour > 12:
            return None
        hour = hour % 12 + (12 if mark.group("pm") else 0)
    zone_match = _ZONE.search(rest.rstrip(" ,"))
    zone = None
    if zone_match:
        zone = re.sub(r"\s", "", zone_match.group(0)).replace("−", "-")
        rest = rest.rstrip(" ,")[: zone_match.start()]
    rest = re.sub("[年月日]", " ", rest)  # CJK dates: 2022年3月18日
    numbers = [(m.start(), m.group()) for m in re.finditer(r"\d+", rest)]
    words = re.findall(r"[^\W\d_]+\.?", rest)
    month_words = [w for w in words if month_number(w)]
    others = [w for w in words if w not in month_words[:1]]
    if len(others) > 2 or any(len(w.strip(".")) > 4 for w in others) or len(month_words) > 1:
        return None
    years = [n for _, n in numbers if len(n) == 4]
    if len(years) != 1:
        return None
    year = int(years[0])
    small = [int(n) for _, n in numbers if len(n) <= 2]
    if month_words:
        if len(small) != 1:
            return None
        month, day = month_number(month_words[0]) or 0, small[0]
    else:
        if len(small) != 2:
            return None
        a, b = small
        if numbers[0][1] == years[0]:  # year first: y m d
            month, day = a, b
        elif a > 12 or b <= 12:
            day, month = a, b
        else:
            month, day = a, b
    try:
        return datetime(gregorian_year(year), month, day, hour, minute, second), zone
    except ValueError:
        return None
