"""Which tokens a reader told not to write a word must not write.

answer/avoided_reading.py reads an answer again with some words forbidden
(the question's echo, the chat's names). Readers forbid tokens, not words:
llama.cpp in process (models/llama_reader.py) and a llama.cpp or
llama-cpp-python server (models/openai_reader.py) take a logit bias per
token id. One rule for both, so both forbid the same tokens: every token of
each word as written and after a space (a word's first token differs after
a space in most vocabularies), less the tokens with no letter or digit, the
full stop or space an answer needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

#: The logit bias on a token the answer must not write: added to its logit,
#: -100 puts it below every other at temperature 0.
AVOIDED_BIAS = -100.0


def avoided_ids(avoid: Iterable[str], tokenize: Callable[[str], list[int]], piece: Callable[[int], str]) -> set[int]:
    """The ids of the tokens that spell ``avoid`` (``tokenize``: a text's ids;
    ``piece``: the text one id writes), less those with no letter or digit."""
    ids: set[int] = set()
    for word in avoid:
        for variant in (word, " " + word):
            ids.update(tokenize(variant))
    ids -= set(tokenize(""))  # a server's tokenizer may add the BOS to every text
    return {i for i in ids if any(c.isalnum() for c in piece(i))}
