"""Filters typed into a search box: ``meetup after:2016-01 from:Neeraj in:#general source:slack``.

One parser for every face that takes a single line of text (the app's search
box today; a chat client or a shell alias could pass the same line). It only
splits the line: the words go to the search, the terms become a
:class:`~rawrag_tui.search.types.Filters`, and the store checks them as it
checks the CLI's ``--after``/``--speaker`` flags (search/filters.py), so a bad
date or an unknown name is the same one line everywhere.

Terms: ``after:DATE``, ``before:DATE`` (2016, 2016-03, 2016-03-14, 30d, 6m),
``from:NAME`` (repeatable), ``in:CONVERSATION`` (a leading ``#`` is dropped),
``source:NAME|ID`` and ``kind:chat|channel|group|agent``. A value with spaces
is quoted: ``from:"Neeraj Kumar"``. A term typed without a value yet
(``from:``) is neither a filter nor a word. Anything else is a word, so
``http://x`` or ``10:30`` stay part of the query.
"""

from __future__ import annotations

import re

from .types import Filters, ParsedQuery, QueryTerm

#: The keys a term may start with, and the Filters field each fills.
KEYS = {"after": "after", "before": "before", "from": "speakers", "in": "conversation", "source": "source",
        "kind": "kind"}

_TERM = re.compile(r'(?<!\S)(?P<key>[A-Za-z]+):(?:"(?P<quoted>[^"]*)"?|(?P<plain>\S*))')


def parse_query(text: str) -> ParsedQuery:
    """Split a search box's line into its words and its filter terms."""
    terms: list[QueryTerm] = []
    words: list[str] = []
    pos = 0
    for m in _TERM.finditer(text):
        key = m.group("key").lower()
        if key not in KEYS:
            continue
        words.append(text[pos:m.start()])
        pos = m.end()
        value = (m.group("quoted") if m.group("quoted") is not None else m.group("plain")).strip()
        if key == "in":
            value = value.lstrip("#").strip()
        if value:
            terms.append(QueryTerm(key, value, m.start(), m.end(), m.group(0)))
    words.append(text[pos:])
    fields: dict[str, object] = {}
    speakers: list[str] = []
    for term in terms:
        if KEYS[term.key] == "speakers":
            speakers.append(term.value)
        else:
            fields[KEYS[term.key]] = term.value  # the last one typed wins
    filters = Filters(speakers=tuple(speakers), **fields)  # type: ignore[arg-type]  # str fields only
    return ParsedQuery(text, " ".join(" ".join(words).split()), filters, tuple(terms))
