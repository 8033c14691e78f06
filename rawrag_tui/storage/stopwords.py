"""English function words the lexical channel leaves out of a query.

A question is mostly such words ("when is the wedding at the mill"), and
each one matches nearly every window: FTS5 scores every window any query
term matches before it can take the best N, so "the" alone makes a query
over 200,000 windows read 200,000 rows. BM25 gives these words almost no
weight anyway, so dropping them changes the ranking little and the cost a
lot (README, "Speed, measured"). A query made only of them keeps them all.
"""

from __future__ import annotations

STOPWORDS = frozenset("""
a about above after again all am an and any are as at be been before being below between both but by
can could did do does doing down during each few for from further had has have having he her here hers
herself him himself his how i if in into is it its itself just me more most my myself no nor not now of
off on once only or other our ours ourselves out over own same she should so some such than that the
their theirs them themselves then there these they this those through to too under until up very was we
were what when where which while who whom why will with would you your yours yourself yourselves
s t d ll m re ve
""".split())


def content_words(words: list[str]) -> list[str]:
    """``words`` without the stop words, unless that would leave none."""
    kept = [w for w in words if w not in STOPWORDS]
    return kept or words
