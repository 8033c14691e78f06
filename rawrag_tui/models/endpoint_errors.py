"""Every way a reader server can fail, as one line naming the endpoint and the fix.

The faces print a :class:`~rawrag_tui.errors.ModelError` as one line (exit
1 in the CLI; a notice in the app, which stays up), so each failure the
``openai`` client raises, and the raw transport errors a dropped stream
raises, are turned into one here. The reader keeps no state a failure could
corrupt: the next question simply tries the server again.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ModelError

#: Words servers use when a prompt is longer than their context (llama.cpp,
#: llama-cpp-python, vLLM, Ollama, LM Studio, OpenAI).
_CONTEXT_WORDS = ("context length", "context_length", "context window", "maximum context", "n_ctx",
                  "too many tokens", "exceeds the", "exceed context", "context size", "prompt is too long")
_BACK = "or go back to the bundled reader: `rawrag reader use bundled`"


class EndpointError(ModelError):
    """A reader server that failed; the message is one line: what, where, the fix."""


def transport_errors() -> tuple[type[BaseException], ...]:
    """What talking to a server can raise: the client's errors, the HTTP
    transport's (a stream cut mid-answer is not wrapped by the client), the OS's."""
    import httpx2  # the openai client's HTTP library
    import openai

    return (openai.OpenAIError, httpx2.HTTPError, httpx2.StreamError, OSError)


def _said(exc: BaseException) -> str:
    """What the server said, short and on one line."""
    body = getattr(exc, "body", None)
    text = ""
    if isinstance(body, dict):
        inner = body.get("error", body)
        text = str(inner.get("message") or inner.get("detail") or inner) if isinstance(inner, dict) else str(inner)
    elif isinstance(body, str):
        text = body
    text = text or str(getattr(exc, "message", "") or exc)
    text = " ".join(text.split())
    return text if len(text) <= 160 else text[:157] + "..."


def endpoint_error(exc: BaseException, endpoint: str, model: str, *, started: bool = False) -> EndpointError:
    """``exc`` (an ``openai`` error or a transport error) as one line."""
    import openai

    where = f"the reader server at {endpoint}"
    if isinstance(exc, openai.APIStatusError):
        code, said = exc.status_code, _said(exc)
        if code in (401, 403):
            return EndpointError(f"{where} refused the request ({code}: {said}): set the key in the environment "
                                 f"variable reader.api_key_env names (`rawrag reader use ... --api-key-env NAME`)")
        if code == 404:
            return EndpointError(f"{where} answered 404 for model {model!r} ({said}): check the model name "
                                 f"(`rawrag doctor` lists what it serves) and that the URL ends in /v1")
        if code == 429:
            return EndpointError(f"{where} is rate-limiting (429: {said}): wait a moment and ask again")
        if code == 400 or code == 413 or any(w in said.lower() for w in _CONTEXT_WORDS):
            if any(w in said.lower() for w in _CONTEXT_WORDS) or code == 413:
                return EndpointError(f"the prompt is longer than {model}'s context at {endpoint} ({said}): "
                                     f"set reader.endpoint_context to the server's context, or raise the "
                                     f"server's context (Ollama: num_ctx)")
            return EndpointError(f"{where} rejected the request ({code}: {said}); {_BACK}")
        if code >= 500:
            return EndpointError(f"{where} failed ({code}: {said}): check the server's log, then ask again; {_BACK}")
        return EndpointError(f"{where} answered HTTP {code} ({said}); {_BACK}")
    timed_out = isinstance(exc, openai.APITimeoutError) or "timeout" in type(exc).__name__.lower()
    if timed_out:
        return EndpointError(f"{where} did not answer in time: check it is not overloaded, or raise "
                             f"reader.timeout; {_BACK}")
    if started:
        return EndpointError(f"the connection to {where} dropped mid-answer ({type(exc).__name__}): "
                             f"check the server is still running, then ask again")
    if isinstance(exc, openai.APIConnectionError):
        return EndpointError(f"{where} is not reachable: start it (e.g. `ollama serve`, LM Studio's server), "
                             f"check reader.endpoint, {_BACK}")
    return EndpointError(f"{where} failed ({type(exc).__name__}: {_said(exc)}); {_BACK}")


def unknown_model(endpoint: str, model: str, served: list[str], command: Callable[[str], str]) -> EndpointError:
    """The server is up but does not serve ``model``: name what it does serve."""
    if not served:
        return EndpointError(f"the reader server at {endpoint} serves no model (load one there first), {_BACK}")
    listed = ", ".join(served[:5]) + (f" (+{len(served) - 5} more)" if len(served) > 5 else "")
    return EndpointError(f"the reader server at {endpoint} does not serve {model!r}; it serves {listed}: "
                         f"`{command(served[0])}`")
