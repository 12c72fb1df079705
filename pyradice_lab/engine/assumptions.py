"""What a result assumed, stated the same way everywhere: one record, one line, one start-player line.

Every CLI summary and every designer result (``simulate``, ``compare``, ``robustness``, ``balance``, ``ladder``,
``restricted``) carries an :class:`Assumptions` record and prints its :meth:`Assumptions.line`::

    assumptions: game Rocking Raft (raft); components packaged (content hash 1b2c3d4e5f60); 3 players;
    policies greedy, greedy, greedy; seed 1; 1,000 games

- components: ``packaged`` or the file name, always with the content hash of the components actually played
  (:meth:`~pyradice_lab.engine.schema.SchemaComponents.content_hash`, first 12 hex digits: a file merged over the
  packaged set hashes as the merged set, so two files that say the same thing hash alike);
  :func:`components_label` is the one helper every caller uses;
- players and policies: as played (read from the outcomes frame, :func:`lineup`, so a default is named, not
  left as "default"); Meerkat Kingdom's automa is named as such ("2 players + automa");
- seed: :func:`seed_label` (an integer root seed, or what was given instead).

:func:`start_player_lines` is the start-player line of every game's ``simulate``: turn positions are 1-based in
text (position 1 = the start player), the start player's outright wins with the Wilson 95% interval against the
fair share of the games that had one winner, and an automa's share on its own line.

>>> a = Assumptions("raft", "packaged (content hash 0123456789ab)", "3 players", "greedy, greedy, greedy", "1", 1000)
>>> print(a.line())
assumptions: game raft; components packaged (content hash 0123456789ab); 3 players; policies greedy, greedy, greedy; seed 1; 1,000 games
"""

from __future__ import annotations

import numbers
import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Assumptions", "components_label", "seed_label", "lineup", "played_lineup", "start_player_lines",
           "frame_assumptions", "HASH_DIGITS"]

#: hex digits of the content hash shown in text (the full hash is in ``to_dict()["components_hash"]``)
HASH_DIGITS = 12


def _loaded(game: str, value):
    """The game's component format (through the registry) and ``value`` loaded with it; LookupError when the game
    is not registered or declares no components."""
    from . import registry

    spec = registry.games().get(game)
    fmt = None if spec is None else spec.part("format", None)
    if fmt is None:
        raise LookupError(f"{game}: no registered component format")
    return fmt, fmt.coerce(value)


def components_label(game: str, value=None, loaded=None) -> str:
    """``"packaged (content hash …)"``, ``"FILE (content hash …)"`` or ``"designer components (content hash …)"``.

    ``value`` is what the caller was given (None, a path or a components object); ``loaded`` the components it
    played (loaded from ``value`` when not given).  The hash is of the components played.
    """
    try:
        fmt, comp = _loaded(game, value) if loaded is None else (type(loaded).FORMAT, loaded)
    except LookupError:  # a game registered without component files
        return "packaged (no component files)" if value is None else str(value)
    h = comp.content_hash()[:HASH_DIGITS]
    if value is None:
        name = "packaged"
    elif isinstance(value, (str, os.PathLike)) and not isinstance(value, bytes):
        name = Path(value).name
    else:
        name = "packaged" if comp == fmt.default() else "designer components"
    return f"{name} (content hash {h})"


def seed_label(rng) -> str:
    """An integer root seed as itself; a SeedSequence by its entropy and spawn key; else what it was."""
    if rng is None:
        return "none (fresh entropy: not reproducible)"
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        return str(int(rng))
    entropy, key = getattr(rng, "entropy", None), getattr(rng, "spawn_key", None)
    if entropy is not None:
        return f"SeedSequence(entropy {entropy}" + (f", spawn key {tuple(key)})" if key else ")")
    return f"a {type(rng).__name__} (its state when called)"


def lineup(out) -> tuple[str, str]:
    """``(players, policies)`` as text from an outcomes frame (:mod:`.outcomes`): the first game's seats.

    >>> import pandas as pd
    >>> lineup(pd.DataFrame({"game": [0, 0, 0], "seat": [0, 1, 2], "policy": ["greedy", "greedy", "automa"]}))
    ('2 players + automa', 'greedy, greedy + automa')
    """
    if len(out) == 0:
        return "0 players", "-"
    first = out[out["game"] == out["game"].iloc[0]].sort_values("seat")
    pols = [str(p) for p in first["policy"]]
    humans = [p for p in pols if p != "automa"]
    auto = len(humans) < len(pols)
    players = f"{len(humans)} player{'s' if len(humans) != 1 else ''}" + (" + automa" if auto else "")
    return players, ", ".join(humans) + (" + automa" if auto else "")


def played_lineup(game: str, **simulate_kwargs) -> tuple[str, str]:
    """``(players, policies)`` as :func:`lineup` of one game played with these ``simulate_games`` arguments: what
    a run that was given defaults played (a tool that keeps only metrics asks this way; one game, milliseconds)."""
    from . import registry

    sim = registry.get_game(game).module("sim")
    kw = {k: v for k, v in simulate_kwargs.items() if k not in ("n_jobs", "backend", "scheduler", "cache_dir")}
    res = sim.simulate_games(1, rng=0, **kw)
    return lineup(sim.outcomes(res[0] if isinstance(res, tuple) else res))


