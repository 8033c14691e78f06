"""The shared helpers: tree order (deep, cyclic), times, stable ids."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rawrag_tui.importers import _common as c


def test_tree_order_shown_branch_first_then_siblings_in_export_order():
    parents = {"r": None, "a": "r", "b": "r", "c": "r", "a1": "a", "c1": "c"}
    order, main = c.tree_order(list(parents), parents, "c1")
    assert main == {"r", "c", "c1"}
    assert order == ["r", "c", "c1", "a", "a1", "b"]


def test_tree_order_is_iterative_for_very_deep_trees():
    n = 50_000
    parents = {f"n{i}": (f"n{i - 1}" if i else None) for i in range(n)}
    order, main = c.tree_order(list(parents), parents, f"n{n - 1}")
    assert order == list(parents) and len(main) == n


def test_tree_order_survives_cycles_and_dangling_parents():
    parents = {"x": "y", "y": "x", "z": "missing", "s": "s"}
    order, main = c.tree_order(list(parents), parents, "x")
    assert sorted(order) == ["s", "x", "y", "z"]
    assert main == {"x", "y"}


def test_from_unix_exact_and_bounded():
    assert c.from_unix("1709280060.000300") == datetime(2024, 3, 1, 8, 1, 0, 300, tzinfo=UTC)
    assert c.from_unix(0) == datetime(1970, 1, 1, tzinfo=UTC)
    assert c.from_unix(None) is None
    for bad in ("1e9", "-5", "١٢٣", True, 1e300, float("nan"), "99999999999999"):
        with pytest.raises(ValueError):
            c.from_unix(bad)


def test_from_iso_zone_handling():
    assert c.from_iso("2024-04-01T18:00:00+02:00") == datetime(2024, 4, 1, 16, tzinfo=UTC)
    assert c.from_iso("2024-04-01T18:00:00Z") == datetime(2024, 4, 1, 18, tzinfo=UTC)
    assert c.from_iso("2024-04-01T18:00:00", naive_ok=True) == datetime(2024, 4, 1, 18)
    with pytest.raises(ValueError):
        c.from_iso("2024-04-01T18:00:00")


def test_stable_id_and_text_cleaning():
    assert c.stable_id("a", 1, None) == c.stable_id("a", 1, None) != c.stable_id("a", 2, None)
    assert c.text_of("ok\ud800", "x") == "ok\ufffd"
    assert c.text_of("\U0001f600", "x") == "\U0001f600"
    with pytest.raises(TypeError):
        c.text_of({"a": 1}, "x")
