"""From stored messages to searchable windows and vectors.

Windowing runs inside the import's transaction (it is cheap and must land
with the messages). Embedding runs after it, in committed batches keyed by
window-text hash, so an interrupted run resumes where it stopped and text
that is already embedded is never embedded again.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from contextlib import AbstractContextManager

from ..models.protocols import Embedder
from ..progress import Progress
from ..settings import WindowSettings
from ..storage.store import Store, WindowRow
from .serialise import message_line
from .windowing import cut_windows


def window_conversation(store: Store, conversation_id: int, settings: WindowSettings) -> int:
    messages = store.main_branch_messages(conversation_id)
    lines = [message_line(m["ts"], m["speaker"], m["text"], json.loads(m["captions"])) for m in messages]
    rows = [
        WindowRow(w.seq, w.token_start, w.token_end, messages[w.first_message]["seq"],
                  messages[w.last_message]["seq"], w.text, w.content_hash)
        for w in cut_windows(lines, settings)
    ]
    return store.replace_windows(conversation_id, rows, settings.key())


def window_pending(store: Store, settings: WindowSettings, only: Iterable[int] | None = None) -> int:
    """(Re)window conversations whose windows are missing or were cut with other settings."""
    todo = store.conversations_needing_windows(settings.key())
    if only is not None:
        wanted = set(only)
        todo = [c for c in todo if c in wanted]
    return sum(window_conversation(store, cid, settings) for cid in todo)


def embed_pending(store: Store, embedder: Embedder, batch: int = 256, progress: Progress | None = None,
                  lock: AbstractContextManager | None = None) -> int:
    """Embed every window text the embedder's space lacks; returns how many.

    Each batch is committed on its own: a run killed mid-way loses at most one
    batch, and the next run continues from what is still pending (vectors are
    keyed by window-text hash, so nothing is embedded twice). With ``lock``
    (the app's store lock) the store is touched only while holding it and the
    model runs without it, so a search made meanwhile waits for one commit,
    not for the embedding. One process embeds a store at a time
    (:meth:`Store.embedding_lock`): a second waits, then embeds what is left.
    """
    guard = lock if lock is not None else contextlib.nullcontext()

    def waiting() -> None:
        if progress:
            progress("wait", 0, None)

    # Another process embedding this store goes first; what it leaves is done here.
    with store.embedding_lock(waiting):
        with guard:
            space = store.ensure_space(embedder.fingerprint, embedder.dims)
            total = store.pending_count(space)
        done = 0
        if progress:
            progress("embed", 0, total)
        while True:
            with guard:
                pending = store.pending_windows(space, batch)
                if not pending:
                    with store.transaction():
                        store.mark_embedded(space)
                    break
            vectors = embedder.embed([text for _, text in pending], kind="document")
            with guard, store.transaction():
                store.add_vectors(space, [h for h, _ in pending], vectors)
            done += len(pending)
            if progress:
                progress("embed", min(done, max(total, done)), max(total, done))
    return done
