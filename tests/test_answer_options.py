"""The prompt style a home's reader gets when ``reader.prompt`` is "auto"."""

from __future__ import annotations

import pytest

from rawrag_tui.answer.options import answer_options, prompt_style
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
