"""Qwen3-Reranker on ONNX Runtime, behind the ``Reranker`` protocol.

Qwen3-Reranker is a causal LM asked a yes/no question about each (query,
document) pair; the score is P("yes") from a softmax over the "no" and "yes"
logits at the last position. The prompt is the official template, verbatim.

The template's head (system turn, instruction, query) is the same for every
document of one query, so it is tokenised once per query and each pair is
``head + document + tail`` in token space. This equals tokenising the whole
prompt at once: the head ends with ``<Document>:`` and the document part
starts with the space, which is a pre-tokeniser boundary either way (tested).

Graphs made by ``rawrag models export --role rerank`` end in a two-column
``yes_no_logits`` output (only the last position, only the two tokens), which
skips the vocabulary-sized LM head entirely; graphs from the hub that output
full ``logits`` also work, at the cost of that head.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ModelError
from .onnx_decoder import DecoderSession, batches_by_length, left_pad, load_tokenizer, token_id
from .runtime import sha256_file, verify

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings

SYSTEM = (
    "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and "
    'the Instruct provided. Note that the answer can only be "yes" or "no".<|im_end|>\n<|im_start|>user\n'
)
TAIL = "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
DEFAULT_INSTRUCTION = "Given a web search query, retrieve relevant passages that answer the query"
YES_NO_OUTPUT = "yes_no_logits"  # (batch, 2): columns no, yes
#: batch x longest row per ONNX call; full-logits graphs use far less (below).
TOKEN_BUDGET = 16384
FULL_LOGITS_BUDGET_BYTES = 512 << 20


def prompt(instruction: str, query: str, doc: str) -> str:
    """The whole official prompt for one pair (the reference tokenisation)."""
    return f"{SYSTEM}<Instruct>: {instruction}\n<Query>: {query}\n<Document>: {doc}{TAIL}"


def yes_probability(no_yes: np.ndarray) -> np.ndarray:
    """softmax over (no, yes), column yes; stable for large logits."""
    no_yes = np.asarray(no_yes, dtype=np.float64)
    return 1.0 / (1.0 + np.exp(no_yes[:, 0] - no_yes[:, 1]))


class PromptTokens:
    """Token ids of the official prompt, with the per-query head made once."""

    def __init__(self, tokenizer, instruction: str, max_doc_tokens: int):
        self.tokenizer = tokenizer
        self.instruction = instruction
        self.max_doc_tokens = max_doc_tokens
        self.tail_ids = self.encode(TAIL)

    def encode(self, text: str) -> list[int]:
        return self.tokenizer.encode(text, add_special_tokens=False).ids

    def head_ids(self, query: str) -> list[int]:
        return self.encode(f"{SYSTEM}<Instruct>: {self.instruction}\n<Query>: {query}\n<Document>:")

    def pair_ids(self, head: list[int], doc: str) -> list[int]:
        """head + document (cut to the budget) + tail; the space is the doc's."""
        return head + self.encode(" " + doc)[: self.max_doc_tokens] + self.tail_ids


class Qwen3Reranker:
    """Scores (query, document) pairs with a Qwen3-Reranker ONNX graph."""

    def __init__(
        self,
        onnx_path: str | Path,
        tokenizer_path: str | Path,
        *,
        model_id: str,
        settings: Settings | None = None,
        instruction: str | None = None,
        max_doc_tokens: int | None = None,
        batch_size: int | None = None,
        sha256: str | None = None,
        size: int | None = None,
        padded_batches: bool = True,
    ):
        self.onnx_path = Path(onnx_path)
        if sha256:
            verify(self.onnx_path, sha256, size)
        self.sha256 = (sha256 or sha256_file(self.onnx_path)).lower()
        models = settings.models if settings else None
        self.instruction = instruction or (models.rerank_instruction if models else "") or DEFAULT_INSTRUCTION
        self.max_doc_tokens = max_doc_tokens or (models.rerank_max_tokens if models else 0) or 512
        self.batch_size = batch_size or (models.rerank_batch if models else 0) or 8
        if not padded_batches:  # graphs whose attention op assumes no left padding
            self.batch_size = 1
        self.tokenizer = load_tokenizer(tokenizer_path)
        self.no_id = token_id(self.tokenizer, "no", tokenizer_path)
        self.yes_id = token_id(self.tokenizer, "yes", tokenizer_path)
        self.pad_id = token_id(self.tokenizer, "<|endoftext|>", tokenizer_path)
        self.prompt = PromptTokens(self.tokenizer, self.instruction, self.max_doc_tokens)
        self.decoder = DecoderSession(self.onnx_path, settings)
        if YES_NO_OUTPUT in self.decoder.output_names:
            self.output = YES_NO_OUTPUT
        elif "logits" in self.decoder.output_names:
            self.output = "logits"
        else:
            raise ModelError(f"{self.onnx_path}: no {YES_NO_OUTPUT} or logits output: not a reranker graph")
        self.model_id = model_id
        self.name = f"{model_id}:{self.sha256[:16]}"

    def _no_yes(self, rows: list[list[int]]) -> np.ndarray:
        ids, mask = left_pad(rows, self.pad_id)
        (out,) = self.decoder.run(ids, mask, [self.output])
        if self.output == YES_NO_OUTPUT:
            return out
        return out[:, -1, [self.no_id, self.yes_id]]

    def score(self, query: str, docs: Sequence[str]) -> list[float]:
        if not docs:
            return []
        head = self.prompt.head_ids(query)  # once per query, not per pair
        rows = [self.prompt.pair_ids(head, d) for d in docs]
        budget = TOKEN_BUDGET
        if self.output == "logits":  # (batch, length, vocab) floats come back
            vocab = self.tokenizer.get_vocab_size()
            budget = max(1, FULL_LOGITS_BUDGET_BYTES // (4 * vocab))
        scores = np.zeros(len(rows), dtype=np.float64)
        for group in batches_by_length([len(r) for r in rows], self.batch_size, budget):
            scores[group] = yes_probability(self._no_yes([rows[i] for i in group]))
        return [float(s) for s in scores]
