"""Chinese, Japanese and Korean for the full-text index: overlapping bigrams.

FTS5's ``unicode61`` tokenizer splits on spaces and punctuation, so a run of
CJK text, which has neither between words, becomes one token, and a search
for a word inside it (北京, 結婚式) finds nothing. Word segmentation needs a
dictionary per language; overlapping character bigrams need none, index
every script the same way and are what Lucene's CJK analyzer does.

Why the bigrams are made here in Python and stored in a second column of the
same FTS5 table, rather than by a custom tokenizer: a tokenizer written in
Python must be registered on every connection that touches the table (each
face, the sqlite3 shell, a backup tool); a connection without it cannot even
delete a row. A plain column of space-separated bigrams is read by the
built-in tokenizer everywhere. English windows leave the column empty, so
their terms, lengths and BM25 scores are exactly what they were.

Each run ``c1..cn`` is written as its bigrams ``c1c2 .. c(n-1)cn`` followed by
its last character alone, so every character starts some token: a query of
one character is a prefix query (``"猫" *``) and finds it wherever it stands.
"""

from __future__ import annotations

import re

# Han (with extensions and compatibility ideographs), kana (full and half
# width, the prolonged sound mark and iteration marks), Hangul syllables and jamo.
_CJK_CLASS = (
    "\u3005-\u3007\u3021-\u3029\u3031-\u3035\u303b\u303c"
    "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
    "\uff66-\uff9f"
    "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
)
CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
#: SQLite GLOB for "holds kana, a common Han ideograph or a Hangul syllable" (counting, not indexing).
SQL_GLOB = "*[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]*"
_HAS_CJK = re.compile(f"[{_CJK_CLASS}]")
_WORD = re.compile(r"\w+", re.UNICODE)


def has_cjk(text: str) -> bool:
    return _HAS_CJK.search(text) is not None


def run_tokens(run: str) -> list[str]:
    """The tokens one CJK run is indexed as: its bigrams, then its last character."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)] + [run[-1]]


def index_column(text: str) -> str:
    """What the ``cjk`` column holds for a window: '' when it has no CJK character.

    Besides the bigrams, a word that mixes scripts ("iPhoneで", "3月") is
    one unicode61 token in the ``text`` column, so its non-CJK parts are
    written here too: "iPhone" then finds "iPhoneで撮った".
    """
    if not has_cjk(text):
        return ""
    out: list[str] = []
    for word in _WORD.findall(text):
        if not has_cjk(word):
            continue
        for piece in CJK_RUN.split(word):
            if piece:
                out.append(piece)
        for run in CJK_RUN.findall(word):
            out.extend(run_tokens(run))
    return " ".join(out)


def query_parts(text: str) -> tuple[list[str], list[str], list[str]]:
    """(words, bigrams, single characters) of a query, each deduplicated in order.

    Words are what unicode61 would make of the text with the CJK runs taken
    out (they match the ``text`` column, and the mixed-script pieces of the
    ``cjk`` column); bigrams and single characters match the ``cjk`` column.
    """
    words = [t.lower() for t in _WORD.findall(CJK_RUN.sub(" ", text))]
    bigrams: list[str] = []
    singles: list[str] = []
    for run in CJK_RUN.findall(text):
        if len(run) == 1:
            singles.append(run)
        else:
            bigrams.extend(run[i : i + 2] for i in range(len(run) - 1))
    return list(dict.fromkeys(words)), list(dict.fromkeys(bigrams)), list(dict.fromkeys(singles))
