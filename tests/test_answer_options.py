"""The prompt style, the meaning anchors and the question's hints a home's reader gets when
``reader.prompt``, ``reader.anchors`` and ``reader.hints`` are "auto"."""

from __future__ import annotations

import pytest

from rawrag_tui.answer.options import anchors, answer_options, hints, prompt_style
from rawrag_tui.errors import UserError
from rawrag_tui.settings import load_settings


@pytest.mark.parametrize(("models", "reader", "style"), [
    ({"profile": "bundled"}, {}, "plain"),
    # The multilingual profile changes the embedder only: the same 0.5B reader,
    # which answers a bare "[3]" when asked to cite (its CJK answers were "[1]", "[10]").
    ({"profile": "multilingual"}, {}, "plain"),
    ({"profile": "qwen3-0.6b"}, {}, "cited"),
    ({"profile": "bundled"}, {"endpoint": "http://127.0.0.1:8080/v1"}, "cited"),
    ({"profile": "multilingual"}, {"prompt": "cited"}, "cited"),
    ({"profile": "qwen3-4b"}, {"prompt": "plain"}, "plain"),
])
def test_auto_style_follows_the_reader_not_the_profile_name(tmp_path, models, reader, style):
    settings = load_settings(tmp_path, models=models, reader=reader)
    assert prompt_style(settings) == style
    assert answer_options(settings)["prompt_style"] == style


@pytest.mark.parametrize(("models", "reader", "chosen"), [
    # The bundled 0.5B reader answers worse from the lines a wide selection adds.
    ({"profile": "bundled"}, {}, "close"),
    ({"profile": "multilingual"}, {}, "close"),
    # A reader the user brings: a GGUF of theirs, a server, a pulled profile's.
    ({"profile": "bundled", "reader_model": "/models/qwen2.5-coder-1.5b.gguf"}, {}, "wide"),
    ({"profile": "bundled"}, {"endpoint": "http://127.0.0.1:8080/v1"}, "wide"),
    ({"profile": "qwen3-0.6b"}, {}, "wide"),
    ({"profile": "bundled"}, {"anchors": "wide"}, "wide"),
    ({"profile": "bundled", "reader_model": "/models/x.gguf"}, {"anchors": "close"}, "close"),
])
def test_auto_anchors_are_wide_for_a_reader_the_user_brings(tmp_path, models, reader, chosen):
    settings = load_settings(tmp_path, models=models, reader=reader)
    assert anchors(settings) == chosen
    assert answer_options(settings)["anchors"] == chosen


def test_an_unknown_anchors_value_is_one_clear_error(tmp_path):
    settings = load_settings(tmp_path, reader={"anchors": "widest"})
    with pytest.raises(UserError, match=r"reader\.anchors: 'widest' is none of auto, close, wide"):
        answer_options(settings)


@pytest.mark.parametrize(("models", "reader", "on"), [
    # The bundled 0.5B reader answered a town for "where does she work" without the hint.
    ({"profile": "bundled"}, {}, True),
    ({"profile": "multilingual"}, {}, True),
    # A reader the user brings: the 1.5B Coder lost a right answer with it and gained none.
    ({"profile": "bundled", "reader_model": "/models/qwen2.5-coder-1.5b.gguf"}, {}, False),
    ({"profile": "bundled"}, {"endpoint": "http://127.0.0.1:8080/v1"}, False),
    ({"profile": "qwen3-0.6b"}, {}, False),
    ({"profile": "bundled"}, {"hints": "off"}, False),
    ({"profile": "bundled", "reader_model": "/models/x.gguf"}, {"hints": "on"}, True),
])
def test_auto_hints_are_for_the_bundled_reader_only(tmp_path, models, reader, on):
    settings = load_settings(tmp_path, models=models, reader=reader)
    assert hints(settings) is on
    assert answer_options(settings)["hints"] is on


def test_an_unknown_hints_value_is_one_clear_error(tmp_path):
    settings = load_settings(tmp_path, reader={"hints": "yes"})
    with pytest.raises(UserError, match=r"reader\.hints: 'yes' is none of auto, on, off"):
        answer_options(settings)
