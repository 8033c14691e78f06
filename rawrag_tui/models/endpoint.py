"""Where an OpenAI-compatible reader server is, and whether evidence may go there.

Why this module exists apart from the client (``openai_reader.py``):

- Privacy is decided on the URL's text alone, before any name lookup or
  connection: the evidence a reader is sent is the user's private history,
  so an endpoint that is not this machine's loopback (``localhost``,
  127.0.0.0/8, ``::1``) is refused unless ``reader.allow_remote`` is true.
  Resolving the name first would already tell a DNS server what the user is
  about to do, and a name can resolve anywhere.
- ``rawrag reader use`` takes short names for the servers people run
  (``ollama:MODEL``, ``lmstudio:MODEL``) and writes plain settings.
- Discovery (``rawrag doctor``, the app's Status screen) only ever knocks on
  loopback ports, with short timeouts, and lists what each server serves with
  the one command that switches to it.

Nothing here connects at import time; the ``openai`` package is imported
only inside the calls that talk to a server.
"""

from __future__ import annotations

import ipaddress
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..errors import ModelError, UserError

#: Short names ``rawrag reader use NAME:MODEL`` takes: the server and its usual port.
KNOWN_SERVERS: dict[str, tuple[str, int]] = {
    "ollama": ("Ollama", 11434),
    "lmstudio": ("LM Studio", 1234),
    "llama-server": ("llama-server", 8080),
}
#: Seconds discovery waits for one loopback port: a local server answers its
#: model list at once; a closed port refuses at once.
DISCOVERY_TIMEOUT = 1.0
#: Model ids that are not chat models (embedders, rerankers): not offered.
_NOT_CHAT = ("embed", "rerank", "bge-", "minilm", "nomic-embed")


class EndpointRefused(ModelError):
    """An endpoint that would send the evidence off this machine without ``allow_remote``."""


def is_loopback(host: str) -> bool:
    """``localhost`` or a literal loopback address; never resolves a name."""
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(url: str, allow_remote: bool) -> str:
    """``url`` tidied (no trailing slash), or one line saying why it cannot be used.

    Decided on the text alone: no lookup, no connection."""
    text = url.strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(f"reader.endpoint {url!r} is not an http(s) URL like http://127.0.0.1:11434/v1")
    try:
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        raise UserError(f"reader.endpoint {url!r} has no valid port") from None
    if not allow_remote and not is_loopback(parts.hostname):
        raise EndpointRefused(
            f"reader.endpoint {text} is not on this machine, and the reader would send it your messages: "
            f"refused (set reader.allow_remote = true, or RAWRAG_READER_ALLOW_REMOTE=1, to allow it)"
        )
    return text


def server_root(endpoint: str) -> str:
    """The server's root URL (``.../v1`` removed), where its own extras live."""
    return endpoint[: -len("/v1")] if endpoint.endswith("/v1") else endpoint


@dataclass(frozen=True)
class ReaderChoice:
    """What ``rawrag reader use SPEC [MODEL]`` writes into ``[reader]``."""

    endpoint: str
    model: str

    @property
    def bundled(self) -> bool:
        return not self.endpoint


def parse_choice(spec: str, model: str | None = None) -> ReaderChoice:
    """``bundled``, ``ollama:MODEL``, ``lmstudio:MODEL``, ``llama-server:MODEL``
    or ``http(s)://HOST:PORT/v1 MODEL``; one line naming the accepted forms otherwise."""
    spec = spec.strip()
    forms = "use bundled, ollama:MODEL, lmstudio:MODEL, llama-server:MODEL or http://HOST:PORT/v1 MODEL"
    if spec == "bundled":
        if model:
            raise UserError(f"reader use bundled takes no model ({model!r}): the bundled reader is the profile's")
        return ReaderChoice("", "")
    if spec.startswith(("http://", "https://")):
        if not model:
            raise UserError(f"reader use {spec}: name the model too, e.g. `rawrag reader use {spec} MODEL`")
        return ReaderChoice(spec.rstrip("/"), model)
    name, sep, rest = spec.partition(":")
    if sep and name in KNOWN_SERVERS:
        picked = rest or model or ""
        if not picked or (rest and model):
            raise UserError(f"reader use {spec!r}: name one model, as {name}:MODEL")
        return ReaderChoice(f"http://127.0.0.1:{KNOWN_SERVERS[name][1]}/v1", picked)
    raise UserError(f"reader use {spec!r}: not a reader I know ({forms})")


def use_command(endpoint: str, model: str) -> str:
    """The one command that switches a home to ``model`` at ``endpoint``."""
    parts = urlsplit(endpoint)
    if is_loopback(parts.hostname or "") and parts.path.rstrip("/") == "/v1":
        for name, (_, port) in KNOWN_SERVERS.items():
            if parts.port == port:
                return f"rawrag reader use {name}:{model}"
    return f"rawrag reader use {endpoint} {model}"


def client(endpoint: str, api_key: str | None, timeout: float, *, connect: float | None = None) -> Any:
    """An ``openai.OpenAI`` for ``endpoint``: no retries (a failure is one line
    now, not a minute of silent retrying), ``timeout`` per read."""
    import openai

    return openai.OpenAI(base_url=endpoint, api_key=api_key or "not-needed", max_retries=0,
                         timeout=openai.Timeout(timeout, connect=connect or min(timeout, 5.0)))


def list_models(endpoint: str, api_key: str | None = None, timeout: float = 5.0) -> list[dict[str, Any]]:
    """GET ``/v1/models``: each entry as the server sent it (``id`` and extras such as vLLM's ``max_model_len``)."""
    reply = client(endpoint, api_key, timeout).get("/models", cast_to=object)
    data = reply.get("data") if isinstance(reply, dict) else None
    if not isinstance(data, list):
        raise ModelError(f"{endpoint}/models did not list models: not an OpenAI-compatible /v1 URL?")
    return [m for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)]


def chat_models(models: list[dict[str, Any]]) -> list[str]:
    return [m["id"] for m in models if not any(word in m["id"].lower() for word in _NOT_CHAT)]


@dataclass
class FoundServer:
    """A server discovery found on a loopback port."""

    server: str
    endpoint: str
    models: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def discover(ports: dict[str, int] | None = None, timeout: float = DISCOVERY_TIMEOUT) -> list[FoundServer]:
    """The OpenAI-compatible servers listening on this machine's loopback ports
    (Ollama 11434, LM Studio 1234, llama-server 8080, or ``ports``: name -> port),
    each with the chat models it serves. Only 127.0.0.1, ever."""
    import openai

    ports = ports if ports is not None else {label: port for label, port in KNOWN_SERVERS.values()}
    found = []
    for label, port in ports.items():
        endpoint = f"http://127.0.0.1:{port}/v1"
        try:
            models = chat_models(list_models(endpoint, timeout=timeout))
        except (openai.OpenAIError, ModelError):
            continue
        found.append(FoundServer(label, endpoint, models, [use_command(endpoint, m) for m in models]))
    return found
