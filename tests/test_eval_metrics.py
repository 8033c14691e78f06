"""Coverage, evidence size, summaries and the paired bootstrap on hand-built cases."""

from __future__ import annotations

import numpy as np
import pytest

from rawrag_tui.errors import UserError
from rawrag_tui.eval.compare import Setting, paired_bootstrap, parse_settings
from rawrag_tui.eval.coverage import (
    Coverage,
    Outcome,
    evidence_tokens,
    parse_locomo_evidence,
    summarise,
    summarise_by_group,
)
from rawrag_tui.index.windowing import encoding
from rawrag_tui.search.types import EvidenceMessage


def test_malformed_evidence_entries_hold_every_id():
    assert parse_locomo_evidence(["D8:6; D9:17"]) == {"D8:6", "D9:17"}
    assert parse_locomo_evidence(["D1:3", "D1:3", "D10:12 and D2:1"]) == {"D1:3", "D10:12", "D2:1"}
    assert parse_locomo_evidence(["see above", "", None, 7]) == frozenset()
    assert parse_locomo_evidence(None) == frozenset()


def test_coverage_all_and_any():
    part = Coverage.of({"D1:1", "D2:2"}, {"D1:1", "D5:5"})
    assert (part.needed, part.found, part.all, part.any) == (2, 1, False, True)
    full = Coverage.of({"D1:1", "D2:2"}, {"D2:2", "D1:1", "D9:9"})
    assert full.all and full.any
    miss = Coverage.of({"D1:1"}, set())
    assert not miss.all and not miss.any and miss.scored
    nothing = Coverage.of(set(), {"D1:1"})
    assert not nothing.scored and not nothing.all


def _msg(i: int, text: str, captions: tuple[str, ...] = ()) -> EvidenceMessage:
    return EvidenceMessage(i, f"D1:{i}", 1, "c", i, "2023-05-08T13:56:00", "Alice", "user", text, captions)


def test_evidence_tokens_count_the_serialised_lines():
    messages = [_msg(1, "Hi there!"), _msg(2, "Look", ("a photo of a ferret",))]
    text = "[2023-05-08 Mon 13:56] Alice: Hi there!\n[2023-05-08 Mon 13:56] Alice: Look [shares a photo of a ferret]"
    assert evidence_tokens(messages) == len(encoding().encode_ordinary(text))
    assert evidence_tokens([]) == 0


def _outcome(qid, group, needed, found, tokens=100, score=None, abstention=False):
    coverage = {} if abstention else {"evidence": Coverage(needed, found)}
    return Outcome(qid, group, coverage, tokens, 0.010, abstention=abstention, score=score)


def test_summary_shares_exclude_unscored_and_abstention_questions():
    outcomes = [
        _outcome("a", "x", 2, 2, score=1.0),   # covered
        _outcome("b", "x", 2, 1, score=0.0),   # touched only
        _outcome("c", "y", 1, 0, score=0.5),   # missed
        _outcome("d", "y", 0, 0, score=0.2),   # no gold ids: not in coverage
        _outcome("e", "y", 0, 0, score=1.0, abstention=True),
    ]
    s = summarise(outcomes, "evidence")
    assert s.questions == 5 and s.abstentions == 1
    cov = s.coverage["evidence"]
    assert cov["scored"] == 3 and cov["unscored"] == 1
    assert cov["all"] == pytest.approx(1 / 3) and cov["any"] == pytest.approx(2 / 3)
    assert s.answer_score == pytest.approx((1.0 + 0.0 + 0.5 + 0.2) / 4)
    assert s.utilisation == pytest.approx(1.0)  # only "a" was covered
    assert s.abstention_accuracy == pytest.approx(1.0)
    assert s.evidence_tokens_mean == 100 and s.search_ms_mean == pytest.approx(10.0)

    groups = summarise_by_group(outcomes, "evidence", order=("y", "x", "z"))
    assert list(groups) == ["y", "x", "all"]  # empty "z" dropped, "all" last
    assert groups["x"].coverage["evidence"]["all"] == pytest.approx(0.5)


def test_compare_settings_parse_onto_the_base():
    base = Setting("hybrid", 15, 128)
    got = parse_settings("mode=dense, mode=hybrid+k=30,candidates=64", base)
    assert got == [Setting("dense", 15, 128), Setting("hybrid", 30, 128), Setting("hybrid", 15, 64)]
    assert parse_settings(None, base) == [base]
    for bad, words in (("mode=sparse", "unknown mode"), ("k=0", "at least 1"), ("k=ten", "whole number"),
                       ("depth=3", "KEY=VALUE"), ("mode=dense,mode=dense", "twice")):
        with pytest.raises(UserError, match=words):
            parse_settings(bad, base)


def test_bootstrap_on_constant_differences_is_exact():
    same = paired_bootstrap([1, 0, 1, 0], [1, 0, 1, 0])
    assert (same.delta, same.low, same.high, same.significant) == (0.0, 0.0, 0.0, False)
    up = paired_bootstrap([0] * 10, [1] * 10)
    assert (up.delta, up.low, up.high, up.significant) == (1.0, 1.0, 1.0, True)
    assert paired_bootstrap([], []) is None
    with pytest.raises(ValueError):
        paired_bootstrap([1], [1, 0])


def test_bootstrap_interval_matches_the_normal_approximation():
    # Half the 400 questions gain a point: delta 0.5, standard error sqrt(.25/400) = 0.025.
    a = [0.0] * 400
    b = [1.0, 0.0] * 200
    d = paired_bootstrap(a, b, resamples=4000, seed=1)
    assert d.delta == pytest.approx(0.5)
    assert d.low == pytest.approx(0.5 - 1.96 * 0.025, abs=0.01)
    assert d.high == pytest.approx(0.5 + 1.96 * 0.025, abs=0.01)
    again = paired_bootstrap(a, b, resamples=4000, seed=1)
    assert (again.low, again.high) == (d.low, d.high)  # fixed seed: reproducible


def test_pairing_finds_a_small_consistent_gain_that_unpaired_noise_would_hide():
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2, size=200).astype(float)
    b = a.copy()
    flips = np.flatnonzero(a == 0)[:10]  # b wins 10 questions, loses none
    b[flips] = 1.0
    d = paired_bootstrap(a, b, seed=0)
    assert d.delta == pytest.approx(10 / 200)
    assert d.significant and d.low > 0
    # The same two accuracies as independent samples: a 5-point gap on 200 coin flips is noise.
    unpaired_se = np.sqrt(a.var() / 200 + b.var() / 200)
    assert d.delta < 1.96 * unpaired_se
