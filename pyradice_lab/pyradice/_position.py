"""Pyradice's position format (:class:`Position`, :func:`load_position`) and positions replayed from seeded
games (:func:`position_from_game`) (re-exported by :mod:`pyradice_lab.pyradice.advisor`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..engine.positions import (
    SeatNumbers,
    check_turn,
    position_components,
    read_position,
    seats_by_index,
    shown_int,
)
from ..engine.schema import Array, Field, Int, Records, SchemaError, Str, Table
from .components import Setup, coerce_components
from .geometry import PYRAMID, quarry_geometry

_LAYERS = ("bottom", "middle", "top")


_CELL = r"(\.|\?|[1-6?][A-Za-z])( +(\.|\?|[1-6?][A-Za-z]))*"


_CELL_DOC = 'cells separated by spaces: "4r" (value and colour letter), "?r" (colour only), "?" (hidden), "." (empty)'


_PYR = r"(\.|[1-6][A-Za-z])( +(\.|[1-6][A-Za-z]))*"


_PYR_DOC = 'cells separated by spaces: "4r" (value and colour letter) or "." (empty)'


# ------------------------------------------------------------------------------------------ the format
def position_spec() -> Table:
    """The schema of a position file (:mod:`pyradice_lab.engine.schema` nodes)."""
    row = Str(max_len=200, pattern=_CELL, pattern_doc=_CELL_DOC)
    level = Str(max_len=60, pattern=_PYR, pattern_doc=_PYR_DOC)
    seat = Table({
        "seat": Field(Int(1, 4), "the seat, numbered from 1 as in every text (turns pass from seat k to k + 1)"),
        "pyramid": Field(Array(level, 6, 6), "the pyramid's levels 1 (6 spaces) to 6 (1 space), bottom first",
                         default=[" ".join("." * (7 - k)) for k in range(1, 7)]),
    }, doc="one seat")
    setup = Table({
        "skills": Field(Array(Str(max_len=8), 5, 5), "skill tokens of levels 2..6, e.g. [\"A2\", \"B3\", ...] "
                                                     "(default: the components' setup)", default=None),
        "goals": Field(Array(Str(max_len=8), 5, 5), "goal tokens of levels 1..5 (default: the components' setup)",
                       default=None),
        "cards": Field(Array(Str(max_len=40), 4, 4), "the 4 objective cards (default: the components' setup)",
                       default=None),
        "discs": Field(Array(Str(max_len=40), 4, 4), "the colour of the disc on each card, e.g. [\"red\", ...]"),
    }, doc="what every pyramid board and the table show")
    return Table({
        "players": Field(Int(2, 4), "number of players"),
        "to_move": Field(Int(1, 4), "the seat about to take a die, numbered from 1"),
        "first_player": Field(Int(1, 4), "the start player's seat, numbered from 1", default=1),
        "setup": Field(setup, "the tokens, cards and discs"),
        "quarry": Field(Table({k: Field(Array(row, 1, 4), f"the {k} layer, rows north to south, each a string of "
                                                          "its dice west to east") for k in _LAYERS},
                              doc="the quarry, layer by layer"), "the quarry as the player sees it"),
        "seat": Field(Records(seat, "seat", min_len=2, max_len=4, merge="replace"), "the seats, [[seat]]"),
    }, doc="a Pyradice position: what the seat about to move sees")


@dataclass(frozen=True)
class Position(SeatNumbers):
    """A validated Pyradice position (build with :func:`load_position` or :func:`position_from_game`).

    ``occupied`` (n,) which quarry positions hold a die, ``values`` / ``colours`` (n,) what shows of them (0 / -1
    where hidden), ``pyramids`` ((21,) values, (21,) colours) per seat, ``discs`` the colour index of each card's
    disc; ``played`` the (take, place, option) the seat chose when the position comes from a game, else None.
    """

    players: int
    seat: int
    first_seat: int
    setup: Setup
    discs: tuple
    occupied: np.ndarray
    values: np.ndarray
    colours: np.ndarray
    pyramids: tuple
    played: tuple | None = None
    comp: object = field(default=None, repr=False)

    def __deepcopy__(self, memo):      # immutable in use; pandas deep-copies the attrs of every slice
        return self

    @property
    def turns_played(self) -> int:
        """Turns played so far (0 before the first)."""
        return int(sum((v > 0).sum() for v, _ in self.pyramids))

    @property
    def turn(self) -> int:
        """The turn number, from 1 (as :func:`position_from_game` and the transcripts number turns)."""
        return self.turns_played + 1

    @property
    def letters(self) -> tuple[str, ...]:
        from .quarry import colour_letters

        return colour_letters(self.setup.catalogue.palette.names)

    def _cell(self, i: int) -> str:
        if not self.occupied[i]:
            return "."
        v, c = int(self.values[i]), int(self.colours[i])
        return ("?" if c < 0 else f"{v or '?'}{self.letters[c]}") if v or c >= 0 else "?"

    def document(self) -> dict:
        """The position as a plain document (the file format; :func:`load_position` reads it back)."""
        geom = quarry_geometry(self.players)
        names = self.setup.catalogue.palette.names
        quarry = {}
        for layer, key in enumerate(_LAYERS):
            rows, cols = geom.shapes[layer]
            quarry[key] = [" ".join(self._cell(geom.index(layer, r, c)) for c in range(cols)) for r in range(rows)]
        return {"players": self.players, "to_move": self.to_move, "first_player": self.first_player,
                "setup": {"skills": list(self.setup.skills), "goals": list(self.setup.goals),
                          "cards": list(self.setup.cards), "discs": [names[d] for d in self.discs]},
                "quarry": quarry,
                "seat": [{"seat": s + 1, "pyramid": _pyramid_rows(v, c, self.letters)}
                         for s, (v, c) in enumerate(self.pyramids)]}

    def to_toml(self) -> str:
        """The position as a TOML file (the format of :func:`load_position`)."""
        import json

        d = self.document()
        q = json.dumps
        lines = [f"# Pyradice position: seat {self.to_move} to take a die (turn {self.turn})",
                 f"players = {d['players']}",
                 f"to_move = {d['to_move']}  # seats are numbered from 1",
                 f"first_player = {d['first_player']}",
                 "", "[setup]"] + [f"{k} = {q(v)}" for k, v in d["setup"].items()]
        lines += ["", "[quarry]  # rows north to south; 4r = value and colour, ?r = colour only, ? hidden, . empty"]
        lines += [f"{k} = [\n" + "".join(f"  {q(r)},\n" for r in d["quarry"][k]) + "]" for k in reversed(_LAYERS)]
        for s in d["seat"]:
            lines += ["", "[[seat]]", f"seat = {s['seat']}", "pyramid = [  # level 1 (6 spaces) first"]
            lines += [f"  {q(r)}," for r in s["pyramid"]] + ["]"]
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        """The table as text: the quarry (``[..]`` available, ``?`` hidden), then every seat's pyramid."""
        from .scoring import Table as ScoreTable
        from .sim import _pyramid_text

        geom = quarry_geometry(self.players)
        avail = set(_available(self))
        table = ScoreTable.build(self.setup, self.discs)
        out = [f"Pyradice, {self.players} players, turn {self.turn}: seat {self.to_move} to take a die "
               f"(start player seat {self.first_player})", f"Setup: {self.setup.describe()}",
               "Cards: " + ", ".join(table.card_labels()) + "; colour letters: "
               + ", ".join(f"{x}={n}" for x, n in zip(self.letters, table.colour_names)),
               "Quarry ([..] = available, ? = hidden):"]
        for layer in (2, 1, 0):
            rows, cols = geom.shapes[layer]
            out.append(f"  layer {layer} ({_LAYERS[layer]}, {rows}x{cols})")
            for r in range(rows):
                cells = []
                for c in range(cols):
                    i = geom.index(layer, r, c)
                    txt = self._cell(i)
                    cells.append(f"[{txt}]" if i in avail else f" {txt:^2} ")
                out.append("    " + "   " * layer + " ".join(cells).rstrip())
        for s, (v, c) in enumerate(self.pyramids):
            from .scoring import _score_pyramid

            sc = _score_pyramid(list(v), list(c), table)
            out.append(f"Seat {s + 1}{' (to move)' if s == self.seat else ''}: {int((v > 0).sum())} dice, "
                       f"{sc.total} VP if the game ended now")
            out += _pyramid_text(v, c, self.letters)
        return "\n".join(out)


