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
    spec = get_profile(settings.models.profile).role("embed")
    if spec.source == "hub":
        return open_hub_role(settings, "embed")
    if spec.kind in ("use-embed", "e5-embed"):
        from .multilingual import open_embedder

        return open_embedder(spec.kind, settings)
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
    """The reader: the server ``reader.endpoint`` names (any OpenAI-compatible
    one; refused before any connection when not loopback and not
    ``reader.allow_remote``), else the local one (a GGUF on llama.cpp, in its
    own process): ``models.reader_model`` when set, else the profile's:
    packaged for ``bundled``, pulled otherwise."""
    from pathlib import Path

    if settings.reader.endpoint:
        from .openai_reader import EndpointReader

        return EndpointReader(settings)

    from .gguf import BUNDLED_READER
    from .reader_process import ReaderProcess, gguf_launch, packaged_launch, require_llama_cpp
    from .registry import get_profile

    if settings.models.reader_model:
        require_llama_cpp()
        launch = gguf_launch(Path(settings.models.reader_model).expanduser(), settings, gpu_layers=gpu_layers)
    elif get_profile(settings.models.profile).role("reader").source == "hub":
        from .manager import role_file

        require_llama_cpp()
        launch = gguf_launch(role_file(settings, "reader"), settings, gpu_layers=gpu_layers)
    else:
        launch = packaged_launch(BUNDLED_READER, settings, gpu_layers=gpu_layers)
    return ReaderProcess(launch)


__all__ = ["Embedder", "Reader", "Reranker", "load_embedder", "load_reader", "load_reranker"]
