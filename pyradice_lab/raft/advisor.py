"""The table companion for Rocking Raft: rank every tilt of the turn at hand by its exact expected points.

A **position** is what a player sees at the table when it is their turn to tilt: the gems on each space of
the raft, every player's lifeboats (which card, which slots already hold a gem, water tokens), the points and
lifeboats each player has completed, whose turn it is, who started, and how many cards are still above the
pirate flag (its depth is public).  :func:`load_position` reads one from a TOML or JSON file (validated by
the schema machinery of the component files: an error names the key), :func:`position_from_game` rebuilds
the position at turn K of a seeded game, and :func:`advise` ranks the options:

- every (edge, finger space, intended hold time) of the exact player's grid
  (:data:`~.policies.EXACT_DURATIONS`: 11 durations, 0.5 to 10 s), best first;
- ``value``: the expected value of the tilt's outcome under the **exact** outcome distribution of the tilt
  model (no sampling: ``se`` and the interval are NaN), each outcome loaded on the player's lifeboats by the
  engine's optimal loader and its leftovers passed on, exactly as the ``exact`` player of
  :mod:`.expectimax` values it.  The objective names it: ``"points"`` is the exact player's value (points
  completed this turn plus the equity of the lifeboats left, minus the points the gems passed on bring the
  opponents), ``"completed"`` the expected points of the player's lifeboats completed this turn;
- ``policy="sampled"`` estimates the same values from ``samples`` simulated tilts per option (with ``se`` and
  a 95% interval: a check of the exact sums, and what a player without the exact engine would get);
- ``regret`` against the best, the chance of completing each lifeboat, the gems expected to fall, the points
  the leftovers are expected to complete for the opponents, ``then`` (the most likely outcome and how the
  player then loads it) and a short ``why``.

The exact distribution of the gems that fall for the top tilt, each outcome with its loading, is in
``advise(...).attrs["outcomes"]`` (:func:`tilt_outcomes` gives it for any tilt).

Examples
--------
>>> from pyradice_lab.raft.advisor import advise, position_from_game
>>> pos = position_from_game(7, 3)              # turn 3 of the seeded 3-player game 7
>>> df = advise(pos)
>>> (df["edge"].iloc[0], df["finger"].iloc[0], float(df["duration"].iloc[0])) == pos.played
True
>>> bool(df["regret"].iloc[0] == 0 and (df["regret"] >= 0).all())
True
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.positions import check_choice, exact_columns, read_position
from ..engine.schema import (
    Array,
    Field,
    Float,
    Int,
    Records,
    SchemaError,
    Str,
    Table,
)
from .components import Components, coerce_components
from .physics import TiltParams, coerce_params
from .rules import FLAG, VARIANTS, Game

__all__ = ["advise", "Position", "load_position", "position_from_game", "positions_from_game", "tilt_outcomes",
           "position_spec", "OBJECTIVES", "POLICIES"]

#: what :func:`advise` maximises (see the module docstring)
OBJECTIVES = {"points": "expected points (exact player's value)",
              "completed": "expected points completed this turn"}
#: how :func:`advise` values the options
POLICIES = ("exact", "sampled")
_GEMS = r"-|([A-Za-z][0-9]{1,3} ?)+"
_GEMS_DOC = 'gems as colour letter + count, e.g. "R2 Y1 K1" (or "R2Y1K1"); "-" for none'


# ------------------------------------------------------------------------------------------ the format
def position_spec() -> Table:
    """The schema of a position file (:mod:`pyradice_lab.engine.schema` nodes)."""
    gems = Str(max_len=80, pattern=_GEMS, pattern_doc=_GEMS_DOC)
    boat = Table({
        "card": Field(Int(1, 10_000), "the lifeboat card's number (#N in transcripts and card lists)"),
        "filled": Field(gems, "slots already holding a gem, by slot colour (a black gem counts for the slot "
                              "colour it fills), e.g. \"R1\"", default="-"),
        "water": Field(Int(0, 9), "water tokens on it now (sinking variant; this turn's token included)",
                       default=0),
    }, doc="one lifeboat card in front of the player")
    seat = Table({
        "seat": Field(Int(0, 3), "seat number (0..players-1; passing goes to seat + 1)"),
        "score": Field(Int(0, 10_000), "points completed so far", default=0),
        "completed": Field(Int(0, 100), "lifeboats completed so far (the tie-break)", default=0),
        "boats": Field(Array(boat, 0, 10), "the lifeboats in front of this player", default=[]),
    }, doc="one player")
    return Table({
        "players": Field(Int(2, 4), "number of players"),
        "variant": Field(Str(VARIANTS), "rules variant", default="standard"),
        "to_move": Field(Int(0, 3), "the seat about to tilt"),
        "first_player": Field(Int(0, 3), "the start player's seat (the game ends after the seat before it)",
                              default=0),
        "flag": Field(Int(-1, 1000), "cards still above the pirate flag in the deck (-1: the flag is drawn)"),
        "raft": Field(Array(Array(gems, 3, 3), 3, 3), "gems on the 3x3 raft, rows north to south, spaces west to "
                                                      "east"),
        "skill": Field(Float(0.0, 2.0), "the mover's timing noise (log-sd; default: the tilt model's)",
                       default=None),
        "fallen": Field(gems, "gems that just fell in the mover's tilt: the decision is then how to load them "
                              "(leave it out to choose the tilt)", default=None),
        "seat": Field(Records(seat, "seat", min_len=2, max_len=4, merge="replace"), "the players, [[seat]]"),
    }, doc="a Rocking Raft position: what the player about to tilt sees")


@dataclass(frozen=True)
class Position:
    """A validated Rocking Raft position (build with :func:`load_position` or :func:`position_from_game`).

    ``raft`` (9, colours) gems per space (row by row from the north-west corner); ``boats[seat]`` a tuple of
    ``(deck index, filled (slot colours,), water)``; ``scores`` / ``completed`` per seat; ``flag`` cards above
    the pirate flag (-1: drawn); ``fallen`` (colours,) the gems in the mover's hand after the tilt (None:
    the tilt is still to choose); ``played`` what the seat actually did when the position comes from a game
    (the (edge, finger, duration) of the tilt, or with ``fallen`` the engine's loading as a
    ``(fill (boats, slot colours), leftover (colours,))`` pair), else None.
    """

    players: int
    variant: str
    to_move: int
    first_player: int
    flag: int
    raft: np.ndarray
    boats: tuple
    scores: tuple
    completed: tuple
    skill: float | None
    comp: Components = field(repr=False)
    played: tuple | None = None
    fallen: np.ndarray | None = None

    def document(self) -> dict:
        """The position as a plain document (the file format; :func:`load_position` reads it back)."""
        letters = self.comp.gems.letters
        doc = {"players": self.players, "variant": self.variant, "to_move": self.to_move,
               "first_player": self.first_player, "flag": self.flag,
               "raft": [[_gem_text(self.raft[r * 3 + c], letters) for c in range(3)] for r in range(3)]}
        if self.skill is not None:
            doc["skill"] = self.skill
        if self.fallen is not None:
            doc["fallen"] = _gem_text(self.fallen, letters)
        doc["seat"] = [{"seat": s, "score": self.scores[s], "completed": self.completed[s],
                        "boats": [{"card": self.comp.deck[c].id, "filled": _gem_text(f, letters),
                                   **({"water": w} if w else {})} for c, f, w in self.boats[s]]}
                       for s in range(self.players)]
        return doc

    def to_toml(self) -> str:
        """The position as a TOML file (the format of :func:`load_position`)."""
        d = self.document()
        lines = [f"# Rocking Raft position: seat {self.to_move} to tilt", f"players = {d['players']}",
                 f'variant = "{d["variant"]}"', f"to_move = {d['to_move']}", f"first_player = {d['first_player']}",
                 f"flag = {d['flag']}  # cards above the pirate flag (-1: drawn)"]
        if "skill" in d:
            lines.append(f"skill = {d['skill']!r}")
        if "fallen" in d:
            lines.append(f'fallen = "{d["fallen"]}"  # gems that fell this turn: how to load them?')
        lines.append("raft = [  # rows north to south, spaces west to east")
        lines += [f"  [{', '.join(json.dumps(x) for x in row)}]," for row in d["raft"]]
        lines.append("]")
        for s in d["seat"]:
            boats = ", ".join("{" + ", ".join(f"{k} = {json.dumps(v)}" for k, v in b.items()) + "}"
                              for b in s["boats"])
            lines += ["", "[[seat]]", f"seat = {s['seat']}", f"score = {s['score']}",
                      f"completed = {s['completed']}", f"boats = [{boats}]"]
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        """The table as text: the raft (north at the top), then every player's lifeboats."""
        letters = self.comp.gems.letters
        cells = [_gem_text(self.raft[s], letters, sep="") for s in range(9)]
        flag = "the pirate flag is drawn (last round)" if self.flag < 0 else \
            f"the pirate flag is under {self.flag} card{'s' if self.flag != 1 else ''}"
        act = "to tilt" if self.fallen is None else f"to load {_gem_text(self.fallen, letters, '')}"
        out = [f"Rocking Raft, {self.players} players ({self.variant}), seat {self.to_move} {act} "
               f"(start player seat {self.first_player}); {flag}", "Raft (north at the top):"]
        out += ["  " + " ".join(f"{x:>9}" for x in cells[r * 3:r * 3 + 3]) for r in range(3)]
        slots, _ = self.comp.deck_arrays()
        for s in range(self.players):
            boats = []
            for c, f, w in self.boats[s]:
                need = " ".join(f"{col}{int(a)}/{int(b)}" for col, a, b in zip(letters, f, slots[c]) if b)
                boats.append(f"{self.comp.card_label(c)} [{need}]" + (f" water {w}" if self.variant == "sinking"
                                                                        else ""))
            who = f" ({act})" if s == self.to_move else ""
            out.append(f"seat {s}{who}: {self.scores[s]} pts, {self.completed[s]} boats; "
                       + ("; ".join(boats) or "no lifeboat"))
        return "\n".join(out)


