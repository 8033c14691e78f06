"""Model roles (embed, rerank, read) and how a profile binds them.

Runtimes are imported lazily inside the functions below, so importing this
package costs nothing at start-up. Precedence per role: a local model
directory named in settings (``models.embed_model`` / ``rerank_model``), then
the profile's hub download, then what ships in packages (``bundled``).
"""

from __future__ import annotations

from ..settings import Settings
from .protocols import Embedder, Reader, Reranker


def load_embedder(settings: Settings) -> Embedder:
    from .manager import open_configured, open_hub_role
    from .registry import get_profile

    if (model := open_configured(settings, "embed")) is not None:
        return model
    if get_profile(settings.models.profile).role("embed").source == "hub":
        return open_hub_role(settings, "embed")
    from .minilm import MiniLMEmbedder

    return MiniLMEmbedder(settings)


def load_reranker(settings: Settings) -> Reranker | None:
    """The profile's reranker, or None: the fused order then passes through."""
    from .manager import open_configured, open_hub_role
    from .registry import get_profile

    if (model := open_configured(settings, "rerank")) is not None:
        return model
    if get_profile(settings.models.profile).role("rerank").source == "hub":
        return open_hub_role(settings, "rerank")
    return None


__all__ = ["Embedder", "Reader", "Reranker", "load_embedder", "load_reranker"]
