"""Errors that the faces turn into one clear line and exit code 1.

Anything that is the user's fault (a bad file, a missing model, an unknown id)
is a ``UserError``; everything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix: printed as one line, exit code 1."""


class ImportFormatError(UserError):
    """An export file that cannot be read as the format tried.

    Carries the file, the format and where in the file the problem is, so the
    message names all three.
    """

    def __init__(self, path: object, fmt: str, problem: str, where: str | None = None):
        self.path = str(path)
        self.fmt = fmt
        self.problem = problem
        self.where = where
        loc = f" ({where})" if where else ""
        super().__init__(f"{self.path}: not a valid {fmt} export{loc}: {problem}")


class ModelError(UserError):
    """A model that is missing, corrupted or unusable: says which and what to do."""


class ReaderCrashed(ModelError):
    """The reader's process died (a signal, an abort, the out-of-memory killer).

    The message is one line: what happened, the model, the build, the fix.
    The face stays up; the next question starts a fresh reader process.
    """