def _gem_text(vec, letters, sep=" ") -> str:
    parts = [f"{a}{int(n)}" for a, n in zip(letters, vec) if n]
    return sep.join(parts) if parts else "-"


def _parse_gems(text: str, letters, path, *, allowed=None) -> np.ndarray:
    allowed = letters if allowed is None else allowed
    vec = np.zeros(len(letters), dtype=np.int64)
    if text.strip() == "-":
        return vec
    for letter, n in re.findall(r"([A-Za-z])([0-9]+)", text):
        up = letter.upper()
        if up not in allowed:
            raise SchemaError(f"unknown colour letter {letter!r}", path, allowed=", ".join(allowed))
        i = letters.index(up)
        if vec[i]:
            raise SchemaError(f"colour {up} appears twice", path, allowed=_GEMS_DOC)
        vec[i] = int(n)
    return vec


def _build(doc: dict, comp: Components, file=None) -> Position:
    def fail(what, path, allowed=None):
        raise SchemaError(what, path, allowed=allowed, file=file)

    rules = comp.rules
    letters = comp.gems.letters
    players = doc["players"]
    if not rules.min_players <= players <= rules.max_players:
        fail(f"{players} is out of range", ("players",), f"{rules.min_players}..{rules.max_players}")
    for key in ("to_move", "first_player"):
        if doc[key] >= players:
            fail(f"{doc[key]} is not a seat of a {players}-player game", (key,), f"0..{players - 1}")
    seats = {int(s["seat"]): s for s in doc["seat"]}
    if sorted(seats) != list(range(players)):
        fail(f"lists seats {sorted(seats)}", ("seat",), f"one [[seat]] for each of seats 0..{players - 1}")
    raft = np.zeros((9, len(letters)), dtype=np.int64)
    for r in range(3):
        for c in range(3):
            raft[r * 3 + c] = _parse_gems(doc["raft"][r][c], letters, ("raft", r, c))
    in_play = comp.gems.in_play(players)
    fallen = None if doc.get("fallen") is None else _parse_gems(doc["fallen"], letters, ("fallen",))
    over = raft.sum(axis=0) + (0 if fallen is None else fallen) > in_play
    if over.any():
        c = int(np.argmax(over))
        fail(f"holds {int(raft[:, c].sum())} {comp.gems.colours[c]} gems, more than the {int(in_play[c])} a "
             f"{players}-player game uses", ("raft",) if fallen is None else ("fallen",),
             "at most the gems in play, raft and fallen together")
    ids = {card.id: i for i, card in enumerate(comp.deck)}
    slots, _ = comp.deck_arrays()
    slot_letters = letters[:slots.shape[1]]
    seen: dict = {}
    boats = []
    for s in range(players):
        entry = seats[s]
        if len(entry["boats"]) > rules.boats:
            fail(f"has {len(entry['boats'])} lifeboats", ("seat", str(s), "boats"), f"at most {rules.boats}")
        row = []
        for j, b in enumerate(entry["boats"]):
            path = ("seat", str(s), "boats", j)
            if b["card"] not in ids:
                fail(f"no lifeboat card #{b['card']}", path + ("card",), f"the deck's cards #1..#{len(comp.deck)}")
            if b["card"] in seen:
                fail(f"card #{b['card']} is also in front of seat {seen[b['card']]}", path + ("card",),
                     "each card once")
            seen[b["card"]] = s
            idx = ids[b["card"]]
            filled = _parse_gems(b["filled"], slot_letters, path + ("filled",), allowed=slot_letters)
            if (filled > slots[idx]).any() or filled.sum() >= slots[idx].sum():
                fail(f"{b['filled']!r} does not leave an empty slot on {comp.card_label(idx)}", path + ("filled",),
                     "fewer gems than the card's slots, each colour at most its slots (a full lifeboat is "
                     "completed at once)")
            if b["water"] and doc["variant"] != "sinking":
                fail("water tokens are used only in the sinking variant", path + ("water",), "0")
            if b["water"] > rules.sink_at:
                fail(f"{b['water']} is out of range", path + ("water",), f"0..{rules.sink_at}")
            row.append((idx, filled, int(b["water"])))
        boats.append(tuple(row))
    cards_left = len(comp.deck) - len(seen)
    if doc["flag"] > cards_left:
        fail(f"{doc['flag']} cards cannot be above the flag", ("flag",), f"-1..{cards_left} (the cards not on the "
                                                                          "table)")
    return Position(players, doc["variant"], doc["to_move"], doc["first_player"], doc["flag"], raft, tuple(boats),
                    tuple(int(seats[s]["score"]) for s in range(players)),
                    tuple(int(seats[s]["completed"]) for s in range(players)), doc.get("skill"), comp,
                    fallen=fallen)


