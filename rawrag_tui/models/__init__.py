"""Model roles (embed, rerank, read) and how a profile binds them.

Runtimes are imported lazily inside the functions below, so importing this
package costs nothing at start-up.
"""

from __future__ import annotations

from ..errors import UserError
from ..settings import Settings
from .protocols import Embedder, Reader, Reranker

PROFILES = ("bundled",)


def load_embedder(settings: Settings) -> Embedder:
    profile = settings.models.profile
    if profile == "bundled":
        from .minilm import MiniLMEmbedder

        m = settings.models
        return MiniLMEmbedder(max_tokens=m.embed_max_tokens, batch_size=m.embed_batch, device=m.device, threads=m.threads)
    raise UserError(f"unknown model profile {profile!r}; known: {', '.join(PROFILES)}")


def load_reranker(settings: Settings) -> Reranker | None:
    """The profile's reranker, or None: the fused order then passes through."""
    if settings.models.profile == "bundled":
        return None
    raise UserError(f"unknown model profile {settings.models.profile!r}")


__all__ = ["Embedder", "Reader", "Reranker", "load_embedder", "load_reranker"]
