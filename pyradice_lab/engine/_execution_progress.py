"""The progress display of :mod:`pyradice_lab.engine.execution`: a tqdm bar on a terminal, a short line every
few seconds otherwise (re-exported by :mod:`pyradice_lab.engine.execution`).
"""

from __future__ import annotations

import math
import sys
import time


# --------------------------------------------------------------------------------------------- progress
def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    if seconds < 90:
        return f"{max(seconds, 0):.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """Progress over blocks: a tqdm bar on a terminal, else a short line on stderr at most every ``every``
    seconds, e.g. ``done 12/40 blocks, 3,000 games, ETA 1 min``, and a last one when done; nothing when
    disabled.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> with Progress(2, desc="demo", unit="games", file=out, tty=False, every=0) as p:
    ...     p.update(games=10)
    ...     p.update(games=10)
    >>> out.getvalue().splitlines()[-1]
    'demo: done 2/2 blocks, 20 games'
    """

    def __init__(self, total: int, *, desc: str = "", enabled: bool = True, unit: str = "games", done: int = 0,
                 file=None, tty: bool | None = None, every: float = 5.0, what: str = "blocks"):
        self.total, self.desc, self.unit, self.enabled, self.what = int(total), desc, unit, bool(enabled), what
        self.done, self.count, self.every = int(done), 0, float(every)
        self.file = file if file is not None else sys.stderr
        self.started = self.last = time.monotonic()
        self.bar = None
        if not self.enabled:
            return
        if tty is None:
            tty = bool(getattr(self.file, "isatty", lambda: False)())
        if tty:
            try:
                from tqdm.auto import tqdm
            except ImportError:  # pragma: no cover - tqdm is a dependency
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(total=self.total, initial=self.done, desc=desc, unit=what.rstrip("s"),
                                leave=False, file=self.file)

    def update(self, blocks: int = 1, games: int = 0) -> None:
        """``blocks`` more blocks finished, holding ``games`` games (or other units)."""
        self.done += blocks
        self.count += games
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(blocks)
            return
        now = time.monotonic()
        # a line at most every ``every`` seconds, and the last one when done
        if now - self.last >= self.every or self.done >= self.total:
            self.last = now
            self.file.write(self.line() + "\n")
            self.file.flush()

    def line(self) -> str:
        text = f"{self.desc + ': ' if self.desc else ''}done {self.done}/{self.total} {self.what}"
        if self.count:
            text += f", {self.count:,} {self.unit}"
        if 0 < self.done < self.total:
            rate = (time.monotonic() - self.started) / self.done
            text += f", ETA {_duration(rate * (self.total - self.done))}"
        return text

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