def load_position(source, *, components=None) -> Position:
    """Read and validate a position: a ``.toml`` or ``.json`` path, a mapping, or a :class:`Position`.

    Parameters
    ----------
    source : path, Mapping or Position
        The position (format: :func:`position_spec`; documented in docs/guide/raft.md).
    components : path or Components, optional
        The components the card numbers refer to (default: the packaged ones).

    Returns
    -------
    Position

    Raises
    ------
    SchemaError
        A ``ValueError`` naming the file and the key: ``pos.toml: seat.1.boats[0].card: no lifeboat card #99
        (allowed: ...)``.

    Examples
    --------
    >>> pos = load_position({"players": 2, "to_move": 0, "flag": 10,
    ...                      "raft": [["R1", "Y1", "B1"], ["R1", "R3 Y3 B4 K3", "Y1"], ["B1", "R1", "Y1"]],
    ...                      "seat": [{"seat": 0, "boats": [{"card": 1}, {"card": 5}]},
    ...                               {"seat": 1, "boats": [{"card": 3, "filled": "Y1"}, {"card": 9}]}]})
    >>> int(pos.raft.sum()), pos.players
    (21, 2)
    >>> load_position({"players": 2, "to_move": 0, "flag": 10, "raft": [], "seat": []})
    Traceback (most recent call last):
    ...
    pyradice_lab.engine.schema.SchemaError: raft: has 0 items (allowed: an array of 3 items, each an array of 3 items, each gems as colour letter + count, e.g. "R2 Y1 K1" (or "R2Y1K1"); "-" for none)
    """
    return read_position(source, Position, position_spec(), _build,
                         None if isinstance(source, Position) else coerce_components(components))


# ------------------------------------------------------------------------------------------ from games
class _Stop(Exception):
    pass


