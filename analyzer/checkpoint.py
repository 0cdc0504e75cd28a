"""--checkpoint DIR: completed chunks on disk, so a killed run resumes where it stopped.

    DIR/manifest.json                     what the run is: the job spec, the stopping rule, the package version
    DIR/chunks/<start>-<end>.<sha256>.npy one finished chunk: the result columns of games start .. end-1,
                                          named with the SHA-256 of its bytes

Every file is written whole to a temporary file, fsynced and renamed (analyzer.io.atomic_write), so
``kill -9`` at any moment leaves finished chunks intact and at worst a stray temporary file, which
the next run deletes. A chunk whose bytes no longer match its checksum (a zero-byte file, one value
altered by a disk or a hand) or that cannot be read is named in one line on stderr, deleted and played
again, so a resume still equals an uninterrupted run. A chunk is valid for any thread count, backend
or chunk size (games draw from their own streams), so a resumed run only plans new chunks around the
stored ones. A lock file keeps two runs from sharing one checkpoint at the same time.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import sys
from pathlib import Path

import numpy as np

from analyzer.errors import UserError
from analyzer.io import atomic_write, write_json

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, the rest works
    fcntl = None

FORMAT = "tabletop-checkpoint/1"
# 13 digits for the last chunk of 10**12 games; a chunk named without its checksum is damaged
_CHUNK = re.compile(r"^(\d{12,})-(\d{12,})(?:\.([0-9a-f]{64}))?\.npy$")


class Checkpoint:
    """Open with ``identity`` (JSON-able dict); refuses a folder that holds a different run.

    ``notes`` (e.g. the first command line) are recorded in the manifest but never compared.
    """

    def __init__(self, directory: str | os.PathLike, identity: dict, n_cols: int, dtype, notes: dict | None = None):
        self.dir = Path(directory)
        self.identity = json.loads(json.dumps(identity))  # as it reads back from disk
        self.notes = notes or {}
        self.n_cols = n_cols
        self.dtype = np.dtype(dtype)
        self.stored: dict[int, int] = {}  # start -> end of every valid chunk on disk
        self.dropped: list[str] = []  # names of the damaged chunks deleted when the folder was opened
        self._files: dict[int, Path] = {}  # start -> its file
        self._lock_fd: int | None = None

    def __enter__(self) -> Checkpoint:
        chunks = self.dir / "chunks"
        try:
            chunks.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot create --checkpoint {self.dir}: {exc.strerror or exc}") from None
        self._lock()
        try:
            self._check_manifest()
            self._index(chunks)
        except BaseException:
            self._unlock()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self._unlock()

    def _lock(self) -> None:
        try:
            self._lock_fd = os.open(self.dir / ".lock", os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise UserError(f"cannot write to --checkpoint {self.dir}: {exc.strerror or exc}") from None
        if fcntl is None:
            return
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._unlock()
            raise UserError(f"--checkpoint {self.dir} is in use by another run") from None

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the flock
            self._lock_fd = None

    def _check_manifest(self) -> None:
        path = self.dir / "manifest.json"
        if not path.exists():
            if any((self.dir / "chunks").glob("*.npy")):
                raise UserError(f"--checkpoint {self.dir} holds chunks but no manifest.json; use an empty folder")
            try:
                write_json(path, {"format": FORMAT, **self.identity, "notes": self.notes})
            except OSError as exc:
                raise UserError(f"cannot write to --checkpoint {self.dir}: {exc.strerror or exc}") from None
            return
        try:
            manifest = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise UserError(f"--checkpoint {self.dir}: unreadable manifest.json ({exc})") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise UserError(f"--checkpoint {self.dir} is not a tabletop checkpoint (manifest format "
                            f"{manifest.get('format') if isinstance(manifest, dict) else None!r})")
        manifest.pop("format")
        manifest.pop("notes", None)
        differences = _differences(manifest, self.identity)
        if differences:
            shown = "; ".join(differences[:4]) + (f"; and {len(differences) - 4} more" if len(differences) > 4 else "")
            raise UserError(f"--checkpoint {self.dir} belongs to a different run ({shown}); "
                            "rerun that command or use another folder")

    def _index(self, chunks: Path) -> None:
        """Delete temporary files a killed run left behind and damaged chunks (each named on stderr);
        note every valid, non-overlapping chunk."""
        found = []
        for entry in chunks.iterdir():
            if entry.name.startswith(".") and entry.name.endswith(".tmp"):
                entry.unlink(missing_ok=True)
            elif m := _CHUNK.match(entry.name):
                start, end = int(m.group(1)), int(m.group(2))
                if end <= start:
                    continue
                problem = self._problem(entry, end - start, m.group(3))
                if problem is None:
                    found.append((start, end, entry))
                    continue
                try:
                    _remove(entry)
                except OSError as exc:  # left in place it is found damaged again next time: nothing is lost
                    print(f"warning: --checkpoint {self.dir}: chunk {entry.name} {problem} and cannot be deleted "
                          f"({exc.strerror or exc}); its games {start:,}-{end - 1:,} are played again, remove it",
                          file=sys.stderr)
                    continue
                self.dropped.append(entry.name)
                print(f"warning: --checkpoint {self.dir}: chunk {entry.name} {problem}; deleted, its games "
                      f"{start:,}-{end - 1:,} are played again", file=sys.stderr)
        last_end = 0
        for start, end, entry in sorted(found):
            if start >= last_end:
                self.stored[start] = last_end = end
                self._files[start] = entry

    def _problem(self, path: Path, games: int, digest: str | None) -> str | None:
        """Why the chunk at path cannot be used (its checksum, its content), or None."""
        if digest is None:
            return "has no checksum in its name"
        try:
            if not stat.S_ISREG(path.stat().st_mode):  # a pipe would block a read forever
                return "is not a regular file"
            data = path.read_bytes()
        except OSError as exc:
            return f"cannot be read ({exc.strerror or exc})"
        if hashlib.sha256(data).hexdigest() != digest:
            return f"is damaged ({len(data):,} bytes that do not match its SHA-256)"
        try:
            block = np.load(io.BytesIO(data), allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            return f"is not a chunk ({exc})"
        if block.shape != (self.n_cols, games) or block.dtype != self.dtype:
            return f"holds {block.dtype}{list(block.shape)}, not this run's {self.dtype}[{self.n_cols}, {games}]"
        return None

    def keep_within(self, limit: int) -> None:
        """Forget chunks that end past the run's last game: no run of this identity writes them
        (a file put there by hand); their games are played again."""
        self.stored = {start: end for start, end in self.stored.items() if end <= limit}

    def load(self, start: int) -> np.ndarray:
        """A stored chunk, checked again (it may have changed since the folder was opened)."""
        path = self._files[start]
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"--checkpoint {self.dir}: cannot read chunk {path.name} "
                            f"({exc.strerror or exc}); rerun to play its games again") from None
        if hashlib.sha256(data).hexdigest() != _CHUNK.match(path.name).group(3):
            raise UserError(f"--checkpoint {self.dir}: chunk {path.name} changed during this run; "
                            "rerun to play its games again")
        return np.load(io.BytesIO(data), allow_pickle=False)

    def save(self, start: int, block: np.ndarray) -> None:
        end = start + block.shape[1]
        buffer = io.BytesIO()
        np.save(buffer, block, allow_pickle=False)
        data = buffer.getvalue()
        path = self.dir / "chunks" / f"{start:012d}-{end:012d}.{hashlib.sha256(data).hexdigest()}.npy"
        try:
            if path.is_symlink() or (path.exists() and not path.is_file()):
                _remove(path)  # a stray pipe, link or folder named as a chunk of this run's own folder: ours
            atomic_write(path, lambda fh: fh.write(data))
        except OSError as exc:  # (a short write without an errno: the disk is full)
            why = exc.strerror or f"the disk is full? {exc}"
            raise UserError(f"cannot save games {start:,}-{end - 1:,} to --checkpoint {self.dir}: "
                            f"{why}; the chunks saved before are kept for a rerun") from None


def _remove(path: Path) -> None:
    """Delete a file, link, pipe or folder (with what is in it)."""
    if path.is_dir() and not path.is_symlink():
        import shutil

        shutil.rmtree(path)
    else:
        path.unlink()


def _differences(stored: dict, wanted: dict, prefix: str = "") -> list[str]:
    """'field: checkpoint has A, this run B' for every leaf that differs."""
    out = []
    for key in list(stored) + [k for k in wanted if k not in stored]:
        a, b = stored.get(key), wanted.get(key)
        name = f"{prefix}{key}"
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, name + ".")
        elif a != b:
            out.append(f"{name}: checkpoint has {_short(a)}, this run {_short(b)}")
    return out


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
