"""--checkpoint DIR: completed chunks on disk, so a killed run resumes where it stopped.

    DIR/manifest.json            what the run is: the job spec, the stopping rule, the package version
    DIR/chunks/<start>-<end>.npy one finished chunk: the result columns of games start .. end-1

Every file is written whole to a temporary file, fsynced and renamed (analyzer.io.atomic_write), so
``kill -9`` at any moment leaves finished chunks intact and at worst a stray temporary file, which
the next run deletes. A chunk is valid for any thread count, backend or chunk size (games draw
from their own streams), so a resumed run only plans new chunks around the stored ones.
A lock file keeps two runs from sharing one checkpoint at the same time.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import numpy as np

from analyzer.errors import UserError
from analyzer.io import atomic_write, write_json

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, the rest works
    fcntl = None

FORMAT = "tabletop-checkpoint/1"
_CHUNK = re.compile(r"^(\d{12,})-(\d{12,})\.npy$")  # 13 digits for the last chunk of 10**12 games


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
        """Delete temporary files a killed run left behind; note every readable, non-overlapping chunk."""
        found = []
        for entry in chunks.iterdir():
            if entry.name.startswith(".") and entry.name.endswith(".tmp"):
                entry.unlink(missing_ok=True)
            elif m := _CHUNK.match(entry.name):
                start, end = int(m.group(1)), int(m.group(2))
                if end > start and self._readable(entry, end - start):
                    found.append((start, end))
        last_end = 0
        for start, end in sorted(found):
            if start >= last_end:
                self.stored[start] = last_end = end

    def _readable(self, path: Path, games: int) -> bool:
        try:
            if not stat.S_ISREG(path.stat().st_mode):  # a pipe would block np.load forever
                return False
            block = np.load(path, mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError):
            return False
        return block.shape == (self.n_cols, games) and block.dtype == self.dtype

    def keep_within(self, limit: int) -> None:
        """Forget chunks that end past the run's last game: no run of this identity writes them
        (a file put there by hand); their games are played again."""
        self.stored = {start: end for start, end in self.stored.items() if end <= limit}

    def path(self, start: int, end: int) -> Path:
        return self.dir / "chunks" / f"{start:012d}-{end:012d}.npy"

    def load(self, start: int) -> np.ndarray:
        return np.load(self.path(start, self.stored[start]), allow_pickle=False)

    def save(self, start: int, block: np.ndarray) -> None:
        end = start + block.shape[1]
        path = self.path(start, end)
        try:
            if path.is_symlink() or (path.exists() and not path.is_file()):
                path.unlink()  # a stray pipe or link named as a chunk of this run's own folder: ours to replace
            atomic_write(path, lambda fh: np.save(fh, block, allow_pickle=False))
        except OSError as exc:  # (numpy reports a short write without an errno: the disk is full)
            why = exc.strerror or f"the disk is full? {exc}"
            raise UserError(f"cannot save games {start:,}-{end - 1:,} to --checkpoint {self.dir}: "
                            f"{why}; the chunks saved before are kept for a rerun") from None


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