class _Recorder(Game):
    """A game that records the position at each turn it is asked about (then stops after the last)."""

    def __init__(self, *args, turns=(), after_tilt=False, **kw):
        super().__init__(*args, **kw)
        self._want = set(turns)
        self._last = max(self._want) if self._want else None
        self._after = after_tilt
        self.captured: dict = {}

    def _wanted(self) -> bool:
        return self._last is None or self.turn in self._want

    def choose(self, p):
        choice = super().choose(p)
        if not self._after and self._wanted():
            edge, fi, d = choice
            self.captured[self.turn] = self.position(p, (edge, self.comp.raft.fingers[edge][fi], float(d)))
            if self.turn == self._last:
                raise _Stop
        return choice

    def load_on(self, q, gems):
        if self._after and q == self.current and self._wanted() and self.turn not in self.captured:
            pos = self.position(q, None, fallen=gems.copy())
            before = [b.fill.copy() for b in self.boats[q]]
            placed = super().load_on(q, gems)
            fill = np.array([b.fill - f for b, f in zip(self.boats[q], before)], dtype=np.int64)
            self.captured[self.turn] = Position(**{**pos.__dict__, "played": (fill, gems - placed)})
            if self.turn == self._last:
                raise _Stop
            return placed
        return super().load_on(q, gems)

    def position(self, p: int, played=None, fallen=None) -> Position:
        points = self.points
        return Position(self.players, self.variant, p, self.first, -1 if self.flag_drawn else self.deck.index(FLAG),
                        self.raft.copy(), tuple(tuple((b.card, b.fill.copy(), int(b.water)) for b in seat)
                                                for seat in self.boats),
                        tuple(sum(int(points[c]) for c in pile) for pile in self.piles),
                        tuple(len(pile) for pile in self.piles), float(self.skills[p]), self.comp, played,
                        fallen)


def positions_from_game(seed, *, players: int = 3, variant: str = "standard", policies="exact",
                        after_tilt: bool = False, **game_kw) -> Iterator[tuple[int, Position]]:
    """Every ``(turn, position)`` of the seeded game, in order (one replay; see :func:`position_from_game`).

    Parameters
    ----------
    seed : int or Generator
        The game's seed.
    players, variant, policies, after_tilt, **game_kw
        As for :func:`position_from_game`.

    Returns
    -------
    iterator of (int, Position)
        The turn number (1 = the first) and the position at its start (``after_tilt``: after its tilt).

    Examples
    --------
    >>> turns = [t for t, _ in positions_from_game(7, players=2)]
    >>> turns[:3]
    [1, 2, 3]
    """
    game = _Recorder(players, variant, policies, rng=seed, trace=False, after_tilt=_flag(after_tilt), **game_kw)
    while not game.over:
        game.play_turn()
        yield from game.captured.items()
        game.captured.clear()


def _flag(value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"after_tilt must be True or False, got {value!r}")
    return bool(value)


def position_from_game(seed, turn: int, *, players: int = 3, variant: str = "standard", policies="exact",
                       after_tilt: bool = False, **game_kw) -> Position:
    """The position at the start of turn ``turn`` (1 = the first turn, as transcripts number them) of the game
    ``play_game(players, variant, policies, rng=seed)``: "what should I have done at turn K?".

    Parameters
    ----------
    seed : int or Generator
        The game's seed.
    turn : int
        1.. the game's number of turns.
    players, variant, policies, **game_kw
        As for :func:`~pyradice_lab.raft.rules.play_game` (``components``, ``params``, ``skills``,
        ``flag_depth``, ...); the default policy is ``"exact"`` for every seat.
    after_tilt : bool
        ``True``: the position after the tilt, with the gems that fell in ``fallen`` (the loading decision).

    Returns
    -------
    Position
        ``played`` holds the (edge, finger, duration) the seat's policy chose (with ``after_tilt``: the
        engine's loading, ``(fill, leftover)``).

    Raises
    ------
    ValueError
        If ``turn`` is not a turn of that game (the message gives the game's length), or a game argument is
        not allowed.

    Examples
    --------
    >>> pos = position_from_game(7, 1)
    >>> pos.to_move, pos.played
    (1, ('west', 'right', 2.5))
    """
    if isinstance(turn, bool) or not isinstance(turn, numbers.Integral) or turn < 1:
        raise ValueError(f"turn must be an integer >= 1 (1 = the first turn), got {turn!r}")
    game = _Recorder(players, variant, policies, rng=seed, trace=False, turns=(int(turn),),
                     after_tilt=_flag(after_tilt), **game_kw)
    try:
        while not game.over:
            game.play_turn()
    except _Stop:
        return game.captured[int(turn)]
    raise ValueError(f"turn must be at most {game.turn}: game {seed!r} ends after {game.turn} turns, got {turn}")


