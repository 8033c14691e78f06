"""Qwen3-Embedding on ONNX Runtime, behind the ``Embedder`` protocol.

The recipe is the Qwen3-Embedding repository's: queries carry an instruction
(``Instruct: {task}\\nQuery:{query}``, no space after ``Query:``), documents
none; every text ends with ``<|endoftext|>``; rows are left padded; the vector
is the final hidden state of that last token, L2 normalised. Matryoshka: the
leading ``dims`` components may be kept (then normalised again).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ModelError
from .onnx_decoder import DecoderSession, batches_by_length, left_pad, load_tokenizer, token_id
from .protocols import EmbedKind
from .runtime import sha256_file, verify

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings

DEFAULT_TASK = "Given a web search query, retrieve relevant passages that answer the query"
END_OF_TEXT = "<|endoftext|>"
#: batch x longest row, in tokens, per ONNX call: bounds activation memory.
TOKEN_BUDGET = 16384


def query_text(query: str, task: str = DEFAULT_TASK) -> str:
    return f"Instruct: {task}\nQuery:{query}"


class Qwen3Embedder:
    """Embeds with a Qwen3-Embedding ONNX graph (fp32 or int8)."""

    def __init__(
        self,
        onnx_path: str | Path,
        tokenizer_path: str | Path,
        *,
        model_id: str,
        settings: Settings | None = None,
        task: str | None = None,
        dims: int | None = None,
        max_tokens: int | None = None,
        batch_size: int | None = None,
        sha256: str | None = None,
        size: int | None = None,
    ):
        self.onnx_path = Path(onnx_path)
        # Verify before loading: a swapped or damaged file must not produce
        # vectors under the old fingerprint.
        if sha256:
            verify(self.onnx_path, sha256, size)
            self.sha256 = sha256.lower()
        else:
            self.sha256 = sha256_file(self.onnx_path)
        models = settings.models if settings else None
        self.task = task or (models.embed_instruction if models else "") or DEFAULT_TASK
        self.max_tokens = max_tokens or (models.embed_max_tokens if models else 512)
        self.batch_size = batch_size or (models.embed_batch if models else 32)
        self.tokenizer = load_tokenizer(tokenizer_path)
        self.end_id = token_id(self.tokenizer, END_OF_TEXT, tokenizer_path)
        self.decoder = DecoderSession(self.onnx_path, settings)
        if "last_hidden_state" not in self.decoder.output_names:
            raise ModelError(f"{self.onnx_path}: no last_hidden_state output: not an embedding graph")
        native = self.decoder.output_shape("last_hidden_state")[-1]
        self.native_dims = native if isinstance(native, int) else None
        wanted = dims or (models.embed_dims if models else 0) or None
        if wanted and self.native_dims and wanted > self.native_dims:
            raise ModelError(f"embedding dims {wanted} > the model's {self.native_dims}")
        self._truncate = wanted
        self.dims = wanted or self.native_dims or self._probe_dims()
        self.model_id = model_id
        self.fingerprint = f"{model_id}:{self.dims}:{self.sha256[:16]}"

    def _probe_dims(self) -> int:
        return int(self._run([[self.end_id]]).shape[1])

    def token_ids(self, text: str, kind: EmbedKind) -> list[int]:
        if kind == "query":
            text = query_text(text, self.task)
        ids = self.tokenizer.encode(text, add_special_tokens=False).ids[: self.max_tokens - 1]
        return ids + [self.end_id]

    def _run(self, rows: list[list[int]]) -> np.ndarray:
        ids, mask = left_pad(rows, self.end_id)
        (hidden,) = self.decoder.run(ids, mask, ["last_hidden_state"])
        # Left padding puts every row's final <|endoftext|> in the last column.
        return np.asarray(hidden[:, -1, :], dtype=np.float32)

    def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> np.ndarray:
        if kind not in ("query", "document"):
            raise ValueError(f"kind must be 'query' or 'document', not {kind!r}")
        rows = [self.token_ids(t, kind) for t in texts]
        out = np.zeros((len(rows), self.dims), dtype=np.float32)
        for group in batches_by_length([len(r) for r in rows], self.batch_size, TOKEN_BUDGET):
            vectors = self._run([rows[i] for i in group])
            if self._truncate:
                vectors = vectors[:, : self._truncate]
            norms = np.linalg.norm(vectors, axis=1, keepdims=True)
            out[group] = vectors / np.maximum(norms, 1e-12)
        return out
