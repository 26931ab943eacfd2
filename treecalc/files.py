"""Files written whole or not at all: a temporary file beside the target, renamed over it when complete.

A statement, a register backup or an export interrupted half-way (a full disk, a crash, Ctrl-C) must never
leave a truncated file where a good one was, nor a stray temporary file. :class:`Replacing` makes the
temporary file in the target's own folder (so the rename stays on one file system, where ``os.replace`` is
atomic), gives its path to the writer, and on success renames it over the target; on any error it removes it
and the target is as it was.

Standard library only.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from types import TracebackType

__all__ = ["Replacing"]


class Replacing:
    """``with Replacing(path) as tmp:`` write ``tmp``; when the block ends without error ``tmp`` replaces ``path``.

    The temporary file is made (empty, mode 0600) when the object is: an ``OSError`` then says the folder
    cannot be written, apart from one raised while writing. ``user_mode=True`` gives the finished file the
    user's usual mode (0666 less the umask: 0644 for most) instead of 0600, for a file meant to be shared
    (the statement); a backup keeps 0600.
    """

    def __init__(self, path: str | os.PathLike[str], *, user_mode: bool = False) -> None:
        self.path = Path(path)
        self.user_mode = user_mode
        folder = self.path.parent if str(self.path.parent) else Path(".")
        fd, self.tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
        os.close(fd)

    def __enter__(self) -> str:
        return self.tmp

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if kind is None:
                if self.user_mode:
                    umask = os.umask(0)  # read the umask (setting it is the only way), then put it back
                    os.umask(umask)
                    os.chmod(self.tmp, 0o666 & ~umask)
                os.replace(self.tmp, self.path)
                return
        except BaseException:
            self._discard()
            raise
        self._discard()

    def _discard(self) -> None:
        try:
            os.unlink(self.tmp)
        except OSError:
            pass