# ------------------------------------------------------------------------------------------ advise
def _setting(pos: Position, objective: str, params):
    """Arrays of the mover and the opponents (passing order), the exact player's context and parameters."""
    from .expectimax import ExactContext
    from .policies import exact

    comp = pos.comp
    nb, p, n = comp.rules.boats, pos.to_move, pos.players
    slots, points = comp.deck_arrays()
    k = slots.shape[1]

    def arrays(seats):
        empty = np.zeros((len(seats) * nb, k), dtype=np.int64)
        pts = np.zeros(len(seats) * nb, dtype=np.int64)
        for i, q in enumerate(seats):
            for j, (c, f, _) in enumerate(pos.boats[q]):
                empty[i * nb + j] = slots[c] - f
                pts[i * nb + j] = points[c]
        return empty, pts

    my_empty, my_pts = arrays([p])
    opp_empty, opp_pts = arrays([(p + q) % n for q in range(1, n)])
    doomed = np.zeros(nb, dtype=bool)
    if pos.variant == "sinking":
        for j, (_, _, w) in enumerate(pos.boats[p]):
            doomed[j] = w >= comp.rules.sink_at
    order = [(pos.first_player + i) % n for i in range(n)]
    later = [order.index((p + s) % n) > order.index(p) for s in range(1, n)]
    seats = [(p + s) % n for s in range(n)]
    standings = [[pos.scores[q], pos.completed[q]] for q in seats]
    last = p == (pos.first_player - 1) % n
    pol = exact()
    pars = pol.pars()
    if objective == "completed":
        pars = pars.copy()
        pars[[1, 3, 5]] = 0.0          # no gift cost, no equity, no win bonus: the points completed this turn
    tp = coerce_params(params)
    sp = tp.replace(timing_noise=pos.skill) if pos.skill is not None else tp
    ctx_args = (doomed[None], np.array([pos.flag]), np.array([later]), nb, slots.sum(axis=1), points,
                np.array([standings]), np.array([last]))
    return dict(pol=pol, pars=pars, params=sp, my=(my_empty, my_pts), opp=(opp_empty, opp_pts),
                ctx=lambda w, nf: ExactContext(w[None], nf[None], np.zeros(1, dtype=np.int64), *ctx_args))


