"""Several retrieval settings over the same questions, and whether their
differences are real.

A setting is a few retrieval knobs (mode, top-K, recall depth). Every setting
answers the same questions, so differences are *paired*: the bootstrap
resamples questions (not outcomes) and recomputes the difference of means on
each resample. With a fixed seed the interval is reproducible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .. import toolkit
from ..errors import UserError

#: Names accepted in ``--compare`` and what they set.
KEYS = {"mode": "mode", "k": "k", "top_k": "k", "candidates": "candidates", "n": "candidates", "rrf_k": "rrf_k"}


@dataclass(frozen=True)
class Setting:
    mode: str = "hybrid"
    k: int = 15
    candidates: int = 128
    rrf_k: int | None = None  # None: the configured value

    def label(self) -> str:
        text = f"{self.mode} k={self.k} n={self.candidates}"
        return text + (f" rrf_k={self.rrf_k}" if self.rrf_k is not None else "")

    def retrieval_overrides(self) -> dict:
        """For ``Memory.open(home, retrieval=...)``: the settings the search and the reader use."""
        return {"mode": self.mode, "top_k": self.k, "candidates": self.candidates, "rrf_k": self.rrf_k}

    def to_json(self) -> dict:
        return {"label": self.label(), "mode": self.mode, "k": self.k, "candidates": self.candidates,
                "rrf_k": self.rrf_k}


def _positive_int(key: str, value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise UserError(f"--compare: {key}={value!r} is not a whole number") from None
    if number < 1:
        raise UserError(f"--compare: {key} must be at least 1")
    return number


def parse_setting(spec: str, base: Setting) -> Setting:
    """``mode=dense`` or ``mode=hybrid+k=30``: ``base`` with those knobs changed."""
    changes: dict = {}
    for part in spec.split("+"):
        key, sep, value = part.strip().partition("=")
        key = key.strip().lower()
        if not sep or key not in KEYS:
            raise UserError(f"--compare: {part.strip()!r} is not KEY=VALUE with KEY one of mode, k, candidates, rrf_k")
        value = value.strip()
        field_name = KEYS[key]
        if field_name == "mode":
            if value not in toolkit.SEARCH_MODES:
                raise UserError(f"--compare: unknown mode {value!r}; choose one of {', '.join(toolkit.SEARCH_MODES)}")
            changes["mode"] = value
        else:
            changes[field_name] = _positive_int(key, value)
    return replace(base, **changes)


def parse_settings(spec: str | None, base: Setting) -> list[Setting]:
    """The settings to run, first = the reference the others are compared with."""
    if not spec:
        return [base]
    settings = [parse_setting(part, base) for part in spec.split(",") if part.strip()]
    if not settings:
        raise UserError("--compare: no settings given")
    if len({s.label() for s in settings}) != len(settings):
        raise UserError("--compare: the same setting is listed twice")
    return settings


@dataclass(frozen=True)
class Difference:
    """``mean(b) - mean(a)`` over paired observations, with a bootstrap interval."""

    delta: float
    low: float
    high: float
    n: int
    confidence: float
    resamples: int

    @property
    def significant(self) -> bool:
        """The interval excludes zero."""
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict:
        return {"delta": self.delta, "low": self.low, "high": self.high, "n": self.n,
                "confidence": self.confidence, "resamples": self.resamples, "significant": self.significant}


def paired_bootstrap(a: Sequence[float], b: Sequence[float], *, resamples: int = 1000,
                     confidence: float = 0.95, seed: int = 0) -> Difference | None:
    """Percentile bootstrap of the paired difference of means; None with no pairs."""
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.shape != y.shape:
        raise ValueError("paired samples must have the same length")
    n = len(x)
    if n == 0:
        return None
    diff = y - x
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    means = diff[idx].mean(axis=1)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return Difference(float(diff.mean()), float(low), float(high), n, confidence, resamples)
