"""The sweep cache's files (re-exported by :mod:`pyradice_lab.engine.sweep`): signed, atomic JSON files in a
cache folder (a per-folder HMAC key, stale temporaries removed, written with the default file mode), also
used for the execution layer's stored blocks.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
import warnings
from pathlib import Path

_CACHE_FORMAT = "pyradice_lab.engine.sweep/2"
_KEY_FILE = ".sweep-key"
_MAX_CACHE_FILE = 1 << 20  # bytes: a cell's outputs are a few hundred bytes; anything larger is not ours


class CacheWarning(UserWarning):
    """A cache file could not be used (or written) and its cell is recomputed."""


# --------------------------------------------------------------------------------------------- files
def temporary_prefix() -> str:
    """Prefix of this process's temporary files: ``.tmp-<pid>-`` (see :func:`remove_stale_temporaries`)."""
    return f".tmp-{os.getpid()}-"


_TMP = re.compile(r"^\.tmp-(\d+)-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def remove_stale_temporaries(folder: str | os.PathLike) -> int:
    """Remove ``.tmp-<pid>-*`` files and folders in ``folder`` left by processes that no longer run (killed
    while writing); returns how many were removed.  Temporaries of running processes are left alone."""
    import shutil

    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        m = _TMP.match(entry.name)
        if not m or int(m.group(1)) == os.getpid() or _alive(int(m.group(1))):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed += 1
        except OSError:
            continue
    return removed


def replace_with_default_mode(tmp: str | os.PathLike, path: str | os.PathLike) -> None:
    """Rename ``tmp`` onto ``path`` atomically, first giving it the permissions a normally created file
    would have (``tempfile.mkstemp`` makes files readable by their owner only)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, path)


def _atomic_write(path: Path, data: bytes, *, mode: int | None = None) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=temporary_prefix(), suffix=path.suffix or ".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is None:
            replace_with_default_mode(tmp, path)
        else:
            os.chmod(tmp, mode)
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _check_cache_dir(cache_dir) -> Path:
    if isinstance(cache_dir, bytes) or not isinstance(cache_dir, (str, os.PathLike)):
        raise ValueError(f"cache_dir must be a directory path (str or Path), got {type(cache_dir).__name__}")
    text = os.fspath(cache_dir)
    if not text.strip():
        raise ValueError("cache_dir must be a directory path, got an empty string")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise ValueError(f"cache_dir {text!r} exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise ValueError(f"cache_dir {text!r} cannot be used: {exc.strerror or exc}") from None
    return path


class _Cache:
    """One sweep's view of a cache directory: signed reads and writes, warnings gathered by reason."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.problems: dict[str, list[str]] = {}
        self.writable = True
        self.max_bytes = _MAX_CACHE_FILE
        remove_stale_temporaries(folder)
        self.key = self._load_key()

    def _load_key(self) -> bytes | None:
        """The directory's signing key, created (atomically, once) if missing."""
        path = self.folder / _KEY_FILE
        for _ in range(3):
            try:
                text = path.read_text().strip()
            except FileNotFoundError:
                text = None
            except (OSError, UnicodeDecodeError) as exc:
                return self._no_key(f"its signing key {path} cannot be read ({exc})")
            if text is not None and re.fullmatch(r"[0-9a-f]{64}", text):
                return bytes.fromhex(text)
            fresh = (secrets.token_hex(32) + "\n").encode()
            try:
                if text is not None:  # damaged: replace it (every entry it signed is recomputed)
                    warnings.warn(f"the sweep cache signing key {path} was damaged and is replaced; every cached "
                                  "cell is recomputed", CacheWarning, stacklevel=4)
                    _atomic_write(path, fresh, mode=0o600)
                    continue
                fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=temporary_prefix(), suffix=".key")
                try:
                    with os.fdopen(fd, "wb") as fh:
                        fh.write(fresh)
                    os.chmod(tmp, 0o600)
                    os.link(tmp, path)  # create-if-absent, atomically: a concurrent sweep may win the race
                except FileExistsError:
                    pass
                finally:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)
            except OSError as exc:
                return self._no_key(f"no signing key can be written to {path} ({exc})")
        return self._no_key(f"its signing key {path} keeps changing")

    def _no_key(self, why: str) -> None:
        self.writable = False
        warnings.warn(f"the sweep cache {self.folder} is not used: {why}", CacheWarning, stacklevel=4)
        return None

    def note(self, reason: str, path: str) -> None:
        self.problems.setdefault(reason, []).append(path)

    def warn(self) -> None:
        for reason, paths in self.problems.items():
            shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
            warnings.warn(f"{len(paths)} sweep cache file(s) {reason}; recomputing: {shown}", CacheWarning,
                          stacklevel=3)
        self.problems.clear()

    def _mac(self, cell: str, provenance: dict, outputs: dict) -> str:
        msg = json.dumps([_CACHE_FORMAT, cell, provenance, outputs], sort_keys=True).encode()
        return hmac.new(self.key, msg, hashlib.sha256).hexdigest()

    def read(self, cell: str, provenance: dict) -> dict | None:
        if self.key is None:
            return None
        path = self.folder / f"{cell}.json"
        try:
            if not os.path.lexists(path):
                return None
            if path.is_dir():
                raise IsADirectoryError(f"{path} is a directory")
            with open(path, "rb") as fh:
                raw = fh.read(self.max_bytes + 1)
            if len(raw) > self.max_bytes:
                raise ValueError("file too large")
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("format") != _CACHE_FORMAT:
                raise ValueError("not a pyradice_lab sweep cache file")
            outputs, stored = data.get("outputs"), data.get("provenance")
            if not isinstance(outputs, dict) or not isinstance(stored, dict):
                raise ValueError("missing outputs or provenance")
            mac = data.get("mac")
            if not isinstance(mac, str) or not hmac.compare_digest(mac, self._mac(data.get("cell"), stored, outputs)):
                self.note("have a signature that does not match their contents (edited, or signed with another "
                          "key)", str(path))
                return None
            if data.get("cell") != cell:
                self.note("were written for another cell", str(path))
                return None
            if stored != provenance:
                self.note(f"were computed by other code or inputs ({_differences(stored, provenance)})", str(path))
                return None
            if not outputs or not all(isinstance(k, str) and isinstance(v, (bool, int, float, str))
                                      for k, v in outputs.items()):
                raise ValueError("outputs are not a dict of numbers and strings")
            return outputs
        except Exception as exc:  # noqa: BLE001 - any unreadable file is recomputed (RecursionError included)
            self.note(f"could not be read ({type(exc).__name__})", str(path))
            return None

    def write(self, cell: str, provenance: dict, outputs: dict) -> None:
        if not self.writable or self.key is None:
            return
        payload = json.dumps({"format": _CACHE_FORMAT, "cell": cell, "provenance": provenance, "outputs": outputs,
                              "mac": self._mac(cell, provenance, outputs)})
        path = self.folder / f"{cell}.json"
        try:
            _atomic_write(path, payload.encode())
        except IsADirectoryError:
            warnings.warn(f"could not write the sweep cache file {path}: it is a directory", CacheWarning, stacklevel=3)
        except OSError as exc:
            self.writable = False
            warnings.warn(f"cannot write to the sweep cache {self.folder} ({exc}); the rest of this sweep is not "
                          "cached", CacheWarning, stacklevel=3)


def _differences(stored: dict, current: dict) -> str:
    names = {"version": "package version", "source": "the function's source", "code": "the sources it imports",
             "files": "a parameter file's contents"}
    keys = sorted(set(stored) | set(current))
    return ", ".join(f"{names.get(k, k)} changed" for k in keys if stored.get(k) != current.get(k)) or "changed"