def _mine_grid(pos, st, gems, game):
    """Per outcome row: per-boat completion of the mover (R, B) and the opponents' points completed (R,)."""
    from .expectimax import _seat_outcomes
    from .loading import load_batch

    my_empty, my_pts = st["my"]
    k = my_empty.shape[1]
    need = my_empty.sum(axis=0)
    mine = np.concatenate([np.minimum(gems[:, :k], need), np.minimum(gems[:, k:], need.sum())], axis=1)
    held, fill = load_batch(mine, np.broadcast_to(my_empty, (len(gems),) + my_empty.shape).copy(),
                            np.broadcast_to(my_pts, (len(gems),) + my_pts.shape).copy())
    done = (my_pts[None] > 0) & ((my_empty[None] - fill).sum(axis=2) == 0)
    left = gems - held.sum(axis=1)
    left[:, k:] = 0
    opp_empty, opp_pts = st["opp"]
    nb = len(my_pts)
    gift = np.zeros(len(gems))
    never = np.zeros((1, nb), dtype=bool)
    decay = np.array([0.5])
    for s in range(len(opp_pts) // nb):
        rows = slice(s * nb, (s + 1) * nb)
        capped = np.concatenate([np.minimum(left[:, :k], opp_empty[rows].sum(axis=0)), left[:, k:]], axis=1)
        placed, pts, _, _ = _seat_outcomes(capped, game, opp_empty[rows][None], opp_pts[rows][None], never, decay)
        left = left - placed
        gift += pts
    return done, gift


def _load_texts(pos, st, xs) -> list[str]:
    """How the mover loads each outcome row of ``xs`` (gems per colour): placed, completed, passed on
    (the engine's optimal loader, :func:`.loading.load_batch`, for all rows at once)."""
    from .loading import load_batch

    comp = pos.comp
    letters = comp.gems.letters
    k = len(letters) - 1
    xs = np.asarray(xs, dtype=np.int64).reshape(-1, len(letters))
    my_empty, my_pts = st["my"]
    nb = len(pos.boats[pos.to_move])
    n = len(xs)
    if nb:
        held, fill = load_batch(xs, np.broadcast_to(my_empty[:nb], (n, nb, k)).copy(),
                                np.broadcast_to(my_pts[:nb], (n, nb)).copy())
        full = (fill == my_empty[None, :nb]).all(axis=2)
        left = xs - held.sum(axis=1)
    else:
        left = xs
    out = []
    for i in range(n):
        if not xs[i].any():
            out.append("nothing falls")
            continue
        parts = []
        for j, (c, _, _) in enumerate(pos.boats[pos.to_move]):
            if held[i, j].any():
                parts.append(f"{_gem_text(held[i, j], letters, '')} on {comp.card_label(c)}"
                             + (" (completes)" if full[i, j] else ""))
        if left[i, :k].any():
            parts.append(f"pass {_gem_text(left[i, :k], letters[:k], '')}")
        if left[i, k]:
            parts.append(f"{letters[k]}{int(left[i, k])} back to the centre")
        out.append("; ".join(parts) if parts else "nothing to place")
    return out


def _sampled(pos, st, table, samples, rng):
    from ..engine.rng import as_generator
    from ..engine.stats import mean_estimate
    from .expectimax import _caps, outcome_values
    from .tilting import tilt

    gen = as_generator(rng)
    raft = pos.raft
    my_empty, my_pts = st["my"]
    opp_empty, opp_pts = st["opp"]
    caps = _caps(raft[None], my_empty[None], opp_empty[None])[0]
    rows = []
    for e, f, d in table.options:
        fallen = tilt(raft, e, f, d, n=samples, rng=gen, params=st["params"], components=pos.comp).fallen
        gems = np.minimum(fallen.astype(np.int64), caps)
        ctx = st["ctx"](np.zeros(1), np.zeros((1, 9, 1)))
        vals = outcome_values(gems, np.zeros(len(gems), dtype=np.int64), st["pars"][None], my_empty[None],
                              my_pts[None], opp_empty[None], opp_pts[None], ctx)
        est = mean_estimate(vals)
        rows.append((est.value, est.se, est.ci_low, est.ci_high))
    return np.array(rows)


def advise(position, *, objective: str = "points", policy: str = "exact", rng=None, samples: int = 2000,
           params=None, components=None) -> pd.DataFrame:
    """Rank every tilt of the position's turn: edge, finger space and hold time, best first.

    Parameters
    ----------
    position : Position, path or mapping
        The table (see :func:`load_position`, :func:`position_from_game`).
    objective : {"points", "completed"}
        ``"points"``: the exact player's value (points completed this turn, plus the equity of the lifeboats
        left and the replacement cards' prospects, minus what the gems passed on bring the opponents; a win
        bonus on the turn that ends the game); ``"completed"``: expected points completed this turn.
    policy : {"exact", "sampled"}
        ``"exact"``: exact sums over the outcome distribution of the tilt model (``se`` NaN);
        ``"sampled"``: ``samples`` simulated tilts per option (``se`` and a 95% interval).
    rng : seed or Generator, optional
        The sampled policy's random stream (unused by ``"exact"``).
    samples : int
        Tilts simulated per option by the sampled policy (2..1,000,000).
    params : TiltParams or dict, optional
        Tilt model parameters (default ``data/tilt.toml``; the position's ``skill`` sets the timing noise).
    components : path or Components, optional
        For a position given as a path or mapping: the components its card numbers refer to.

    Returns
    -------
    DataFrame
        One row per option, best first: ``edge``, ``finger``, ``duration``, ``value`` (the objective; its
        label is ``df.attrs["objective"]`` and the ``objective`` column), ``se``, ``ci_low``, ``ci_high``
        (NaN where exact), ``regret``, ``p_complete_<i>`` (chance of completing the mover's lifeboat ``i``),
        ``gems_fallen`` (expected), ``gift_points`` (expected points the leftovers complete for the
        opponents), ``then`` (the most likely outcome and how to load it) and ``why``.
        ``attrs["outcomes"]``: the exact distribution of the gems fallen for the top tilt
        (:func:`tilt_outcomes`).

    Raises
    ------
    ValueError
        If the position is invalid (naming the key), or ``objective``, ``policy`` or ``samples`` is not
        allowed.

    Examples
    --------
    >>> df = advise(position_from_game(3, 2, players=2))
    >>> list(df.columns[:5])
    ['edge', 'finger', 'duration', 'value', 'se']
    >>> len(df)
    110
    """
    check_choice(objective, "objective", OBJECTIVES)
    check_choice(policy, "policy", POLICIES)
    if isinstance(samples, bool) or not isinstance(samples, numbers.Integral) or not 2 <= samples <= 1_000_000:
        raise ValueError(f"samples must be an integer in 2..1000000, got {samples!r}")
    if params is not None and not isinstance(params, (TiltParams, Mapping)):
        raise ValueError(f"params must be TiltParams or a mapping of its fields, got {params!r}")
    pos = load_position(position, components=components)
    if pos.fallen is not None:
        return _advise_loading(pos, objective, params)
    from .expectation import gem_cells, option_expectations
    from .expectimax import _caps, _grid, exact_values, node_tables
    from .policies import OptionTable

    st = _setting(pos, objective, params)
    comp = pos.comp
    table = OptionTable(comp.raft, st["pol"].durations)
    w, node_fall = node_tables(table, st["params"])
    ctx = st["ctx"](w, node_fall)
    my_empty, my_pts = st["my"]
    opp_empty, opp_pts = st["opp"]
    raft = pos.raft
    vals = exact_values(st["pars"][None], raft[None], my_empty[None], my_pts[None], opp_empty[None], opp_pts[None],
                        ctx)[0]
    # the same capped grid for the per-option details
    k = my_empty.shape[1]
    caps = _caps(raft[None], my_empty[None], opp_empty[None])
    order = np.array([k] + list(range(k)))
    gems, game, _ = _grid(caps[:, order])
    gems = gems[:, np.argsort(order)]
    cells, counts = gem_cells(raft[:, order])
    active = np.ones(len(table), dtype=bool)

    def expect(v):
        return option_expectations(cells, counts, caps[0, order], node_fall, w, np.ascontiguousarray(v, float),
                                   active)

    done, gift = _mine_grid(pos, st, gems, game)
    nb = len(pos.boats[pos.to_move])
    p_boat = [expect(done[:, j]) for j in range(nb)]
    gift_pts = expect(gift)
    fallen = np.einsum("osj,j,s->o", node_fall, w, raft.sum(axis=1))
    if policy == "sampled":
        est = _sampled(pos, st, table, int(samples), rng)
        value, se, lo, hi = est.T
    else:
        value = vals
        se = lo = hi = np.full(len(vals), np.nan)
    # the most likely full outcome of every option (uncapped joint pmf over the timing nodes)
    from .odds import capped_count_pmfs

    full = raft.sum(axis=0)
    pm = capped_count_pmfs(np.repeat(raft[None], len(table), axis=0), node_fall.transpose(0, 2, 1),
                           np.repeat(full[None], len(table), axis=0))
    joint = np.einsum("ojr,ojy,ojb,ojk,j->orybk", *pm, w)
    flat = joint.reshape(len(table), -1)
    best_cell = flat.argmax(axis=1)
    labels = [comp.raft.fingers[e][f] for e, f, _ in table.options]
    rows = []
    letters = comp.gems.letters
    likely = np.stack(np.unravel_index(best_cell, joint.shape[1:]), axis=1)
    loads = _load_texts(pos, st, likely)
    for o, (e, _, d) in enumerate(table.options):
        x = likely[o]
        then = f"most likely {_gem_text(x, letters, '') if x.any() else 'nothing'} (p {flat[o, best_cell[o]]:.2f}): " \
               f"{loads[o]}"
        rows.append([e, labels[o], float(d), value[o], se[o], lo[o], hi[o]]
                    + [p_boat[j][o] for j in range(nb)] + [fallen[o], gift_pts[o], then])
    cols = ["edge", "finger", "duration", "value", "se", "ci_low", "ci_high"] + \
        [f"p_complete_{j}" for j in range(nb)] + ["gems_fallen", "gift_points", "then"]
    df = pd.DataFrame(rows, columns=cols)
    df = df.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)
    df.insert(7, "regret", df["value"].iloc[0] - df["value"])
    df["why"] = [_why(pos, r, nb) for r in df.itertuples(index=False)]
    df["objective"] = OBJECTIVES[objective]
    df.attrs.update(objective=OBJECTIVES[objective], policy=policy, position=pos,
                    lifeboats=[comp.card_label(c) for c, _, _ in pos.boats[pos.to_move]])
    top = df.iloc[0]
    df.attrs["outcomes"] = tilt_outcomes(pos, top["edge"], top["finger"], top["duration"], objective=objective,
                                         params=params)
    return df


