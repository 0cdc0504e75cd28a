"""Atomic file writing: a crash never leaves a half-written or destroyed result.

Every writer produces the complete content in a temporary file in the target's directory,
flushes and fsyncs it, then ``os.replace``s it onto the target (atomic on POSIX and Windows).
If anything fails before the replace, the temporary file is removed and any previous file at
the target is left untouched. ``staged_results`` does the same for a whole set of result files:
a run that fails halfway (a full disk) leaves the previous run's files all as they were.
"""

from __future__ import annotations

import errno
import io
import json
import math
import os
import secrets
import shutil
import signal
import socket
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from analyzer import interrupts

__all__ = [
    "read_data_file",
    "atomic_write",
    "atomic_write_bytes",
    "atomic_write_text",
    "atomic_write_parquet",
    "staged_results",
    "write_json",
    "to_jsonable",
]

_TMP_SUFFIX = ".tmp"
MAX_FILE_BYTES = 10 * 2**20  # every data file a user gives (tiles, a board, rules) is far smaller


def read_data_file(path: str | os.PathLike) -> bytes:
    """The bytes of a data file a user gives: a regular file of at most MAX_FILE_BYTES (a device such
    as /dev/zero or a pipe would be read without end); OSError otherwise."""
    # O_NONBLOCK: opening a pipe with no writer would wait for one
    with open(path, "rb", opener=lambda p, flags: os.open(p, flags | getattr(os, "O_NONBLOCK", 0))) as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if info.st_size > MAX_FILE_BYTES:
            raise OSError(errno.EFBIG, f"larger than {MAX_FILE_BYTES // 2**20} MB", str(path))
        return fh.read()


def _open_temp(target: Path) -> tuple[Path, int]:
    """Create a fresh hidden temp file next to ``target``; mode 0o666 minus the umask, like open()."""
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}{_TMP_SUFFIX}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            continue
        return tmp, fd
    raise FileExistsError(f"could not create a temporary file next to {target}")


def _fsync_dir(directory: Path) -> None:
    """Persist the rename itself (best effort; not supported on every platform)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike, writer: Callable[[IO[bytes]], Any]) -> Path:
    """Call ``writer(fileobj)`` on a temp file, then atomically move it onto ``path``.

    ``fileobj`` is a binary file object. If ``writer`` raises, the temp file is deleted, the
    exception propagates, and the previous content of ``path`` (if any) is intact. Only a missing
    path or a regular file is ever replaced (a symlink to one: the file it names): a character device
    (/dev/null, /dev/full, a terminal) or a fifo, also behind a symlink such as /dev/stdout, is written
    directly, every write checked; anything else (a folder, a block device, a socket) is an OSError.
    """
    target = Path(path)
    kind = _write_kind(target)
    if kind != "file":
        buffer = io.BytesIO()
        writer(buffer)
        _write_direct(target, buffer.getbuffer(), fifo=kind == "fifo")
        return target
    target = Path(os.path.realpath(target)) if target.is_symlink() else target
    tmp, fd = _open_temp(target)
    try:
        with os.fdopen(fd, "wb") as fh:  # (a failed write, flush or close raises, so the file is never moved)
            writer(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(target.parent)
    return target


def _write_kind(target: Path) -> str:
    """How atomic_write writes to target: "file" (a temp file renamed onto it: missing or a regular file,
    or a symlink to one), "device" or "fifo" (directly); OSError for anything else."""
    try:
        info = os.stat(target)  # (follows symlinks: /dev/stdout -> /proc/self/fd/1 -> a pipe or a terminal)
    except FileNotFoundError:
        if os.path.abspath(target).startswith(("/dev/", "/proc/")):  # never a new file among the devices
            raise OSError(errno.ENOENT, "no such device", str(target)) from None
        return "file"  # (a dangling symlink is replaced; a missing folder fails on the temp file)
    if stat.S_ISREG(info.st_mode):
        # /dev/stdout redirected to a file: write through it (appending, after what the shell's command wrote
        # there); a temp file renamed onto the file would cut it off from the shell's output
        return "device" if os.path.abspath(target).startswith(("/dev/", "/proc/")) else "file"
    if stat.S_ISCHR(info.st_mode):
        return "device"
    if stat.S_ISFIFO(info.st_mode):
        return "fifo"
    what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file, a character device or a fifo"
    raise OSError(errno.EISDIR if stat.S_ISDIR(info.st_mode) else errno.EINVAL, what, str(target))


def _write_direct(target: Path, data: memoryview, fifo: bool) -> None:
    """Write data to a device or fifo that is already there (appending: /dev/stdout may be a file the shell
    opened), checking every write and the close. A fifo
    is opened without waiting: one that no process reads is refused (ENXIO) instead of hanging."""
    flags = os.O_WRONLY | os.O_APPEND | (os.O_NONBLOCK if fifo else 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a fifo that no process reads", str(target)) from None
        raise
    try:
        if fifo:
            os.set_blocking(fd, True)  # (a reader is there: wait for it to take the data)
        done = 0
        while done < len(data):
            written = os.write(fd, data[done:])
            if written <= 0:
                raise OSError(errno.EIO, "nothing could be written", str(target))
            done += written
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    finally:
        os.close(fd)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Atomically write ``data`` to ``path``."""
    data = bytes(data)
    return atomic_write(path, lambda fh: fh.write(data))


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> Path:
    """Atomically write ``text`` (UTF-8 by default, newlines written as given)."""
    return atomic_write_bytes(path, text.encode(encoding))