@dataclass(frozen=True)
class Assumptions:
    """What a result assumed: game, components, players, policies, seed, games (and a few named extras).

    Every field is text (or the number of games) so that the record prints, compares and serialises alike.
    ``extra`` holds further settings as ``(name, value)`` pairs (a variant, a layout, a reading), printed after
    the games.
    """

    game: str
    components: str
    players: str
    policies: str
    seed: str
    games: int | str
    extra: tuple = field(default=())

    @classmethod
    def build(cls, game: str, *, components: str, out=None, players=None, policies=None, rng=None, games=None,
              title: str | None = None, **extra) -> Assumptions:
        """The record from an outcomes frame ``out`` (players and policies as played) or explicit values.

        ``players`` may be an int; ``policies`` a name or a list; ``rng`` what the run was seeded with; extras
        whose value is None are left out.  ``title`` defaults to the registered game's.
        """
        if out is not None:
            p, q = lineup(out)
            players = p if players is None else players
            policies = q if policies is None else policies
        if isinstance(players, numbers.Integral):
            players = f"{int(players)} player{'s' if players != 1 else ''}"
        if policies is not None and not isinstance(policies, str):
            policies = ", ".join(map(str, policies))
        if title is None:
            from . import registry

            title = registry.get_game(game).title if game in registry.games() else None
        name = game if not title else (title if title.lower() == game else f"{title} ({game})")
        return cls(name, components, str(players) if players is not None else "the game's default",
                   policies or "the game's default", seed_label(rng),
                   games if games is not None else "-",
                   tuple((k, str(v)) for k, v in extra.items() if v is not None))

    def line(self, prefix: str = "assumptions: ") -> str:
        """One line: ``assumptions: game …; components …; N players; policies …; seed …; N games[; extras]``."""
        games = f"{self.games:,} games" if isinstance(self.games, numbers.Integral) else f"games {self.games}"
        parts = [f"game {self.game}", f"components {self.components}", self.players, f"policies {self.policies}",
                 f"seed {self.seed}", games] + [f"{k} {v}" for k, v in self.extra]
        return prefix + "; ".join(parts)

    def to_dict(self) -> dict:
        """The record as a flat dict (for a frame's ``attrs`` or a CSV's header)."""
        return {"game": self.game, "components": self.components, "players": self.players,
                "policies": self.policies, "seed": self.seed, "games": self.games, **dict(self.extra)}

    def __str__(self) -> str:
        return self.line()


def frame_assumptions(result, game: str, outcomes, *, components=None, loaded=None, rng=None, games=None,
                      **extra):
    """Put the :class:`Assumptions` of a ``simulate_games`` call in its frame's ``attrs["assumptions"]`` (the key
    every result object uses); ``result`` is the frame or a ``(frame, arrays)`` pair, returned as given.

    ``components`` is what the caller was given and ``loaded`` the components played (:func:`components_label`);
    players and policies are read from the first game's outcomes (``outcomes``: the game's ``sim.outcomes``).
    Frames of different runs carry different records: ``pd.concat`` keeps ``attrs`` only when every frame's
    are equal, so a concatenation of runs carries none (it is not one run).
    """
    df = result[0] if isinstance(result, tuple) else result
    out = outcomes(df.head(1)) if len(df) else None
    df.attrs["assumptions"] = Assumptions.build(game, components=components_label(game, components, loaded),
                                                out=out, rng=rng, games=games if games is not None else len(df),
                                                **extra)
    return result


def start_player_lines(out, decimals: int = 4) -> list[str]:
    """The start-player lines of a ``simulate`` summary, from an outcomes frame (one player count).

    The start player (turn position 1) wins outright with the Wilson 95% interval, against the fair share: the
    games that had one winner among the players, divided by the number of players (an automa, which plays last,
    is not a player: its wins are taken out of the fair share and stated on their own line).
    """
    import numpy as np

    from .stats import proportion_estimate

    games = out["game"].to_numpy()
    n = int(len(np.unique(games)))
    solo = out["win"].to_numpy() == 1.0
    automa = out["policy"].to_numpy() == "automa"
    start = out["position"].to_numpy() == 0
    humans = int(len(out) / max(n, 1)) - int(automa.sum() > 0)
    won = proportion_estimate(int((solo & start).sum()), n)
    human_solo = int((solo & ~automa).sum())
    fair = human_solo / n / humans
    k = decimals
    note = "" if human_solo == n else f": 1/{humans} of the {human_solo:,} of {n:,} games a player won outright"
    lines = [f"start player (turn position 1) wins {won.value:.{k}f} of the games outright (95% CI "
             f"{won.ci_low:.{k}f}..{won.ci_high:.{k}f}, Wilson) vs a fair {fair:.{k}f} ({humans} players{note})"]
    if automa.any():
        a = proportion_estimate(int((solo & automa).sum()), n)
        lines.append(f"automa (plays last; not a player) wins {a.value:.{k}f} (95% CI {a.ci_low:.{k}f}.."
                     f"{a.ci_high:.{k}f}, Wilson)")
    return lines