def _loadings(empty: np.ndarray, x: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every distinct maximal loading of the gems ``x`` (colours,) on lifeboats with ``empty`` (boats, slot
    colours) free slots: ``(t, left)``, the slots filled per boat and colour and the gems left over.  Ordinary
    gems go on their colour first, black gems cover the rest; maximal: no gem left over has a free slot it fits
    (the rules: put the gems on your lifeboats, pass what you cannot place)."""
    import itertools

    nb, k = empty.shape
    out: dict = {}
    for combo in itertools.product(*[range(int(empty[b, c]) + 1) for b in range(nb) for c in range(k)]):
        t = np.array(combo, dtype=np.int64).reshape(nb, k)
        tot = t.sum(axis=0)
        ordinary = np.minimum(x[:k], tot)
        blacks = int((tot - ordinary).sum())
        if blacks > x[k]:
            continue
        full = t == empty
        if any(x[c] > tot[c] and not full[:, c].all() for c in range(k)) or (x[k] > blacks and not full.all()):
            continue
        left = np.concatenate([x[:k] - ordinary, [x[k] - blacks]]).astype(np.int64)
        out.setdefault((t.tobytes(), left.tobytes()), (t, left))
    return list(out.values())


def _advise_loading(pos: Position, objective: str, params) -> pd.DataFrame:
    """The loading decision: every maximal loading of ``pos.fallen``, valued like an outcome of the tilt."""
    from .expectimax import outcome_values
    from .loading import load_scalar

    comp = pos.comp
    st = _setting(pos, objective, params)
    my_empty, my_pts = st["my"]
    opp_empty, opp_pts = st["opp"]
    nb = len(pos.boats[pos.to_move])
    letters = comp.gems.letters
    k = my_empty.shape[1]
    x = pos.fallen
    _, fill = load_scalar([int(v) for v in x], my_empty[:nb].tolist(), my_pts[:nb].tolist())
    fill = np.array(fill, dtype=np.int64).reshape(nb, k)
    engine = fill.tobytes()
    options = _loadings(my_empty[:nb], x)
    options.sort(key=lambda o: o[0].tobytes() != engine)      # the engine's loading first (ties go to it)
    ctx = st["ctx"](np.zeros(1), np.zeros((1, 9, 1)))
    rows = []
    for t, left in options:
        after = my_empty.copy()
        after[:nb] -= t
        v = outcome_values(left[None], np.zeros(1, dtype=np.int64), st["pars"][None], after[None], my_pts[None],
                           opp_empty[None], opp_pts[None], ctx)[0]
        parts, done = [], []
        for j, (c, _, _) in enumerate(pos.boats[pos.to_move]):
            if t[j].any():
                full = not after[j].any()
                parts.append(f"{_gem_text(t[j], letters[:k], '')} on {comp.card_label(c)}"
                             + (" (completes)" if full else ""))
                if full:
                    done.append(comp.card_label(c))
        used = int(x[k] - left[k])
        if used:
            parts.append(f"using {letters[k]}{used}")
        if left[:k].any():
            parts.append(f"pass {_gem_text(left[:k], letters[:k], '')}")
        if left[k]:
            parts.append(f"{letters[k]}{int(left[k])} back to the centre")
        then, gifts = _passing(pos, st, left)
        why = ("completes " + " and ".join(done)) if done else "completes nothing"
        if gifts:
            why += "; the gems passed complete " + ", ".join(gifts)
        rows.append(("; ".join(parts) or "nothing to place", t, left, v, t.tobytes() == engine, then, why))
    df = pd.DataFrame(rows, columns=["action", "fill", "leftover", "value", "engine", "then", "why"])
    df = df.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)
    exact_columns(df, 4)
    df["objective"] = OBJECTIVES[objective]
    df.attrs.update(objective=OBJECTIVES[objective], policy="exact", position=pos, decision="load",
                    lifeboats=[comp.card_label(c) for c, _, _ in pos.boats[pos.to_move]])
    return df


def _passing(pos, st, left) -> tuple[str, list[str]]:
    """What the other players do with the gems passed on (each loads what it can, in passing order)."""
    from .loading import load_scalar

    comp = pos.comp
    letters = comp.gems.letters
    k = len(letters) - 1
    rest = left.copy()
    rest[k] = 0
    if not rest.any():
        return "nothing passed", []
    slots, points = comp.deck_arrays()
    said, gifts = [], []
    for step in range(1, pos.players):
        q = (pos.to_move + step) % pos.players
        boats = pos.boats[q]
        if not rest.any() or not boats:
            continue
        empty = [(slots[c] - f).tolist() for c, f, _ in boats]
        held, fill = load_scalar(rest.tolist(), empty, [int(points[c]) for c, _, _ in boats])
        placed = np.array(held, dtype=np.int64).reshape(len(boats), -1).sum(axis=0)
        if placed.any():
            done = [comp.card_label(c) for (c, _, _), e, f in zip(boats, empty, fill) if list(f) == e]
            said.append(f"seat {q} places {_gem_text(placed, letters, '')}"
                        + (f" (completes {', '.join(done)})" if done else ""))
            gifts += [f"seat {q}'s {d}" for d in done]
            rest = rest - placed
    if rest.any():
        said.append(f"{_gem_text(rest, letters, '')} back to the centre")
    return "; ".join(said), gifts


def _why(pos, r, nb) -> str:
    comp = pos.comp
    parts = []
    probs = [getattr(r, f"p_complete_{j}") for j in range(nb)]
    order = sorted(range(nb), key=lambda j: -probs[j])
    for j in order:
        p = probs[j]
        label = comp.card_label(pos.boats[pos.to_move][j][0])
        slots = int(comp.deck[pos.boats[pos.to_move][j][0]].size)
        if p >= 0.9:
            parts.append(f"secures the {slots}-slot lifeboat {label} (p {p:.2f})")
        elif p >= 0.3:
            parts.append(f"aims at the {slots}-slot lifeboat {label} (p {p:.2f})")
    if not parts:
        best = max(probs, default=0.0)
        parts.append("no lifeboat likely to complete" + (f" (best p {best:.2f})" if nb else " (no lifeboat)"))
    if r.gift_points >= 0.5:
        parts.append(f"hands the others {r.gift_points:.1f} points")
    elif r.gems_fallen < 0.5:
        parts.append("almost nothing falls")
    return "; ".join(parts)


def tilt_outcomes(position, edge, finger, duration, *, objective: str = "points", params=None,
                  components=None, described: int = 50) -> pd.DataFrame:
    """The exact distribution of the gems that fall in one tilt of the position, each outcome with its value
    under ``objective`` and how the mover loads it, most likely first.

    The pmf is :func:`~pyradice_lab.raft.odds.fallen_joint_pmf` (computed independently of :func:`advise`'s
    compiled sums); the ``p``-weighted mean of ``value`` is the tilt's value in :func:`advise`.

    Parameters
    ----------
    position : Position, path or mapping
        The table (see :func:`load_position`).
    edge, finger, duration
        The tilt: an edge name, a finger space of it (name or index) and the intended hold time in seconds.
    objective : {"points", "completed"}
        As for :func:`advise`.
    params : TiltParams or dict, optional
        Tilt model parameters (default ``data/tilt.toml``).
    components : path or Components, optional
        For a position given as a path or mapping.
    described : int
        The most likely outcomes whose loading is written out in ``load`` (None for the others).

    Returns
    -------
    DataFrame
        One row per outcome with ``p > 0``: a column per colour, ``total``, ``p``, ``value``, ``completed``
        (the mover's points completed), ``passed`` (ordinary gems passed on), ``load`` (how the mover loads
        it, for the ``described`` most likely outcomes).

    Raises
    ------
    ValueError
        If the position, the tilt, ``objective`` or ``described`` is not allowed.

    Examples
    --------
    >>> pos = position_from_game(7, 3)
    >>> out = tilt_outcomes(pos, "north", "right", 1.0)
    >>> round(float(out["p"].sum()), 9)
    1.0
    """
    from .expectimax import _caps, node_tables, outcome_values
    from .odds import fallen_joint_pmf
    from .physics import check_edge
    from .policies import OptionTable

    if isinstance(described, bool) or not isinstance(described, numbers.Integral) or described < 0:
        raise ValueError(f"described must be an integer >= 0, got {described!r}")
    check_choice(objective, "objective", OBJECTIVES)
    pos = load_position(position, components=components)
    comp = pos.comp
    edge = check_edge(edge)
    fi = comp.raft.finger_index(edge, finger)
    st = _setting(pos, objective, params)
    df = fallen_joint_pmf(pos.raft, edge, fi, duration, st["params"], components=comp)
    df = df[df["p"] > 0].sort_values("p", ascending=False, kind="stable").reset_index(drop=True)
    my_empty, my_pts = st["my"]
    opp_empty, opp_pts = st["opp"]
    caps = _caps(pos.raft[None], my_empty[None], opp_empty[None])[0]
    x = df[list(comp.gems.colours)].to_numpy(dtype=np.int64)
    w, nf = node_tables(OptionTable(comp.raft, [float(duration)]), st["params"])
    df["value"] = outcome_values(np.minimum(x, caps), np.zeros(len(x), dtype=np.int64), st["pars"][None],
                                 my_empty[None], my_pts[None], opp_empty[None], opp_pts[None], st["ctx"](w, nf))
    from .loading import load_batch

    nb = len(pos.boats[pos.to_move])
    k = my_empty.shape[1]
    if nb:
        held, fill = load_batch(x, np.broadcast_to(my_empty[:nb], (len(x), nb, k)).copy(),
                                np.broadcast_to(my_pts[:nb], (len(x), nb)).copy())
        done = (fill == my_empty[None, :nb]).all(axis=2)
        df["completed"] = (done * my_pts[None, :nb]).sum(axis=1)
        df["passed"] = (x - held.sum(axis=1))[:, :k].sum(axis=1)
    else:
        df["completed"] = 0
        df["passed"] = x[:, :k].sum(axis=1)
    texts = _load_texts(pos, st, x[:described])
    df["load"] = texts + [None] * (len(x) - len(texts))
    return df