def atomic_write_parquet(path: str | os.PathLike, df, **kwargs) -> Path:
    """Atomically write a ``polars.DataFrame`` as Parquet (extra kwargs go to ``write_parquet``). The table is
    encoded in memory first: polars reports a failed write (a full disk) as its own ComputeError, not OSError."""
    buffer = io.BytesIO()
    df.write_parquet(buffer, **kwargs)
    return atomic_write_bytes(path, buffer.getbuffer())


RESULTS_LIST = ".tabletop-results"  # in a results folder: the names of the files its run wrote, one a line
RUN_LOCK = ".tabletop-run.lock"  # in a results folder: locked (flock) by the run writing into it


@contextmanager
def staged_results(out: str | os.PathLike, stale: tuple[str, ...] = ()) -> Iterator[Path]:
    """Yield a hidden staging folder inside ``out`` to write a run's result files into; when the
    block ends they are moved onto their names in ``out``, and the files of the run before that this
    one does not write (named in its RESULTS_LIST, and the ``stale`` names) are removed: ``out`` then
    holds this run's results and nothing of an earlier run's. If the block raises, or a move could
    not be made, the staging folder is removed and nothing in ``out`` has changed.

    The moves are one step: Ctrl-C and SIGTERM wait until they are done, and a lock on ``out``
    keeps a second run from interleaving its own. Only SIGKILL in those few milliseconds can
    leave a mix; a staging folder of a run that died is removed by the next run.
    """
    out = Path(out)
    _remove_dead_stages(out)
    stage = out / f".staging-{_HOST}-{os.getpid()}-{secrets.token_hex(6)}"
    stage.mkdir()
    try:
        yield stage
        interrupts.check()  # a stop asked for while the results were made, even one numba swallowed
        names = sorted(p.name for p in stage.iterdir())
        for name in names:  # checked before the first move, so no set is ever half replaced
            if (out / name).is_dir() and not (out / name).is_symlink():
                raise IsADirectoryError(errno.EISDIR, "a folder is in the way of a result file", str(out / name))
        atomic_write_text(stage / RESULTS_LIST, "".join(f"{name}\n" for name in names))
        with _signals_held(), _locked(out / ".results.lock"):
            earlier = set(_listed_results(out)) | set(stale)
            for name in names:
                os.replace(stage / name, out / name)
            for name in sorted(earlier - set(names)):
                if not (out / name).is_dir():
                    (out / name).unlink(missing_ok=True)
            os.replace(stage / RESULTS_LIST, out / RESULTS_LIST)
        _fsync_dir(out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _listed_results(out: Path) -> list[str]:
    """The result files the last run into out wrote (its RESULTS_LIST): plain names only."""
    try:
        lines = (out / RESULTS_LIST).read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [n for n in lines if n and n not in (".", "..") and "/" not in n and not n.startswith(".")]


_RUN_LOCKS: dict[str, tuple[int, Path]] = {}  # results folder (real path) -> its RUN_LOCK, open and locked


def lock_results_folder(out: Path) -> None:
    """Lock out for this process's run (released by release_results_folders, or the process's end); a folder
    another run holds is one UserError. Several locks of one folder in this process are one. The lock file is
    removed when released, so a lock is only ever taken on the file at the path now (checked after the flock)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock
        return
    from analyzer.errors import UserError

    key = os.path.realpath(out)
    if key in _RUN_LOCKS:
        return
    path = out / RUN_LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 100).decode("utf-8", "replace").strip()
            os.close(fd)
            raise UserError(f"--out {out} is being written by another run{f' ({holder})' if holder else ''}; "
                            "wait for it to end or give another folder") from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # (its holder removed the file between our open and our lock: take the new one)
    os.ftruncate(fd, 0)
    os.write(fd, f"process {os.getpid()} on {socket.gethostname()}".encode())
    _RUN_LOCKS[key] = (fd, path)


def held_results_folders() -> set[str]:
    return set(_RUN_LOCKS)


def release_results_folders(keep: set[str] = frozenset()) -> None:
    """Unlock the results folders this process locked, but those in keep, removing their lock files."""
    for key in [k for k in _RUN_LOCKS if k not in keep]:
        fd, path = _RUN_LOCKS.pop(key)
        try:
            path.unlink(missing_ok=True)  # (while still locked: no other run holds this file)
        except OSError:
            pass
        os.close(fd)  # (closing releases the lock)


_HOST = socket.gethostname().replace("-", "_")  # (a shared folder may be written from several machines)


def _remove_dead_stages(out: Path) -> None:
    """Staging folders of runs on this machine that were killed outright (their process is gone)."""
    for entry in out.glob(f".staging-{_HOST}-*-*"):
        pid = entry.name.split("-")[2]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM arriving in the block take effect (as KeyboardInterrupt) when it is done.
    Python-level handlers, not a signal mask: a mask holds only this thread, and the kernel would
    hand the signal to another (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    held = (signal.SIGINT, signal.SIGTERM)
    before = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in held}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
    if caught:
        raise KeyboardInterrupt


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on the file at path for the block (POSIX flock; elsewhere none)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def to_jsonable(obj: Any) -> Any:
    """Convert numpy scalars/arrays, paths, tuples and sets to JSON types; NaN/inf become None.

    Strict JSON has no NaN/Infinity, so non-finite floats are written as ``null``.
    Raises ``TypeError`` for objects it cannot represent.
    """
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if not isinstance(k, str):
                k = to_jsonable(k)
                if not (k is None or isinstance(k, (str, int, float, bool))):
                    raise TypeError(f"dict key {k!r} is not a JSON scalar")
            out[k] = to_jsonable(v)
        return out
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return [to_jsonable(v) for v in sorted(obj, key=repr)]
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    try:  # numpy without importing it eagerly
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if np is not None:
        if isinstance(obj, np.bool_):
            return bool(obj)
        if isinstance(obj, np.integer):
            return int(obj)
        if isinstance(obj, np.floating):
            return to_jsonable(float(obj))
        if isinstance(obj, np.ndarray):
            return to_jsonable(obj.tolist())
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def write_json(path: str | os.PathLike, obj: Any) -> Path:
    """Atomically write ``obj`` as JSON (indent 2, keys in insertion order, UTF-8, trailing newline).

    The whole document is serialised before the file is touched, so an unserialisable object
    raises ``TypeError`` and leaves any previous file intact.
    """
    text = json.dumps(to_jsonable(obj), indent=2, sort_keys=False, ensure_ascii=False, allow_nan=False)
    return atomic_write_text(path, text + "\n")
