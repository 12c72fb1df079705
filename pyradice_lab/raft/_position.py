"""Rocking Raft's position format (:class:`Position`, :func:`load_position`) and positions replayed from
seeded games (:func:`position_from_game`) (re-exported by :mod:`pyradice_lab.raft.advisor`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..engine.positions import SeatNumbers, check_turn, position_components, read_position, seats_by_index
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
from .rules import FLAG, VARIANTS, Game

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
        "seat": Field(Int(1, 4), "the seat, numbered from 1 as in every text (1..players; turns pass from "
                                 "seat k to seat k + 1)"),
        "score": Field(Int(0, 10_000), "points completed so far", default=0),
        "completed": Field(Int(0, 100), "lifeboats completed so far (the tie-break)", default=0),
        "boats": Field(Array(boat, 0, 10), "the lifeboats in front of this player", default=[]),
    }, doc="one player")
    return Table({
        "players": Field(Int(2, 4), "number of players"),
        "variant": Field(Str(VARIANTS), "rules variant", default="standard"),
        "to_move": Field(Int(1, 4), "the seat about to tilt, numbered from 1"),
        "first_player": Field(Int(1, 4), "the start player's seat, numbered from 1 (the game ends after the seat "
                                         "before it)",
                              default=1),
        "flag": Field(Int(-1, 1000), "cards still above the pirate flag in the deck (-1: the flag is drawn)"),
        "raft": Field(Array(Array(gems, 3, 3), 3, 3), "gems on the 3x3 raft, rows north to south, spaces west to "
                                                      "east"),
        "skill": Field(Float(0.0, 2.0), "the mover's timing noise (log-sd; default: the tilt model's)",
                       default=None),
        "fallen": Field(gems, "gems that just fell in the mover's tilt: the decision is then how to load them "
                              "(leave it out to choose the tilt)", default=None),
        "deck": Field(Array(Int(1, 10_000), 0, 10_000, unique=True),
                      "the lifeboat cards still in the deck, by number, in any order (the order is hidden): the "
                      "cards a replacement can be; leave it out for the deck's average card (what the exact "
                      "player of the simulations assumes)", default=None),
        "seat": Field(Records(seat, "seat", min_len=2, max_len=4, merge="replace"), "the players, [[seat]]"),
    }, doc="a Rocking Raft position: what the player about to tilt sees")


@dataclass(frozen=True)
class Position(SeatNumbers):
    """A validated Rocking Raft position (build with :func:`load_position` or :func:`position_from_game`).

    ``raft`` (9, colours) gems per space (row by row from the north-west corner); ``boats[seat]`` a tuple of
    ``(deck index, filled (slot colours,), water)``; ``scores`` / ``completed`` per seat; ``flag`` cards above
    the pirate flag (-1: drawn); ``fallen`` (colours,) the gems in the mover's hand after the tilt (None:
    the tilt is still to choose); ``played`` what the seat actually did when the position comes from a game
    (the (edge, finger, duration) of the tilt, or with ``fallen`` the engine's loading as a
    ``(fill (boats, slot colours), leftover (colours,))`` pair), else None; ``deck`` the sorted card indices
    still in the deck (None: not given, the replacement cards are valued at the whole deck's average card).
    """

    players: int
    variant: str
    seat: int
    first_seat: int
    flag: int
    raft: np.ndarray
    boats: tuple
    scores: tuple
    completed: tuple
    skill: float | None
    comp: Components = field(repr=False)
    played: tuple | None = None
    fallen: np.ndarray | None = None
    deck: tuple | None = None

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
        if self.deck is not None:
            doc["deck"] = [self.comp.deck[c].id for c in self.deck]
        doc["seat"] = [{"seat": s + 1, "score": self.scores[s], "completed": self.completed[s],
                        "boats": [{"card": self.comp.deck[c].id, "filled": _gem_text(f, letters),
                                   **({"water": w} if w else {})} for c, f, w in self.boats[s]]}
                       for s in range(self.players)]
        return doc

    def to_toml(self) -> str:
        """The position as a TOML file (the format of :func:`load_position`)."""
        d = self.document()
        lines = [f"# Rocking Raft position: seat {self.to_move} to tilt", f"players = {d['players']}",
                 f'variant = "{d["variant"]}"',
                 f"to_move = {d['to_move']}  # seats are numbered from 1",
                 f"first_player = {d['first_player']}",
                 f"flag = {d['flag']}  # cards above the pirate flag (-1: drawn)"]
        if "skill" in d:
            lines.append(f"skill = {d['skill']!r}")
        if "fallen" in d:
            lines.append(f'fallen = "{d["fallen"]}"  # gems that fell this turn: how to load them?')
        if "deck" in d:
            lines.append(f"deck = {json.dumps(d['deck'])}  # the lifeboat cards still in the deck, any order")
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
        deck = "" if self.deck is None else f"; {len(self.deck)} card{'s' * (len(self.deck) != 1)} in the deck"
        out = [f"Rocking Raft, {self.players} players ({self.variant}), seat {self.to_move} {act} "
               f"(start player seat {self.first_player}); {flag}{deck}", "Raft (north at the top):"]  # seats from 1
        out += ["  " + " ".join(f"{x:>9}" for x in cells[r * 3:r * 3 + 3]) for r in range(3)]
        slots, _ = self.comp.deck_arrays()
        for s in range(self.players):
            boats = []
            for c, f, w in self.boats[s]:
                need = " ".join(f"{col}{int(a)}/{int(b)}" for col, a, b in zip(letters, f, slots[c]) if b)
                boats.append(f"{self.comp.card_label(c)} [{need}]" + (f" water {w}" if self.variant == "sinking"
                                                                        else ""))
            who = f" ({act})" if s == self.seat else ""
            out.append(f"seat {s + 1}{who}: {self.scores[s]} pts, {self.completed[s]} boats; "
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
    seats = seats_by_index(doc, players, fail)
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
            fail(f"has {len(entry['boats'])} lifeboats", ("seat", str(s + 1), "boats"), f"at most {rules.boats}")
        row = []
        for j, b in enumerate(entry["boats"]):
            path = ("seat", str(s + 1), "boats", j)
            if b["card"] not in ids:
                fail(f"no lifeboat card #{b['card']}", path + ("card",), f"the deck's cards #1..#{len(comp.deck)}")
            if b["card"] in seen:
                fail(f"card #{b['card']} is also in front of seat {seen[b['card']] + 1}", path + ("card",),
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
    deck = None
    if doc.get("deck") is not None:
        deck = []
        for i, card in enumerate(doc["deck"]):
            if card not in ids:
                fail(f"no lifeboat card #{card}", ("deck", i), f"the deck's cards #1..#{len(comp.deck)}")
            if card in seen:
                fail(f"card #{card} is in front of seat {seen[card] + 1}, not in the deck", ("deck", i),
                     "the cards not in front of a player (each card once)")
            deck.append(ids[card])
        deck = tuple(sorted(deck))
        cards_left = len(deck)
    if doc["flag"] > cards_left:
        fail(f"{doc['flag']} cards cannot be above the flag", ("flag",),
             f"-1..{cards_left} (the cards " + ("in the deck)" if deck is not None else "not on the table)"))
    return Position(players, doc["variant"], doc["to_move"] - 1, doc["first_player"] - 1, doc["flag"], raft, tuple(boats),
                    tuple(int(seats[s]["score"]) for s in range(players)),
                    tuple(int(seats[s]["completed"]) for s in range(players)), doc.get("skill"), comp,
                    fallen=fallen, deck=deck)


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
    >>> pos = load_position({"players": 2, "to_move": 1, "flag": 10,
    ...                      "raft": [["R1", "Y1", "B1"], ["R1", "R3 Y3 B4 K3", "Y1"], ["B1", "R1", "Y1"]],
    ...                      "seat": [{"seat": 1, "boats": [{"card": 1}, {"card": 5}]},
    ...                               {"seat": 2, "boats": [{"card": 3, "filled": "Y1"}, {"card": 9}]}]})
    >>> int(pos.raft.sum()), pos.players, pos.to_move, pos.seat
    (21, 2, 1, 0)
    >>> load_position({"players": 2, "to_move": 1, "flag": 10, "raft": [], "seat": []})
    Traceback (most recent call last):
    ...
    pyradice_lab.engine.schema.SchemaError: raft: has 0 items (allowed: an array of 3 items, each an array of 3 items, each gems as colour letter + count, e.g. "R2 Y1 K1" (or "R2Y1K1"); "-" for none)
    """
    return read_position(source, Position, position_spec(), _build,
                         position_components(source, Position, components, coerce_components))


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
    >>> pos.to_move, pos.seat, pos.played        # seat 2 in the texts (0-based index 1)
    (2, 1, ('west', 'right', 2.5))
    """
    from .rules import MAX_TURNS

    cap = game_kw.get("max_turns", MAX_TURNS)
    turn = check_turn(turn, cap if isinstance(cap, int) and not isinstance(cap, bool) else None,
                      "a game stops after max_turns turns")
    game = _Recorder(players, variant, policies, rng=seed, trace=False, turns=(int(turn),),
                     after_tilt=_flag(after_tilt), **game_kw)
    try:
        while not game.over:
            game.play_turn()
    except _Stop:
        return game.captured[int(turn)]
    raise ValueError(f"turn must be at most {game.turn}: game {seed!r} ends after {game.turn} turns, got {turn}")