def _pyramid_rows(values, colours, letters) -> list[str]:
    return [" ".join(f"{values[s]}{letters[colours[s]]}" if values[s] else "." for s in PYRAMID.spaces_of(k))
            for k in range(1, 7)]


def _available(pos: Position) -> list[int]:
    from .search import _available as avail

    return [int(i) for i in avail(pos.occupied.astype(np.int64), quarry_geometry(pos.players))]


def _build(doc: dict, comp, file=None) -> Position:
    def fail(what, path, allowed=None):
        raise SchemaError(what, path, allowed=allowed, file=file)

    from .quarry import colour_letters
    from .search import box_counts, observe

    players = doc["players"]
    seats = seats_by_index(doc, players, fail)
    default = Setup.default(comp)
    st = doc["setup"]
    names = comp.palette.names
    for key in ("skills", "goals", "cards"):
        if st.get(key) is None:
            st[key] = list(getattr(default, key))
    for i, d in enumerate(st["discs"]):
        if d not in names:
            fail(f"{d!r} is not a dice colour", ("setup", "discs", i), ", ".join(names))
    try:
        setup = Setup(tuple(st["skills"]), tuple(st["goals"]), tuple(st["cards"]), None, comp)
    except ValueError as e:
        key = str(e).split("[")[0].split(" ")[0].rstrip(":")
        fail(str(e), ("setup", key if key in ("skills", "goals", "cards") else "skills"))
    letters = colour_letters(names)

    def colour(ch, path):
        if ch.lower() not in letters:
            fail(f"unknown colour letter {ch!r}", path, ", ".join(f"{x} ({n})" for x, n in zip(letters, names)))
        return letters.index(ch.lower())

    geom = quarry_geometry(players)
    occ = np.zeros(geom.n, dtype=bool)
    values = np.zeros(geom.n, dtype=np.int64)
    colours = np.full(geom.n, -1, dtype=np.int64)
    for layer, key in enumerate(_LAYERS):
        rows, cols = geom.shapes[layer]
        grid = doc["quarry"][key]
        if len(grid) != rows:
            fail(f"has {len(grid)} rows", ("quarry", key), f"{rows} rows of {cols} dice ({players} players)")
        for r, text in enumerate(grid):
            cells = text.split()
            if len(cells) != cols:
                fail(f"has {len(cells)} cells", ("quarry", key, r), f"{cols} cells ({players} players)")
            for c, cell in enumerate(cells):
                i = geom.index(layer, r, c)
                if cell == ".":
                    continue
                occ[i] = True
                if len(cell) == 2:
                    values[i] = int(cell[0]) if cell[0] != "?" else 0
                    colours[i] = colour(cell[1], ("quarry", key, r))
    pyramids = []
    for s in range(players):
        v = np.zeros(PYRAMID.n, dtype=np.int64)
        c = np.full(PYRAMID.n, -1, dtype=np.int64)
        for k, text in enumerate(seats[s]["pyramid"], start=1):
            path = ("seat", str(s + 1), "pyramid", k - 1)
            cells = text.split()
            if len(cells) != 7 - k:
                fail(f"has {len(cells)} cells", path, f"{7 - k} cells on level {k}")
            for j, cell in enumerate(cells):
                if cell != ".":
                    sp = PYRAMID.space(k, j)
                    v[sp], c[sp] = int(cell[0]), colour(cell[1], path)
                    a, b = PYRAMID.supports[sp]
                    if a >= 0 and not (v[a] and v[b]):
                        fail(f"the die at {PYRAMID.label(sp)} does not rest on two dice", path,
                             "a die on level k > 1 directly above two dice of level k - 1")
        pyramids.append((v, c))
    counts = [int((v > 0).sum()) for v, _ in pyramids]
    first, to_move = doc["first_player"] - 1, doc["to_move"] - 1
    ahead = [(s - first) % players < (to_move - first) % players for s in range(players)]   # moved this round
    rounds = [c - a for c, a in zip(counts, ahead)]
    k = max(set(rounds), key=lambda x: (rounds.count(x), -abs(x - rounds[to_move])))
    for s in range(players):
        if rounds[s] != k:
            fail(f"holds {counts[s]} dice", ("seat", str(s + 1), "pyramid"),
                 f"{k + ahead[s]}: seat {to_move + 1} is to move after {k} full rounds from start seat {first + 1}")
    turn = sum(counts)
    if turn >= PYRAMID.n * players:
        fail("every pyramid is full: the game is over", ("seat",), "a position with a die still to take")
    if geom.n - int(occ.sum()) != turn:
        fail(f"holds {int(occ.sum())} dice, but {turn} are in the pyramids", ("quarry",),
             f"{geom.n - turn} dice ({geom.n} minus those placed)")
    seen = np.concatenate([colours[colours >= 0]] + [c[c >= 0] for _, c in pyramids])
    box = box_counts(setup, players)
    over = np.bincount(seen, minlength=len(box)) > box
    if over.any():
        j = int(np.argmax(over))
        fail(f"shows more {names[j]} dice than the box holds", ("quarry",), f"at most {int(box[j])} {names[j]} dice "
                                                                             "in the quarry and the pyramids")
    obs_v, obs_c = observe(values, colours, occ, players)
    pos = Position(players, to_move, first, setup, tuple(names.index(d) for d in st["discs"]),
                   occ, obs_v, obs_c, tuple(pyramids), comp=comp)
    for i in _available(pos):
        if obs_v[i] == 0 or obs_c[i] < 0:
            layer, r, c = geom.position(i)
            fail(f"the die in column {c} can be taken, so its value and colour show", ("quarry", _LAYERS[layer], r),
                 "a value and a colour letter, e.g. \"4r\"")
    return pos


