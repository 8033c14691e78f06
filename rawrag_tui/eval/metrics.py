"""LoCoMo's answer metric, token F1, exactly as its evaluation.py computes it.

Kept faithful so figures compare with published LoCoMo numbers:

- normalisation: drop commas, lowercase, strip ASCII punctuation, remove the
  words a/an/the/and, collapse whitespace (in that order);
- tokens are Porter-stemmed with NLTK's ``PorterStemmer`` (its default
  NLTK_EXTENSIONS mode, which is what LoCoMo runs);
- category 1 (multi-hop): both answers are split on commas and the score is
  the mean, over gold parts, of the best F1 against any predicted part;
- category 3 (temporal/commonsense): only the gold text before the first ``;``
  counts;
- categories 2, 3 and 4: plain token F1;
- category 5 (adversarial): 1 when the prediction says "no information
  available" or "not mentioned", else 0 (LoCoMo's rule; rawrag reports
  categories 1-4).
"""

from __future__ import annotations

import string
from collections import Counter
from functools import lru_cache

import regex  # as LoCoMo; tiktoken depends on it, so it is always there

_PUNCTUATION = set(string.punctuation)
_ARTICLES = regex.compile(r"\b(a|an|the|and)\b")


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem import PorterStemmer  # lazy: only evaluation needs NLTK

    return PorterStemmer()


def normalize_answer(text: str) -> str:
    text = str(text).replace(",", "")
    text = text.lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def answer_tokens(text: str) -> list[str]:
    stem = _stemmer().stem
    return [stem(w) for w in normalize_answer(text).split()]


def f1_score(prediction: str, ground_truth: str) -> float:
    """Token F1 of one prediction against one gold answer (0.0 to 1.0)."""
    pred = answer_tokens(prediction)
    gold = answer_tokens(ground_truth)
    same = sum((Counter(pred) & Counter(gold)).values())
    if same == 0:
        return 0.0
    precision = same / len(pred)
    recall = same / len(gold)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: str, ground_truth: str) -> float:
    """Category 1: mean over comma-separated gold parts of the best part F1."""
    predictions = [p.strip() for p in prediction.split(",")]
    truths = [g.strip() for g in ground_truth.split(",")]
    return sum(max(f1_score(p, g) for p in predictions) for g in truths) / len(truths)


def adversarial_score(prediction: str) -> float:
    text = prediction.lower()
    return 1.0 if "no information available" in text or "not mentioned" in text else 0.0


def locomo_score(prediction: str, answer: object, category: int) -> float:
    """The score LoCoMo's evaluation gives ``prediction`` for one question."""
    if category == 5:
        return adversarial_score(prediction)
    gold = str(answer)
    if category == 3:
        gold = gold.split(";")[0].strip()
    if category == 1:
        return multi_answer_f1(prediction, gold)
    if category in (2, 3, 4):
        return f1_score(prediction, gold)
    raise ValueError(f"unknown LoCoMo category {category!r}")
