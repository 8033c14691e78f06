"""``rawrag reader use``: which reader a home reads with, written to its config.toml.

Only the settings are written (``[reader] endpoint``, ``model``, and when
asked ``api_key_env`` and ``allow_remote``); never a key. A remote endpoint
is refused before anything is written or any connection is made, unless
``--allow-remote`` (or the home's ``reader.allow_remote``) says otherwise.
After writing, the server is asked once, briefly, whether it serves the
model: a server that is not running yet is a note, not a failure (the
choice is still right; it will be running when a question is asked).
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelError
from ..settings import Settings
from .endpoint import check_endpoint, parse_choice
from .manager import set_config_value

#: Seconds the after-writing check waits for the server's model list.
CHECK_TIMEOUT = 3.0


def use(settings: Settings, spec: str, model: str | None = None, *, api_key_env: str | None = None,
        allow_remote: bool = False) -> dict[str, Any]:
    """Write the choice; returns what was written and what the server said."""
    choice = parse_choice(spec, model)
    if choice.bundled:
        path = set_config_value(settings.home, "reader", "endpoint", "")
        set_config_value(settings.home, "reader", "model", "")
        return {"config": str(path), "backend": "bundled", "endpoint": "", "model": "", "check": None}
    endpoint = check_endpoint(choice.endpoint, allow_remote or settings.reader.allow_remote)
    path = set_config_value(settings.home, "reader", "endpoint", endpoint)
    set_config_value(settings.home, "reader", "model", choice.model)
    if api_key_env is not None:
        set_config_value(settings.home, "reader", "api_key_env", api_key_env)
    if allow_remote:
        set_config_value(settings.home, "reader", "allow_remote", True)
    return {"config": str(path), "backend": "openai-compatible", "endpoint": endpoint, "model": choice.model,
            "check": check_served(endpoint, choice.model, api_key_env or settings.reader.api_key_env)}


def check_served(endpoint: str, model: str, api_key_env: str = "") -> dict[str, Any]:
    """Whether ``endpoint`` answers and serves ``model`` (one line in ``note``)."""
    import os

    from .endpoint import chat_models, list_models

    key = os.environ.get(api_key_env) if api_key_env else None
    from .endpoint_errors import endpoint_error, transport_errors

    failures: tuple[type[BaseException], ...] = (*transport_errors(), ModelError)
    try:
        served = [m["id"] for m in list_models(endpoint, key, CHECK_TIMEOUT)]
    except failures as exc:  # a note here: the choice is written either way
        return {"reachable": False, "served": False, "note": str(endpoint_error(exc, endpoint, model))}
    ok = model in served
    offered = ", ".join(chat_models([{"id": m} for m in served])) or "nothing"
    note = "" if ok else f"{endpoint} does not serve {model!r} (it serves {offered})"
    return {"reachable": True, "served": ok, "note": note}


__all__ = ["check_served", "use"]
