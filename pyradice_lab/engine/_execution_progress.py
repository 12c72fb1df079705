"""The progress display of :mod:`pyradice_lab.engine.execution`: a tqdm bar on a terminal, a short line every
few seconds otherwise (re-exported by :mod:`pyradice_lab.engine.execution`).

An ETA extrapolated from the first blocks is mostly the first compile and the workers' start-up (the quick report
once said 2.2 hours before it settled), so the display shows no ETA until it is stable: at least
:data:`STABLE_BLOCKS` blocks and :data:`STABLE_SHARE` of the blocks of this run done.  Until then it shows the
estimate made before the work (``estimate``, wall seconds, from the cost table:
:mod:`pyradice_lab.engine.notices`), if any.
"""

from __future__ import annotations

import math
import sys
import time

#: blocks that must be done in this run before an ETA is shown
STABLE_BLOCKS = 2
#: share of this run's blocks that must be done before an ETA is shown
STABLE_SHARE = 0.05


# --------------------------------------------------------------------------------------------- progress
def _duration(seconds: float) -> str:
    from .notices import duration

    return duration(seconds)


class Progress:
    """Progress over blocks: a tqdm bar on a terminal, else a short line on stderr at most every ``every``
    seconds, e.g. ``done 12/40 blocks, 3,000 games, ETA 1 min``, and a last one when done; nothing when
    disabled.  ``estimate`` (wall seconds of the whole run, estimated before it) is shown as ``estimated 2 min``
    until the ETA is stable (see the module docstring); the tqdm bar shows it as its postfix and hides its own
    remaining time until then.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> with Progress(2, desc="demo", unit="games", file=out, tty=False, every=0) as p:
    ...     p.update(games=10)
    ...     p.update(games=10)
    >>> out.getvalue().splitlines()[-1]
    'demo: done 2/2 blocks, 20 games'
    >>> p = Progress(40, desc="demo", file=out, tty=False, estimate=120)
    >>> p.update(games=10); p.line()
    'demo: done 1/40 blocks, 10 games, estimated 2 min'
    """

    def __init__(self, total: int, *, desc: str = "", enabled: bool = True, unit: str = "games", done: int = 0,
                 file=None, tty: bool | None = None, every: float = 5.0, what: str = "blocks",
                 estimate: float | None = None, intro: str = ""):
        self.total, self.desc, self.unit, self.enabled, self.what = int(total), desc, unit, bool(enabled), what
        self.done, self.count, self.every = int(done), 0, float(every)
        self.first = self.done  # blocks done before this run (read back from a cache)
        self.estimate = None if estimate is None or not math.isfinite(estimate) else float(estimate)
        self.file = file if file is not None else sys.stderr
        self.started = self.last = time.monotonic()
        self.bar = None
        if not self.enabled:
            return
        if tty is None:
            tty = bool(getattr(self.file, "isatty", lambda: False)())
        if intro:  # the cost said before the work (a Python user without logging sees it here)
            self.file.write(intro + "\n")
            self.file.flush()
        if tty:
            try:
                from tqdm.auto import tqdm
            except ImportError:  # pragma: no cover - tqdm is a dependency
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(total=self.total, initial=self.done, desc=desc, unit=what.rstrip("s"),
                                leave=False, file=self.file)
                if not self.stable:  # no remaining time of tqdm's own until the rate is stable
                    self.bar.bar_format = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"
                    if self.estimate is not None:
                        self.bar.set_postfix_str(f"estimated {_duration(self.estimate)}", refresh=False)

    @property
    def stable(self) -> bool:
        """Whether enough of this run is done for its rate to give an ETA (see the module docstring)."""
        ran, todo = self.done - self.first, self.total - self.first
        return ran >= STABLE_BLOCKS and ran >= STABLE_SHARE * todo

    def update(self, blocks: int = 1, games: int = 0) -> None:
        """``blocks`` more blocks finished, holding ``games`` games (or other units)."""
        self.done += blocks
        self.count += games
        if not self.enabled:
            return
        if self.bar is not None:
            if self.stable and self.bar.bar_format is not None:
                self.bar.bar_format = None
                self.bar.set_postfix_str("", refresh=False)
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
        if self.done < self.total and self.stable:
            rate = (time.monotonic() - self.started) / (self.done - self.first)
            text += f", ETA {_duration(rate * (self.total - self.done))}"
        elif self.done < self.total and self.estimate is not None:
            text += f", estimated {_duration(self.estimate)}"
        return text

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
