"""``pyradice-lab compile``: build ahead of time what each game's first calls compile (:mod:`.engine.aot`).

For every game whose bench plan says ``ahead_of_time``, the game's first-use calls (its first
``simulate_games`` with the plan's ``first_call`` arguments and its first ``advise`` of the bench's position, the
same calls ``pyradice-lab bench --first-use`` times) run once under :func:`.engine.aot.recording`; every compiled
function they call from Python through :func:`.engine.aot.entry` is then built, for the argument types seen,
into an extension module of its defining module.  A game whose modules are all built for the current sources is
skipped without running anything (``manifest.json`` beside the builds names each game's modules).

``make`` runs it after installing (``make report``, ``make test``); it takes about a minute when the sources
changed and a second when they did not.  Without a C compiler it says so and the first calls compile as before.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable, Sequence

__all__ = ["compile_ahead", "first_use_calls", "is_built", "calls_key"]


def first_use_calls(game: str) -> list[Callable[[], object]]:
    """The calls whose compiled entries ``game`` builds ahead of time: its first ``simulate_games`` (a few games,
    the bench plan's ``first_call`` arguments), the plan's ``first_use_extra`` calls and its first ``advise`` (the
    bench's position), then the plan's ``ahead_of_time_extra`` functions."""
    from .bench import bench_plan, first_advise, position_doc
    from .engine import registry

    spec, plan = registry.get_game(game), bench_plan(game)
    calls = [lambda: spec.simulate_games(n_games=4, rng=0, **dict(plan.first_call))]
    for _label, kwargs in plan.first_use_extra:   # the paths a user meets next (Purramid: an optimal seat)
        calls.append(lambda kw=dict(kwargs): spec.simulate_games(**kw))
    if spec.part("advise", None) is not None and spec.part("position_from_game", None) is not None:
        calls.append(lambda: first_advise(game, position_doc(game)))
    for name in plan.ahead_of_time_extra:   # paths a long run reaches soon after (Purramid: the memo's prune)
        module, _, func = name.rpartition(".")
        calls.append(getattr(importlib.import_module(f"{spec.package}.{module}"), func))
    return calls


def calls_key(game: str) -> str:
    """A hash of the code that decides what ``game``'s first calls reach and with which types: every module of the
    game's package, this module and :mod:`.engine.aot` (an edit there may add an entry or change its types)."""
    import hashlib
    import importlib
    from pathlib import Path

    from .engine import aot, registry
    from .engine._sources import file_digest

    package = Path(importlib.import_module(registry.get_game(game).package).__file__).parent
    h = hashlib.sha256()
    for f in [*sorted(package.rglob("*.py")), Path(__file__), Path(aot.__file__)]:
        h.update(f.name.encode() + b"\0" + file_digest(f).encode() + b"\n")
    return h.hexdigest()[:16]


def is_built(game: str) -> bool:
    """Whether ``pyradice-lab compile`` built ``game``'s first calls for the current sources: its modules are
    built for their sources and the code that calls them is the code they were recorded from."""
    import importlib

    from .engine import aot

    for d in aot.aot_dirs():
        got = _read_manifest(d / "manifest.json").get(game)
        if got:
            try:
                return got.get("calls") == calls_key(game) and all(
                    importlib.import_module(m) and aot.is_current(m) for m in got["modules"])
            except (ImportError, AttributeError, KeyError):
                return False
    return False


def _read_manifest(path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError, AttributeError):
        return {}


def compile_ahead(games: Sequence[str] | None = None, *, force: bool = False,
                  say: Callable[[str], object] = print) -> dict[str, str]:
    """Build the first-use entries of ``games`` (default: every registered game whose bench plan says
    ``ahead_of_time``) ahead of time; returns ``{game: what happened}`` ("built ...", "up to date", "not
    built: <reason>").  ``force`` rebuilds modules that are current."""
    from .bench import bench_plan
    from .engine import aot, registry

    known = registry.games()
    if games is not None:
        unknown = [g for g in games if g not in known]
        if unknown or not games:
            raise ValueError(f"games must be among {sorted(known)}, got {unknown}")
    names = [g for g in (games or known) if (p := bench_plan(g)) is not None and p.ahead_of_time]
    manifest_path = aot._write_dir() / "manifest.json"
    manifest = _read_manifest(manifest_path)
    done: dict[str, str] = {}
    for g in names:
        if not force and is_built(g):
            done[g] = "up to date"
            say(f"{g}: up to date ({', '.join(manifest[g]['modules'])})")
            continue
        t0 = time.perf_counter()
        say(f"{g}: running its first calls once to see what they compile ...")
        with aot.recording() as seen:
            for call in first_use_calls(g):
                call()
        built, rebuilt = [], []
        try:
            for module, functions in sorted(aot.recorded(seen).items()):
                if force or not aot.is_current(module, functions):
                    aot.build(module, functions)
                    rebuilt.append(module)
                built.append(module)
        except RuntimeError as exc:
            done[g] = f"not built: {exc}"
            say(f"{g}: {done[g]} (its first calls compile as before)")
            continue
        manifest[g] = {"modules": built, "calls": calls_key(g)}
        manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True))
        done[g] = (f"built {len(rebuilt)} of {len(built)} module(s) in {time.perf_counter() - t0:.0f} s (the rest were "
                   "current)" if len(rebuilt) < len(built) else f"built {len(built)} module(s) in "
                   f"{time.perf_counter() - t0:.0f} s")
        say(f"{g}: {done[g]}: {', '.join(built) or 'nothing to build'}")
    return done