def load_position(source, *, components=None) -> Position:
    """Read and validate a position: a ``.toml`` or ``.json`` path, a mapping, or a :class:`Position`.

    Parameters
    ----------
    source : path, Mapping or Position
        The position (format: :func:`position_spec`; documented in docs/guide/pyradice.md).
    components : path or Components, optional
        The catalogue the codes and colours refer to (default: the packaged one).

    Returns
    -------
    Position

    Raises
    ------
    SchemaError
        A ``ValueError`` naming the file and the key, e.g. ``pos.toml: quarry.top[0]: has 3 cells ...``.

    Examples
    --------
    >>> pos = position_from_game(1, 1, policies="greedy")
    >>> load_position(pos.document()).turn          # turns are numbered from 1
    1
    >>> doc = pos.document(); doc["quarry"]["top"][0] = "4r 2b"
    >>> load_position(doc)
    Traceback (most recent call last):
    ...
    pyradice_lab.engine.schema.SchemaError: quarry.top[0]: has 2 cells (allowed: 4 cells (2 players))
    """
    return read_position(source, Position, position_spec(), _build,
                         position_components(source, Position, components, coerce_components))


# ------------------------------------------------------------------------------------------ from games
class _Stop(Exception):
    pass


def positions_from_game(seed, *, players: int = 2, policies="flat_mc", setup=None, components=None,
                        turns=None) -> Iterator[tuple[int, Position]]:
    """Every ``(turn, position)`` of the seeded game, in order (one replay; see :func:`position_from_game`).

    Parameters
    ----------
    seed : int or Generator
        The game's seed (the game of :func:`~pyradice_lab.pyradice.sim.play_game` with that seed).
    players, policies, setup, components
        As for :func:`~pyradice_lab.pyradice.sim.play_game` (default policy: ``"flat_mc"`` for every seat).
    turns : collection of int, optional
        Only these turns (1 = the first; the replay stops after the last).

    Returns
    -------
    iterator of (int, Position)
        The turn number (as the transcript's ``tNN``) and the position before it; ``played`` holds the seat's
        (take, place, option).

    Examples
    --------
    >>> [t for t, _ in positions_from_game(1, policies="greedy", turns=(1, 2, 3))]
    [1, 2, 3]
    """
    from .geometry import check_players
    from .sim import check_setup, play_game, policy_function, resolve_policies

    players = check_players(players)
    setup = check_setup(setup, components)
    names = resolve_policies(policies, players)
    want = None if turns is None else {int(t) for t in turns}
    last = None if want is None else max(want, default=0)
    found: list = []

    def wrap(name):
        fn = policy_function(name, setup) if isinstance(name, str) else name

        def policy(state, u):
            move = fn(state, u)
            t = state.turn + 1
            if want is None or t in want:
                found.append((t, _from_state(state, setup, tuple(int(x) for x in move))))
            if last is not None and t >= last:
                raise _Stop
            return move

        return policy

    gen = found
    try:
        play_game(players, setup, [wrap(p) for p in names], seed, trace=False)
    except _Stop:
        pass
    yield from gen


