"""What the games' table companions (``<game>.advisor``) share: reading a position, checking a choice, the
tidy columns of a ranked frame.

A game's advisor describes a **position** (what a player sees at the table) with a schema of
:mod:`.schema` nodes, reads it from a TOML or JSON file, a mapping or an already built position
(:func:`read_position`: errors name the file and the key), and ranks the options of the decision at hand in a
DataFrame whose ``value``, ``se``, ``ci_low``, ``ci_high`` and ``regret`` columns mean the same in every game
(:func:`exact_columns` for values computed exactly, :func:`sampled_columns` for Monte Carlo estimates).

Examples
--------
>>> import pandas as pd
>>> df = exact_columns(pd.DataFrame({"option": ["a", "b"], "value": [2.0, 1.5]}), 2)
>>> list(df.columns), df["regret"].tolist()
(['option', 'value', 'se', 'ci_low', 'ci_high', 'regret'], [0.0, 0.5])
>>> check_choice("fast", "policy", ("exact", "sampled"))
Traceback (most recent call last):
...
ValueError: policy must be one of ['exact', 'sampled'], got 'fast'
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from .schema import Table, read_document, validate

__all__ = ["check_choice", "read_position", "seats_by_index", "SeatNumbers", "position_components",
           "check_turn", "shown_int", "exact_columns", "sampled_columns"]


def check_choice(value, name: str, allowed):
    """``value`` if it is one of ``allowed`` (a string), else a ValueError naming ``name`` and the choices."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
    return value


def read_position(source, position_type: type, spec: Table, build: Callable, comp):
    """A game's position from ``source``: a ``.toml``/``.json`` path, a mapping, or a ``position_type`` already.

    ``spec`` is the game's position schema; ``build(doc, comp, file)`` turns the validated document into a
    ``position_type`` (raising :class:`.schema.SchemaError` naming the key for what the schema cannot say).
    A mapping is deep-copied through JSON first (the caller's dict is never changed; numpy numbers become plain
    numbers, table keys strings).
    """
    if isinstance(source, position_type):
        return source
    file = None
    if isinstance(source, Mapping):
        doc = json.loads(json.dumps(source, default=_plain))
    elif isinstance(source, (str, Path)):
        file = Path(source)
        doc = read_document(file, what="position")   # .json or TOML, with the input-file limits
    else:
        raise TypeError(f"position must be a path, a mapping or a {position_type.__name__}, got "
                        f"{type(source).__name__}")
    return build(validate(spec, doc, file=file), comp, file)


class SeatNumbers:
    """The one numbering of a position's seats: ``seat`` / ``first_seat`` are the 0-based indices a position
    holds, ``to_move`` / ``first_player`` the numbers from 1 the file and every text use (mixed into a game's
    ``Position``)."""

    @property
    def to_move(self) -> int:
        """The seat about to move, numbered from 1 (as in the file and every text; ``seat`` is its 0-based index)."""
        return self.seat + 1

    @property
    def first_player(self) -> int:
        """The start player's seat, numbered from 1 (``first_seat`` is its 0-based index)."""
        return self.first_seat + 1


def seats_by_index(doc: Mapping, deciders: int, fail: Callable, *, seats: int | None = None,
                   keys=("to_move", "first_player"), note: str = "") -> dict:
    """The ``[[seat]]`` entries of a position document by 0-based index, after checking the 1-based numbering.

    Position files number seats from 1, as every text does: ``to_move``, ``first_player`` (``keys``) must be
    1..``deciders`` and the ``[[seat]]`` entries must be exactly seats 1..``seats`` (default ``deciders``).
    ``fail(what, path, allowed)`` raises the game's error; ``note`` is added to the seat-list message (e.g. which
    seat is the automa).

    >>> def fail(what, path, allowed=None):
    ...     raise ValueError(f"{'.'.join(path)}: {what} (allowed: {allowed})")
    >>> sorted(seats_by_index({"to_move": 2, "first_player": 1, "seat": [{"seat": 2}, {"seat": 1}]}, 2, fail))
    [0, 1]
    >>> seats_by_index({"to_move": 3, "first_player": 1, "seat": []}, 2, fail)
    Traceback (most recent call last):
    ...
    ValueError: to_move: 3 is not a seat of a 2-player game (allowed: 1..2, numbered from 1)
    """
    seats = deciders if seats is None else seats
    for key in keys:
        if doc.get(key) is not None and not 1 <= doc[key] <= deciders:
            fail(f"{doc[key]} is not a seat of a {deciders}-player game", (key,), f"1..{deciders}, numbered from 1")
    by = {int(s["seat"]) - 1: s for s in doc["seat"]}
    if sorted(by) != list(range(seats)):
        fail(f"lists seats {sorted(k + 1 for k in by)}", ("seat",), f"one [[seat]] for each of seats 1..{seats}{note}")
    return by


