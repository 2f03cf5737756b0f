"""Replace a file's content all at once, or not at all.

Width tables are committed results and exports are read by scripts and
connectors; a crash or a full disk halfway through a write must never leave a
truncated file where a good one was.
"""

from __future__ import annotations

import errno
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class WriteInterrupted(KeyboardInterrupt):
    """SIGTERM arrived during an atomic write; raised so the temporary file is cleaned up."""


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM into an exception for the block, so ``finally`` runs; SIGINT already raises.

    Only the main thread may set handlers; elsewhere the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise WriteInterrupted(f"interrupted by signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and ``os.replace``.

    The temporary file lives in the same directory (so the rename never
    crosses filesystems) and is flushed and fsynced before it replaces
    ``path``. The parent directory is created if missing. The new file gets
    the usual permissions for the process umask. SIGINT and SIGTERM during
    the write leave the old file and no temporary file behind (SIGTERM is
    raised as ``WriteInterrupted``, a ``KeyboardInterrupt``). A device or a
    FIFO (``-o /dev/null``, ``-o /dev/stdout``) is written into, not replaced.

    Raises:
        OSError: ``path`` is a folder, or the directory or file cannot be written. The temporary file
            is removed and whatever was at ``path`` is left untouched.
        UnicodeEncodeError: ``text`` cannot be encoded; nothing is touched.
    """
    path = Path(path)
    data = text.encode("utf-8")
    if path.is_dir():  # `-o ''` or `-o out/`: os.replace would fail with a message that names no file
        raise IsADirectoryError(errno.EISDIR, "is a folder; name the file to write", str(path))
    if path.exists() and not path.is_file():
        # /dev/null, /dev/stdout, a FIFO: replacing the node would put a plain file where a device was.
        with open(path, "wb") as handle:
            handle.write(data)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.urandom(8).hex()}.tmp")
    created = False
    with _terminate_as_interrupt():
        try:
            with open(tmp, "xb") as handle:
                created = True
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            if created:
                tmp.unlink(missing_ok=True)
            raise
