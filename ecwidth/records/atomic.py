"""Replace a file's content all at once, or not at all; and a set of files as close to that as renames allow.

Width tables are committed results and exports are read by scripts and
connectors; a crash or a full disk halfway through a write must never leave a
truncated file where a good one was.

A set of files (a table's .json, .csv and .md) cannot be renamed into place
in one step, so ``write_texts_atomic`` does the next best: every target is
checked and every new file written beside it before any is replaced, the
renames (quick, and hardly ever failing once the new files are written) run
with the ending signals held, and the file named last, the record readers
trust, is replaced last.
"""

from __future__ import annotations

import errno
import os
import signal
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from ecwidth.errors import EcwidthError

#: The signals that end a command: held while a set of files is renamed into place.
_HELD_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class WriteInterrupted(KeyboardInterrupt):
    """SIGTERM arrived during an atomic write; raised so the temporary file is cleaned up."""


class UnwritableError(EcwidthError):
    """A file of a set cannot be written; the message says which, why, and what was left as it was."""


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


def write_texts_atomic(texts: Mapping[str | os.PathLike[str], str]) -> None:
    """Write every ``{path: text}`` (UTF-8) or, where any target cannot be written, none of them.

    Every target is checked first (a folder, a FIFO or a device where the file
    should be, a read-only file, a read-only folder, a file where a folder
    should be); then each text goes to a temporary file beside its target,
    flushed and fsynced; only then are the temporaries renamed over the targets,
    in the order ``texts`` gives, so the last one is replaced last. SIGTERM
    before the renames leaves every old file and no temporary file
    (``WriteInterrupted``); SIGTERM, SIGINT and SIGHUP during the renames wait
    until the last one is done. Missing parent folders are created.

    Raises:
        UnwritableError: A target cannot be written, or a temporary file cannot be (a full disk); nothing was
            replaced. Or, hardly ever, a rename failed; the message names the files already replaced, never the
            last one.
        UnicodeEncodeError: A text cannot be encoded; nothing is touched.
    """
    encoded = {Path(path): text.encode("utf-8") for path, text in texts.items()}
    for path in encoded:
        _refuse_unwritable(path)
    temporaries: dict[Path, Path] = {}
    with _terminate_as_interrupt():
        try:
            for path, data in encoded.items():
                temporaries[path] = _written_beside(path, data)
            replaced: list[Path] = []
            with _signals_held():
                for path, tmp in temporaries.items():
                    try:
                        os.replace(tmp, path)
                    except OSError as error:
                        kept = [str(p) for p in temporaries if p not in replaced]
                        done = f"{', '.join(map(str, replaced))} already replaced; " if replaced else ""
                        raise UnwritableError(
                            f"cannot replace {path}: {error.strerror or error}; {done}{', '.join(kept)} kept their "
                            "old content. Fix the cause and write again."
                        ) from None
                    replaced.append(path)
        finally:
            for tmp in temporaries.values():
                tmp.unlink(missing_ok=True)  # a renamed one is gone already


def _refuse_unwritable(path: Path) -> None:
    """Check that ``path`` can be replaced by a rename, before anything is written.

    Raises:
        UnwritableError: What is in the way, and what to do.
    """
    nothing = "nothing was written"
    if path.is_dir():
        raise UnwritableError(f"cannot write {path}: it is a folder; move it away or write elsewhere ({nothing})")
    if path.exists() and not path.is_file():
        raise UnwritableError(
            f"cannot write {path}: it is not a regular file (a FIFO, a socket or a device); "
            f"move it away or write elsewhere ({nothing})"
        )
    if path.is_file() and not os.access(path, os.W_OK):
        raise UnwritableError(
            f"cannot write {path}: the file is read-only; make it writable (chmod u+w) or write elsewhere ({nothing})"
        )
    folder = path.parent
    while not folder.exists() and folder != folder.parent:  # the first folder there is; the rest are made
        folder = folder.parent
    if not folder.is_dir():
        raise UnwritableError(f"cannot write {path}: {folder} is a file, not a folder; write elsewhere ({nothing})")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UnwritableError(
            f"cannot write {path}: the folder {folder} is read-only; make it writable or write elsewhere ({nothing})"
        )


def _written_beside(path: Path, data: bytes) -> Path:
    """A new temporary file in ``path``'s folder holding ``data``, flushed and fsynced; the folder made if missing.

    Raises:
        UnwritableError: The folder or the file cannot be made or written; no temporary file is left.
    """
    tmp = path.with_name(f".{path.name}.{os.urandom(8).hex()}.tmp")
    created = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "xb") as handle:
            created = True
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException as error:
        if created:
            tmp.unlink(missing_ok=True)
        if isinstance(error, OSError):  # a full disk, or a folder that turned read-only since the check
            raise UnwritableError(f"cannot write {path}: {error.strerror or error}; nothing was replaced") from None
        raise
    return tmp


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold the ending signals for the block: one that arrives is raised again, to its own handler, when the block
    ends. Only the main thread may set handlers; elsewhere the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, frame: arrived.append(signum)) for signum in _HELD_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(arrived):
            signal.raise_signal(signum)