def shown_int(v) -> str:
    """``v`` for an error message: an integer beyond 64 bits is described by its number of digits (printing one
    of thousands of digits fails with Python's int-limit message), anything else shown as given, shortened."""
    if isinstance(v, numbers.Integral) and not isinstance(v, bool) and abs(int(v)).bit_length() > 64:
        return f"a number of about {int(abs(int(v)).bit_length() * 0.30103) + 1} digits"
    return f"{v!r:.60}"


def check_turn(turn, hi: int | None = None, why: str = "") -> int:
    """``turn`` (numbered from 1) as an int, refused before any replay with a message naming ``turn``: not an
    integer, below 1, or above ``hi`` (the game's own cap on turns, ``why`` saying so, when it has one)."""
    if isinstance(turn, bool) or not isinstance(turn, numbers.Integral) or turn < 1 or \
            (hi is not None and turn > hi):
        span = ">= 1" if hi is None else f"from 1 to {hi}"
        raise ValueError(f"turn must be an integer {span} (1 = the first turn{'; ' + why if why else ''}), got "
                         f"{shown_int(turn)}")
    return int(turn)


def position_components(source, position_type: type, components, coerce: Callable):
    """The components ``read_position`` builds a position from: ``coerce(components)`` for a path or a mapping;
    for a ``position_type`` already (which carries its own components) ``None``, after checking that
    ``components``, when given, are valid and the same as the position's (a ValueError naming ``components``
    otherwise: an advisor never silently ignores them)."""
    if not isinstance(source, position_type):
        return coerce(components)
    if components is not None:
        given = coerce(components)  # a missing, malformed or non-regular file is refused here
        own = getattr(source, "comp", None)
        own = coerce(None) if own is None else own
        if given != own:
            raise ValueError("components: the position already carries its own components, which differ from "
                             "the ones given; pass components with a position file or mapping (they are what its "
                             "numbers refer to), or leave them out for a position object")
    return None


def _plain(x):
    if isinstance(x, (np.generic, np.ndarray)):
        return x.tolist()
    raise TypeError(f"position: {type(x).__name__} is not a number, a string, a list or a table")


def exact_columns(df, at: int):
    """Insert ``se``, ``ci_low``, ``ci_high`` (NaN: the values are exact) and ``regret`` (best value minus the
    option's) after column ``at - 1`` of a frame sorted best first; returns it."""
    df.insert(at, "se", np.nan)
    df.insert(at + 1, "ci_low", np.nan)
    df.insert(at + 2, "ci_high", np.nan)
    df.insert(at + 3, "regret", df["value"].iloc[0] - df["value"])
    return df


def sampled_columns(df, at: int, estimates):
    """Insert ``se``, ``ci_low``, ``ci_high`` from ``estimates`` (one :class:`.stats.Estimate` or None per row;
    None: not sampled, NaN) and ``regret`` against the best value, after column ``at - 1``; returns it."""
    nan = float("nan")
    df.insert(at, "se", [nan if e is None else e.se for e in estimates])
    df.insert(at + 1, "ci_low", [nan if e is None else e.ci_low for e in estimates])
    df.insert(at + 2, "ci_high", [nan if e is None else e.ci_high for e in estimates])
    df.insert(at + 3, "regret", df["value"].max() - df["value"])
    return df


def position_from_args(args, *, turn_hint: str, components, load, from_game, after: str = ""):
    """An ``advise`` command's position and where it comes from: ``--position FILE`` read by ``load(path,
    components=...)``, or ``from_game()`` (the game's own call with ``--game-seed`` / ``--turn`` and its
    options); ``--dump-position`` written.  Exactly one source (:func:`.cliargs.check_position_source`)."""
    from .cliargs import check_position_source

    check_position_source(args, turn_hint)
    if args.position is not None:
        pos, where = load(args.position, components=components), args.position
    else:
        pos, where = from_game(), f"game seed {args.game_seed}, turn {args.turn}{after}"
    if args.dump_position:
        with open(args.dump_position, "w", encoding="utf-8") as fh:
            fh.write(pos.to_toml())
    return pos, where


def played_line(df, hit, label: str) -> str | None:
    """``played in the game: <label>, rank R, regret X`` for the first row where ``hit`` (a boolean Series of
    ``df``) is true, or None when no row is."""
    rows = df.index[hit]
    if not len(rows):
        return None
    return f"played in the game: {label}, rank {rows[0] + 1}, regret {df['regret'].iloc[rows[0]]:.3f}"
