"""A BERT-style cross-encoder reranker on ONNX Runtime (e.g. ms-marco MiniLM).

For CPU users who want speed over the Qwen3 reranker's quality: a 6-layer
MiniLM cross-encoder reads ``[CLS] query [SEP] document [SEP]`` and returns one
relevance logit. Works with any sequence-classification graph exported by
``rawrag models export --role rerank`` from a BERT-family checkpoint.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ModelError
from .onnx_decoder import batches_by_length, load_tokenizer
from .runtime import create_session, sha256_file, verify

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings

TOKEN_BUDGET = 16384


class CrossEncoderReranker:
    def __init__(
        self,
        onnx_path: str | Path,
        tokenizer_path: str | Path,
        *,
        model_id: str,
        settings: Settings | None = None,
        max_tokens: int = 512,
        batch_size: int | None = None,
        sha256: str | None = None,
        size: int | None = None,
    ):
        self.onnx_path = Path(onnx_path)
        if sha256:
            verify(self.onnx_path, sha256, size)
        self.sha256 = (sha256 or sha256_file(self.onnx_path)).lower()
        self.max_tokens = max_tokens
        self.batch_size = batch_size or (settings.models.rerank_batch if settings else 0) or 16
        self.tokenizer = load_tokenizer(tokenizer_path, shared=False)  # we set truncation
        # The query is short and must survive whole; the document is cut.
        self.tokenizer.enable_truncation(max_tokens, strategy="only_second")
        self.pad_id = self.tokenizer.token_to_id("[PAD]") or 0
        self.session = create_session(self.onnx_path, settings)
        self.input_names = {i.name for i in self.session.get_inputs()}
        outputs = [o.name for o in self.session.get_outputs()]
        if "logits" not in outputs:
            raise ModelError(f"{self.onnx_path}: no logits output: not a sequence-classification graph")
        self.model_id = model_id
        self.name = f"{model_id}:{self.sha256[:16]}"

    def _run(self, encodings: list) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        ids = np.full((len(encodings), width), self.pad_id, dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for i, e in enumerate(encodings):  # right padding: BERT is bidirectional
            n = len(e.ids)
            ids[i, :n], mask[i, :n], types[i, :n] = e.ids, e.attention_mask, e.type_ids
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        (logits,) = self.session.run(["logits"], {k: v for k, v in feed.items() if k in self.input_names})
        logits = np.asarray(logits, dtype=np.float64)
        # One label: the logit is the score. Two: the "relevant" column's margin.
        return logits[:, 0] if logits.shape[1] == 1 else logits[:, -1] - logits[:, 0]

    def score(self, query: str, docs: Sequence[str]) -> list[float]:
        if not docs:
            return []
        encodings = self.tokenizer.encode_batch([(query, d) for d in docs])
        scores = np.zeros(len(docs), dtype=np.float64)
        for group in batches_by_length([len(e.ids) for e in encodings], self.batch_size, TOKEN_BUDGET):
            scores[group] = self._run([encodings[i] for i in group])
        return [float(s) for s in scores]
