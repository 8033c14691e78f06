"""From stored messages to searchable windows and vectors.

Windowing runs inside the import's transaction (it is cheap and must land
with the messages). Embedding runs after it, in committed batches keyed by
window-text hash, so an interrupted run resumes where it stopped and text
that is already embedded is never embedded again.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ..models.protocols import Embedder
from ..progress import Progress
from ..settings import WindowSettings
from ..storage.store import Store, WindowRow
from .serialise import message_line
from .windowing import cut_windows

if TYPE_CHECKING:
    import numpy as np


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


#: How long the model runs between two progress reports, about: a batch is embedded in
#: pieces sized from the pace measured so far, so a 187-window import moves its count
#: every half second instead of sitting at 0/187 until its one batch is committed.
PIECE_S = 0.5


class Pieces:
    """Embeds a batch in pieces of about :data:`PIECE_S` seconds, reporting after each."""

    def __init__(self, embedder: Embedder, clock=time.perf_counter, first: int = 1):
        self.embedder, self.clock, self.size = embedder, clock, first

    def embed(self, texts: list[str], done) -> np.ndarray:
        """The vectors of ``texts``; ``done(count)`` after each piece."""
        import numpy as np

        out = []
        pos = 0
        while pos < len(texts):
            piece = texts[pos:pos + self.size]
            started = self.clock()
            out.append(self.embedder.embed(piece, kind="document"))
            seconds = self.clock() - started
            pos += len(piece)
            if seconds > 0:
                self.size = max(1, int(PIECE_S * len(piece) / seconds))
            done(len(piece))
        return np.concatenate(out) if len(out) > 1 else out[0]


def embed_pending(store: Store, embedder: Embedder, batch: int = 256, progress: Progress | None = None,
                  lock: AbstractContextManager | None = None, clock=time.perf_counter) -> int:
    """Embed every window text the embedder's space lacks; returns how many.

    A batch is committed at once but embedded in pieces of about
    :data:`PIECE_S` seconds, and ``progress`` hears after each piece.

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
        pieces = Pieces(embedder, clock)

        def report(count: int) -> None:
            nonlocal done
            done += count
            if progress:
                progress("embed", min(done, max(total, done)), max(total, done))

        while True:
            with guard:
                pending = store.pending_windows(space, batch)
                if not pending:
                    with store.transaction():
                        store.mark_embedded(space)
                    break
            vectors = pieces.embed([text for _, text in pending], report)
            with guard, store.transaction():
                store.add_vectors(space, [h for h, _ in pending], vectors)
    return done