def _from_state(state, setup, played) -> Position:
    from .search import observe

    q = state.quarry
    occ = q.occupied.copy()
    v, c = observe(q.values, q.colours, occ, state.players)
    pyr = tuple((np.array(pv, np.int64), np.array(pc, np.int64)) for pv, pc in state.pyramids)
    return Position(state.players, state.seat, state.first, setup, tuple(int(d) for d in state.table.discs), occ, v,
                    c, pyr, played, setup.catalogue)


def position_from_game(seed, turn: int, *, players: int = 2, policies="flat_mc", setup=None,
                       components=None) -> Position:
    """The position before turn ``turn`` (1 = the first, as the transcript's ``t01``) of the seeded game
    ``play_game(players, setup, policies, rng=seed)``: "what should I have done at turn K?".

    Parameters
    ----------
    seed : int or Generator
        The game's seed.
    turn : int
        1.. 21 x players.
    players, policies, setup, components
        As for :func:`~pyradice_lab.pyradice.sim.play_game`; the default policy is ``"flat_mc"`` (the strongest
        player) for every seat.

    Returns
    -------
    Position
        ``played`` holds the (take, place, option) the seat's policy chose.

    Raises
    ------
    ValueError
        If ``turn`` is not a turn of that game, or a game argument is not allowed.

    Examples
    --------
    >>> pos = position_from_game(1, 1, policies="greedy")
    >>> pos.turn, pos.to_move == pos.first_player, pos.played
    (1, True, (43, 4, -1))
    """
    from .geometry import check_players

    turn = check_turn(turn)
    n = PYRAMID.n * check_players(players)
    if turn > n:
        raise ValueError(f"turn must be at most {n}: a {players}-player game has {n} turns, got {shown_int(turn)}")
    for _t, pos in positions_from_game(seed, players=players, policies=policies, setup=setup, components=components,
                                      turns=(int(turn),)):
        return pos
    raise AssertionError("the replay did not reach the turn")  # pragma: no cover
