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


def load_reader(settings: Settings, gpu_layers: str | int | None = None) -> Reader:
    """The profile's local reader (a GGUF on llama.cpp): packaged for ``bundled``, pulled otherwise."""
    from .llama_reader import bundled_reader, load_reader as load_gguf
    from .registry import get_profile

    if get_profile(settings.models.profile).role("reader").source == "hub":
        from .manager import role_file

        return load_gguf(role_file(settings, "reader"), settings, gpu_layers=gpu_layers)
    return bundled_reader(settings, gpu_layers=gpu_layers)


__all__ = ["Embedder", "Reader", "Reranker", "load_embedder", "load_reader", "load_reranker"]
