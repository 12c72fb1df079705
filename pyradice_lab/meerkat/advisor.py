"""The table companion for Meerkat Kingdom: which dice to keep for the reroll, then which action to take.

A **position** is what the player about to decide sees: the dice just rolled (and whether the optional reroll
is used up), every seat's meerkats on the ten desert tiles, queens, supplies, guardians in reserve, pups,
meerkats lost, bonus points taken and burrow action spaces used, the oasis tokens on the tiles, the
wandering male's tile and the bonus tokens taken.  :func:`load_position` reads one from a TOML or JSON file
(validated by the schema machinery of the component files: an error names the key), :func:`position_from_game`
rebuilds the position at turn K of a seeded game (the turn numbers of the transcript), and :func:`advise` ranks
the options of the decision at hand with the evaluation of a strong player:

- **the reroll** (``stage = "reroll"``): the 8 keep choices (keep all = no reroll, or reroll any of the dice),
  each valued by the **exact** expectation over every reroll outcome of the best action then (the
  ``expectimax`` player's :func:`.policies.keep_values`, 6 ** rerolled dice outcomes enumerated), with
  ``p_better`` (the chance the reroll beats the best action of the dice as they stand) and ``then``;
- **the action** (``stage = "action"``: the reroll used or declined): every legal placement (which die counts, so how
  many meerkats or the queen, on which tile) and the guardian, valued by the player's evaluation of the board
  after it (:func:`.policies.placement_table`: the expected end-of-game majority points from
  :mod:`.evaluation` for ``expectimax``), with a ``why`` ("takes the majority on tile 9").

Every value is exact (``se`` and the interval are NaN: the expectimax player enumerates, it does not sample).

Examples
--------
>>> from pyradice_lab.meerkat.advisor import advise, position_from_game
>>> pos = position_from_game(1, 1)             # turn 1 of the seeded 2p + automa game 1 (expectimax players)
>>> df = advise(pos)
>>> bool(df["keep"].iloc[0] == pos.played)
True
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np
import pandas as pd

from ..engine.positions import check_choice, exact_columns, read_position
from ..engine.schema import (
    Array,
    Bool,
    Field,
    Int,
    MapOf,
    Records,
    SchemaError,
    Str,
    Table,
    validate,
)
from .rules import (
    AUTO,
    BONUS,
    BOX,
    BUR,
    EV_LAYOUT,
    G_FIRST,
    G_LOG,
    G_MALE,
    G_NS,
    G_NTOK,
    G_POS,
    G_TOKENS,
    G_TRACE,
    G_TURN,
    K_MAXG,
    K_MAXP,
    K_MEERKATS,
    LOG0,
    OUT,
    PUP,
    QUEEN,
    RES,
    SUP,
    TOK,
    TOKEN_NAMES,
)

__all__ = ["advise", "Position", "load_position", "position_from_game", "positions_from_game", "position_spec",
           "OBJECTIVES", "POLICIES", "BURROW_ACTIONS"]

#: what :func:`advise` maximises
OBJECTIVES = {"margin": "expected end-of-game points margin (own minus w_opp x the others' mean)",
              "points": "expected end-of-game points (own)"}
#: the players whose evaluation :func:`advise` uses (all exact: no sampling)
POLICIES = ("expectimax", "expectimax_v2", "heuristic", "greedy")
#: the five burrow action spaces, in the engine's order
BURROW_ACTIONS = ("move", "queen", "swap", "oasis", "male")
_TOKENS = TOKEN_NAMES[1:10]        # what can lie on a tile (hazards fire at once and turn to their tan side)
_KEEP_ORDER = (7, 6, 5, 4, 3, 2, 1, 0)


# ------------------------------------------------------------------------------------------ the format
def position_spec() -> Table:
    """The schema of a position file (:mod:`pyradice_lab.engine.schema` nodes)."""
    tile = Int(3, 12)
    seat = Table({
        "seat": Field(Int(0, 3), "seat number (turn order follows the seats; the automa is the last seat)"),
        "meerkats": Field(MapOf(tile, Int(0, 40), max_len=10), "regular meerkats per desert tile, e.g. "
                                                               "{ 7 = 2, 9 = 1 }", default={}),
        "queen": Field(Int(-1, 12), "the queen: 0 in the supply, 3..12 on that tile, -1 forfeited", default=0),
        "supply": Field(Int(0, 40), "meerkats in the big burrow (the supply)"),
        "reserve": Field(Int(0, 10), "guardians in the reserve", default=0),
        "pups": Field(Int(0, 10), "pup tokens", default=0),
        "lost": Field(Int(0, 40), "meerkats lost to hazards (in the box)", default=0),
        "bonus": Field(Int(0, 50), "bonus token points taken", default=0),
        "out": Field(Int(0, 4), "0, or k if this seat was the k-th to run out of meerkats", default=0),
        "burrow": Field(Array(Str(BURROW_ACTIONS), 0, 5, unique=True), "burrow action spaces holding one of its "
                                                                       "meerkats", default=[]),
    }, doc="one seat")
    return Table({
        "players": Field(Int(1, 4), "human players"),
        "automa": Field(Bool(), "whether the automa plays (the last seat); default: the rules' setup (with the "
                                "automa for 1-2 players)", default=None),
        "to_move": Field(Int(0, 3), "the seat deciding"),
        "roll": Field(Array(Int(1, 6), 3, 3), "the three dice as they stand"),
        "stage": Field(Str(("reroll", "action")), "the decision: \"reroll\" (the first roll; keep which dice?) or "
                                                  "\"action\" (reroll used or declined: place or guardian?)",
                       default="reroll"),
        "turn": Field(Int(0, 600), "the turn number (as transcripts number them)", default=0),
        "first_player": Field(Int(0, 3), "the start player's seat", default=0),
        "male": Field(tile, "the wandering male's tile", default=7),
        "bonus_taken": Field(Int(0, 3), "bonus tokens already taken", default=0),
        "layout": Field(Array(tile, 10, 10, unique=True), "the tile on each layout position 0..9 (default: tile "
                                                          "t on position t - 3)", default=None),
        "tokens": Field(MapOf(tile, Str(_TOKENS), max_len=10), "oasis tokens lying on tiles, e.g. "
                                                               "{ 3 = \"blue move\" }", default={}),
        "seat": Field(Records(seat, "seat", min_len=2, max_len=4, merge="replace"), "the seats, [[seat]]"),
    }, doc="a Meerkat Kingdom position: the decision of the seat to move")


@dataclass(frozen=True)
class Position:
    """A validated Meerkat Kingdom position (build with :func:`load_position` or :func:`position_from_game`).

    ``doc`` is the normalised document (the file format); ``played`` is what the seat did when the position
    comes from a game: the keep mask (bit i = keep die i, 7 = no reroll) at the reroll, the action code
    (0 guardian, ``tile * 8 + n``, n = 4 the queen) at the action; None otherwise.
    """

    doc: dict
    players: int
    automa: bool
    comp: object = field(repr=False)
    played: int | None = None

    @property
    def seats(self) -> int:
        return self.players + int(self.automa)

    @property
    def to_move(self) -> int:
        return self.doc["to_move"]

    @property
    def roll(self) -> tuple[int, int, int]:
        return tuple(self.doc["roll"])

    @property
    def stage(self) -> str:
        return self.doc["stage"]

    def document(self) -> dict:
        """The position as a plain document (what :func:`load_position` reads)."""
        return json.loads(json.dumps(self.doc))

    def to_toml(self) -> str:
        """The position as a TOML file."""
        d = self.document()
        lines = [f"# Meerkat Kingdom position: seat {d['to_move']} to decide", f"players = {d['players']}",
                 f"automa = {'true' if self.automa else 'false'}", f"to_move = {d['to_move']}",
                 f"roll = {d['roll']}", f'stage = "{d["stage"]}"  # reroll: keep which dice? action: what to do',
                 f"turn = {d['turn']}", f"first_player = {d['first_player']}", f"male = {d['male']}",
                 f"bonus_taken = {d['bonus_taken']}"]
        if d.get("layout") is not None:
            lines.append(f"layout = {d['layout']}  # the tile on each layout position 0..9")
        lines.append("tokens = {" + ", ".join(f'{k} = "{v}"' for k, v in d["tokens"].items()) + "}")
        for s in d["seat"]:
            lines += ["", "[[seat]]", f"seat = {s['seat']}",
                      "meerkats = {" + ", ".join(f"{k} = {v}" for k, v in s["meerkats"].items()) + "}",
                      f"queen = {s['queen']}  # 0 supply, 3..12 tile, -1 forfeited", f"supply = {s['supply']}",
                      f"reserve = {s['reserve']}", f"pups = {s['pups']}", f"lost = {s['lost']}",
                      f"bonus = {s['bonus']}", f"out = {s['out']}", f"burrow = {json.dumps(s['burrow'])}"]
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        """The table as text: meerkats per tile (queens as Q), then every seat's supply and reserve."""
        d = self.doc
        n = self.seats
        names = [f"p{s}" for s in range(self.players)] + (["automa"] if self.automa else [])
        V = _setup(self.comp).V
        head = (f"Meerkat Kingdom, {self.players} players" + (" + automa" if self.automa else "")
                + f", turn {d['turn']}: {names[d['to_move']]} rolled {' '.join(map(str, d['roll']))}"
                + (" (the reroll is behind: choose the action)" if d["stage"] == "action" else " (reroll available)")
                + f"; wandering male on tile {d['male']}; "
                f"bonus tokens taken {d['bonus_taken']}")
        out = [head, "tile values  " + " ".join(f"{n_}:" + "/".join(str(v) for v in V[int(n_), 1:1 + V[int(n_), 0]])
                                               for n_ in range(3, 13))]
        rows = []
        for t in range(3, 13):
            cells = []
            for s in range(n):
                seat = d["seat"][s]
                c = int(seat["meerkats"].get(str(t), 0))
                q = "Q" if seat["queen"] == t else ""
                cells.append(f"{names[s]} " + (f"{c}+Q" if c and q else (q or str(c))) if c or q else "")
            tok = d["tokens"].get(str(t))
            rows.append(f"  tile {t:>2}: " + (", ".join(x for x in cells if x) or "-") + (f"  [{tok}]" if tok else "")
                        + ("  (male)" if t == d["male"] else ""))
        out += rows
        for s in range(n):
            seat = d["seat"][s]
            q = {0: "queen in supply", -1: "queen forfeited"}.get(seat["queen"], f"queen on {seat['queen']}")
            out.append(f"{names[s]}{' (to move)' if s == d['to_move'] else ''}: supply {seat['supply']}, {q}, "
                       f"reserve {seat['reserve']}, pups {seat['pups']}, lost {seat['lost']}, bonus {seat['bonus']}"
                       + (f", burrow {'/'.join(seat['burrow'])}" if seat["burrow"] else ""))
        return "\n".join(out)


@cache
def _twins() -> dict:
    from .sim import python_twins

    return python_twins()


def _setup(comp):
    from .sim import Setup, _default_setup, default_components

    return _default_setup() if comp is None or comp is default_components() else Setup(comp)


def _build(doc: dict, comp, file=None) -> Position:
    def fail(what, path, allowed=None):
        raise SchemaError(what, path, allowed=allowed, file=file)

    st = _setup(comp)
    K = st.K
    players = doc["players"]
    automa = players <= 2 if doc.get("automa") is None else bool(doc["automa"])
    n = players + int(automa)
    if not 2 <= n <= 4:
        fail(f"{players} players {'with' if automa else 'without'} the automa make {n} seats", ("players",),
             "2..4 seats in all (1..3 players with the automa)")
    for key in ("to_move", "first_player"):
        if doc[key] >= players:
            fail(f"{doc[key]} is not a player's seat", (key,), f"0..{players - 1} (the automa does not decide)")
    seats = {int(s["seat"]): s for s in doc["seat"]}
    if sorted(seats) != list(range(n)):
        fail(f"lists seats {sorted(seats)}", ("seat",), f"one [[seat]] for each of seats 0..{n - 1}"
                                                        + (f" (seat {n - 1}: the automa)" if automa else ""))
    for s in range(n):
        e = seats[s]
        path = ("seat", str(s))
        q = e["queen"]
        if q in (1, 2):
            fail(f"{q} is not allowed", path + ("queen",), "0 (supply), 3..12 (a tile), -1 (forfeited)")
        if e["reserve"] > K[K_MAXG]:
            fail(f"{e['reserve']} is out of range", path + ("reserve",), f"0..{K[K_MAXG]}")
        if e["pups"] > K[K_MAXP]:
            fail(f"{e['pups']} is out of range", path + ("pups",), f"0..{K[K_MAXP]}")
        total = sum(e["meerkats"].values()) + e["supply"] + e["reserve"] + e["lost"] + len(e["burrow"])
        if total != K[K_MEERKATS]:
            fail(f"accounts for {total} meerkats (tiles + supply + reserve + lost + burrow)", path,
                 f"exactly the {K[K_MEERKATS]} each seat has")
        if automa and s == n - 1 and (e["reserve"] or e["pups"] or e["burrow"]):
            fail("the automa takes no guardians, pups or burrow actions", path, "reserve = pups = 0, burrow = []")
    if seats[doc["to_move"]]["supply"] == 0:
        fail("this seat has no meerkat left to place (it passes)", ("to_move",), "a seat with supply > 0")
    if doc["bonus_taken"] > n - 1:
        fail(f"{doc['bonus_taken']} is out of range", ("bonus_taken",), f"0..{n - 1} ({n - 1} bonus tokens)")
    norm = dict(doc)
    norm["automa"] = automa
    norm["seat"] = [seats[s] for s in range(n)]
    norm["tokens"] = {str(k): v for k, v in sorted(doc["tokens"].items(), key=lambda kv: int(kv[0]))}
    for s in norm["seat"]:
        s["meerkats"] = {str(k): v for k, v in sorted(s["meerkats"].items(), key=lambda kv: int(kv[0])) if v}
    return Position(norm, players, automa, comp)


def load_position(source, *, components=None) -> Position:
    """Read and validate a position: a ``.toml`` or ``.json`` path, a mapping, or a :class:`Position`.

    Parameters
    ----------
    source : path, Mapping or Position
        The position (format: :func:`position_spec`; documented in docs/guide/meerkat.md).
    components : path or Components, optional
        The components (tile values, meerkats per seat; default: the packaged ones).

    Returns
    -------
    Position

    Raises
    ------
    SchemaError
        A ``ValueError`` naming the file and the key, e.g. ``pos.toml: seat.1: accounts for 19 meerkats ...``.

    Examples
    --------
    >>> pos = load_position({"players": 2, "to_move": 0, "roll": [5, 4, 2],
    ...                      "seat": [{"seat": 0, "supply": 20}, {"seat": 1, "supply": 20},
    ...                               {"seat": 2, "supply": 20, "queen": 12}]})
    >>> pos.seats, pos.automa
    (3, True)
    >>> load_position({"players": 2, "to_move": 0, "roll": [5, 4, 9], "seat": []})
    Traceback (most recent call last):
    ...
    pyradice_lab.engine.schema.SchemaError: roll[2]: 9 is out of range (allowed: an integer in 1..6)
    """
    from .components import coerce_components

    return read_position(source, Position, position_spec(), _build,
                         None if isinstance(source, Position) else coerce_components(components))


def _game(pos: Position, policy: str, objective: str):
    """The engine state of the position (pure-Python twin arrays), the mover playing ``policy``."""
    from .policies import P_WOPP
    from .sim import TAPE, _readings_k, _seat_config

    tw = _twins()
    st = _setup(pos.comp)
    d = pos.doc
    n, pols, prm, _ = _seat_config(pos.players, pos.automa, [policy] * pos.players)
    if objective == "points":
        prm[:, P_WOPP] = 0.0
    K = _readings_k(st.K, "literal", "literal")
    tapes = np.zeros((2, TAPE), dtype=np.uint32)
    g = tw["new_game"](n, pos.automa, pols, prm, st.V, K, tapes, st.bags, st.nblue, st.nbrown,
                       st.comp.male_start_tile, 0)
    W = g[0]
    layout = d.get("layout") or list(range(3, 13))
    where = {t: i for i, t in enumerate(layout)}
    A, D = W[38:51], W[51:64]
    for t in range(3, 13):
        for u in range(3, 13):
            A[t, u] = st.pos_adj[where[t], where[u]]
            D[t, u] = 0 if t == u else (1 if A[t, u] else 99)
    for k in range(3, 13):
        for i in range(3, 13):
            for j in range(3, 13):
                D[i, j] = min(D[i, j], D[i, k] + D[k, j])
    tw["store_model"](g)
    S, T, G = W[4:8], W[8:21], W[21]
    for s, e in enumerate(d["seat"]):
        for t, c in e["meerkats"].items():
            W[s, int(t)] = c
        S[s, SUP], S[s, QUEEN], S[s, RES], S[s, PUP] = e["supply"], e["queen"], e["reserve"], e["pups"]
        S[s, BOX], S[s, BONUS], S[s, OUT] = e["lost"], e["bonus"], e["out"]
        for b in e["burrow"]:
            S[s, BUR + BURROW_ACTIONS.index(b)] = 1
    for t, name in d["tokens"].items():
        T[int(t), TOK] = TOKEN_NAMES.index(name)
    for t in st.oasis:
        T[t, 3] = 1          # PIC: the oasis pictures
    G[G_MALE], G[G_TURN], G[G_FIRST], G[G_TOKENS] = d["male"], d["turn"], d["first_player"], d["bonus_taken"]
    G[G_POS] = (d["to_move"] - d["first_player"]) % n + 1
    assert G[G_NS] == n and G[G_NTOK] == n - 1 and S[n - 1, AUTO] == int(pos.automa)
    return g


# ------------------------------------------------------------------------------------------ from games
class _Stop(Exception):
    pass


def _snapshot_doc(g, s, dice, stage, layout, comp, players, automa) -> dict:
    W = g[0]
    S, T, G = W[4:8], W[8:21], W[21]
    n = int(G[G_NS])
    seats = []
    for o in range(n):
        seats.append({"seat": o, "meerkats": {str(t): int(W[o, t]) for t in range(3, 13) if W[o, t]},
                      "queen": int(S[o, QUEEN]), "supply": int(S[o, SUP]), "reserve": int(S[o, RES]),
                      "pups": int(S[o, PUP]), "lost": int(S[o, BOX]), "bonus": int(S[o, BONUS]),
                      "out": int(S[o, OUT]), "burrow": [b for k, b in enumerate(BURROW_ACTIONS) if S[o, BUR + k]]})
    return {"players": players, "automa": automa, "to_move": int(s), "roll": [int(x) for x in dice],
            "stage": stage, "turn": int(G[G_TURN]), "first_player": int(G[G_FIRST]),
            "male": int(G[G_MALE]), "bonus_taken": int(G[G_TOKENS]), "layout": layout,
            "tokens": {str(t): TOKEN_NAMES[T[t, TOK]] for t in range(3, 13) if T[t, TOK]}, "seat": seats}


def positions_from_game(seed, *, players: int = 2, automa: bool | None = None, policies="expectimax",
                        after_reroll: bool = False, components=None, turns=None) -> Iterator[tuple[int, Position]]:
    """Every ``(turn, position)`` of the seeded game at which a player decides, in order (one replay).

    Parameters
    ----------
    seed : int or Generator
        The game's seed (the game of :func:`~pyradice_lab.meerkat.sim.play_game` with that seed).
    players, automa, policies, components
        As for :func:`~pyradice_lab.meerkat.sim.play_game`; the default policy is ``"expectimax"`` for every
        player.
    after_reroll : bool
        ``False``: the reroll decision (the first roll); ``True``: the action decision (the dice after the
        reroll, or the first roll if the seat kept it).
    turns : collection of int, optional
        Only these turns (the replay stops after the last).

    Returns
    -------
    iterator of (int, Position)
        The turn number and the position; ``played`` holds the seat's choice there.

    Raises
    ------
    ValueError
        If ``after_reroll`` is not a bool, or a game argument is not allowed.

    Examples
    --------
    >>> [t for t, _ in positions_from_game(1)][:4]
    [0, 1, 3, 4]
    """
    from ..engine.rng import as_generator
    from .components import coerce_components
    from .policies import SEARCH
    from .rules import POL
    from .sim import _readings_k, _seat_config, _tapes, python_twins

    if not isinstance(after_reroll, (bool, np.bool_)):
        raise ValueError(f"after_reroll must be True or False, got {after_reroll!r}")
    comp = coerce_components(components)
    st = _setup(comp)
    n, pols, prm, _ = _seat_config(players, automa, policies)
    automa = n > players
    K = _readings_k(st.K, "literal", "literal")
    tapes = _tapes(as_generator(seed), 1)
    tw = python_twins.__wrapped__()           # a private set (the shared one is cached): its turn is patched below
    want = None if turns is None else set(int(t) for t in turns)
    last = None if want is None else max(want, default=-1)
    found: list = []
    space = tw["base_turn"].__globals__
    keep0, act0 = space["choose_keep"], space["choose_action"]
    state: dict = {}
    layout_box: list = []

    def layout_of(g):
        if not layout_box:
            W = g[0]
            ev = W[LOG0:].reshape(-1, 8)[:W[21, G_LOG]]
            pos = {int(r[3]): int(r[4]) for r in ev if r[2] == EV_LAYOUT}
            layout_box.append([t for t, _ in sorted(pos.items(), key=lambda kv: kv[1])] if len(pos) == 10 else None)
        return layout_box[0]

    def choose_keep(g, s, d0, d1, d2, tab, gval):
        turn = int(g[0][21, G_TURN])
        doc = None
        if want is None or turn in want:
            doc = _snapshot_doc(g, s, (d0, d1, d2), "reroll", layout_of(g), comp, players, automa)
        keep = keep0(g, s, d0, d1, d2, tab, gval)
        state["turn"], state["keep"], state["doc"] = turn, keep, doc
        if doc is not None and not after_reroll:
            found.append((turn, doc, int(keep)))
        return keep

    def choose_action(g, s, d0, d1, d2, tab, gval):
        code = act0(g, s, d0, d1, d2, tab, gval)
        turn = int(g[0][21, G_TURN])
        if after_reroll and (want is None or turn in want):
            doc = _snapshot_doc(g, s, (d0, d1, d2), "action", layout_of(g), comp, players, automa)
            found.append((turn, doc, int(code)))
        if last is not None and turn >= last:
            raise _Stop
        return code

    space["choose_keep"], space["choose_action"] = choose_keep, choose_action
    g = tw["new_game"](n, automa, pols, prm, st.V, K, tapes[0], st.bags, st.nblue, st.nbrown,
                       st.comp.male_start_tile, 40)
    tw["setup"](g, st.pos_adj, st.oasis, st.comp.shuffle_tiles)
    # the log is only needed for the layout: keep it from filling up
    layout_of(g)
    g[0][21, G_TRACE] = 0  # off from here
    unlock, automa_turn, base_turn, next_seat, search_turn = (
        tw[k] for k in ("unlock_timers", "automa_turn", "base_turn", "next_seat", "search_turn"))
    S, G = g[0][4:8], g[0][21]
    try:
        while True:
            s = next_seat(g)
            if s < 0:
                break
            unlock(g, s)
            if S[s, AUTO] == 1:
                automa_turn(g, s)
            elif S[s, POL] == SEARCH:         # a search player decides by its own search (not captured)
                search_turn(g, s)
            else:
                base_turn(g, s)
            G[G_TURN] += 1
            for turn, doc, choice in found:
                yield turn, replace(_build(validate(position_spec(), doc), comp), played=choice)
            found.clear()
    except _Stop:
        for turn, doc, choice in found:
            yield turn, replace(_build(validate(position_spec(), doc), comp), played=choice)


def position_from_game(seed, turn: int, *, players: int = 2, automa: bool | None = None, policies="expectimax",
                       after_reroll: bool = False, components=None) -> Position:
    """The position at turn ``turn`` (numbered as in the transcript of
    :func:`~pyradice_lab.meerkat.sim.play_game`) of the seeded game: "what should I have done at turn K?".

    Parameters
    ----------
    seed : int or Generator
        The game's seed.
    turn : int
        A turn at which a player (not the automa) rolls.
    players, automa, policies, components
        As for :func:`~pyradice_lab.meerkat.sim.play_game` (default policy: ``"expectimax"`` for everyone).
    after_reroll : bool
        ``True``: the action decision, with the dice after the reroll (see :func:`positions_from_game`).

    Returns
    -------
    Position
        ``played`` holds the seat's choice (a keep mask, or with ``after_reroll`` an action code).

    Raises
    ------
    ValueError
        If ``turn`` is not a turn at which a player rolls in that game (the message lists some that are).

    Examples
    --------
    >>> pos = position_from_game(1, 0)
    >>> pos.roll, pos.played        # kept the 6, rerolled the 3 and the 4
    ((3, 4, 6), 4)
    """
    if isinstance(turn, bool) or not isinstance(turn, numbers.Integral) or turn < 0:
        raise ValueError(f"turn must be an integer >= 0 (as transcripts number the turns), got {turn!r}")
    for t, pos in positions_from_game(seed, players=players, automa=automa, policies=policies,
                                      after_reroll=after_reroll, components=components, turns=(int(turn),)):
        if t == turn:
            return pos
    some = [t for t, _ in positions_from_game(seed, players=players, automa=automa, policies=policies,
                                              components=components)]
    raise ValueError(f"turn must be a turn at which a player rolls in game {seed!r} (e.g. {some[:8]}, "
                     f"last {some[-1] if some else None}), got {turn}")


# ------------------------------------------------------------------------------------------ advise
def _action_text(code: int) -> str:
    if code == 0:
        return "guardian"
    t, k = code // 8, code % 8
    return f"queen on {t}" if k == 4 else f"{k} on {t}"


def _strength(pos, t, extra=0, queen=False):
    d = pos.doc
    out = []
    for s, e in enumerate(d["seat"]):
        v = 2 * int(e["meerkats"].get(str(t), 0)) + (5 if e["queen"] == t else 0)
        if s == pos.to_move:
            v += 2 * extra + (5 if queen else 0)
        out.append(v)
    return out


def _standing(st, s) -> str:
    """Where seat ``s`` stands on a tile: 'first', 'second', ..., 'cancelled', 'absent'."""
    if st[s] == 0:
        return "absent"
    if sum(1 for x in st if x == st[s]) > 1:
        return "cancelled"
    alive = [x for x in st if x > 0 and sum(1 for y in st if y == x) == 1]
    rank = sum(1 for x in alive if x > st[s])
    return ("first", "second", "third", "fourth")[rank]


def _why_action(pos, code, value, best_gain) -> str:
    d = pos.doc
    s = pos.to_move
    e = d["seat"][s]
    if code == 0:
        return f"a guardian in reserve (pups {e['pups']} x guardians {e['reserve'] + 1} at the end)"
    t, k = code // 8, code % 8
    queen = k == 4
    n = 0 if queen else min(k, e["supply"])
    before, after = _strength(pos, t), _strength(pos, t, n, queen)
    b, a = _standing(before, s), _standing(after, s)
    what = "the queen (2.5, protects the tile)" if queen else f"{n} meerkat{'s' if n != 1 else ''}"
    if a == "first" and b != "first":
        why = f"takes the majority on tile {t}"
    elif a == "first":
        why = f"strengthens the majority on tile {t}"
    elif a == "cancelled":
        others = [o for o in range(len(after)) if o != s and after[o] == after[s]]
        why = f"ties seat {others[0]} on tile {t} (both cancel)" if others else f"ties on tile {t}"
    elif b == "cancelled" or b == "absent":
        why = f"takes {a} place on tile {t}"
    else:
        why = f"{a} place on tile {t}" + (" (up from " + b + ")" if a != b else "")
    extra = []
    if t == d["male"]:
        extra.append("activates the wandering male")
    tok = d["tokens"].get(str(t))
    if tok:
        extra.append(f"may use the {tok} token")
    if not queen and e["supply"] - n <= 0 and e["out"] == 0 and d["bonus_taken"] < pos.seats - 1:
        extra.append("takes a bonus token (runs out)")
    return f"{what}: {why}" + ("; " + ", ".join(extra) if extra else "")


def advise(position, *, objective: str = "margin", policy: str = "expectimax_v2", rng=None,
           components=None) -> pd.DataFrame:
    """Rank the options of the decision at hand: which dice to keep for the reroll, or which action to take.

    Parameters
    ----------
    position : Position, path or mapping
        The table (see :func:`load_position`, :func:`position_from_game`).
    objective : {"margin", "points"}
        ``"margin"``: the player's evaluation (its expected end-of-game points on the tiles minus ``w_opp`` x the
        others' mean, plus the bonus it takes and what it credits a guardian or the queen); ``"points"``: the
        same with ``w_opp = 0`` (own points only).
    policy : {"expectimax", "expectimax_v2", "heuristic", "greedy"}
        Whose evaluation: ``expectimax_v2`` (the default: expected end-of-game majorities with issue 27's tuned
        burrow cost, what the report player ``mcts_v2`` plays on every decision it does not search; the report
        player itself gives no value per option), ``expectimax`` (the untuned one, the default before issue 43)
        or the players that score the tiles as they stand.
    rng : None
        Unused (every value is exact); accepted for the common signature of the advisors.
    components : path or Components, optional
        For a position given as a path or mapping.

    Returns
    -------
    DataFrame
        Best first.  The reroll decision: ``keep`` (mask, bit i = keep die i; 7 = no reroll), ``option``
        ("keep 6 5, reroll 1 die"), ``value`` (exact expected value of the best action after it, over every
        reroll outcome), ``se``/``ci_low``/``ci_high`` (NaN: exact), ``regret``, ``p_better`` (chance the reroll
        beats the best action of the dice as they stand), ``then``, ``why``.  The action decision: ``action``
        (code), ``option`` ("2 on 9", "queen on 6", "guardian"), ``tile``, ``meerkats`` (-1 the queen),
        ``value``, ``se``, ``ci_low``, ``ci_high``, ``regret``, ``then``, ``why``.  ``objective``; attrs
        ``decision`` ("reroll" or "action"), ``chosen`` (what the player itself picks).

    Raises
    ------
    ValueError
        If the position is invalid (naming the key), or ``objective`` or ``policy`` is not allowed.

    Examples
    --------
    >>> df = advise(position_from_game(1, 0, after_reroll=True))
    >>> df["option"].iloc[0], df.attrs["decision"]
    ('queen on 9', 'action')
    """
    check_choice(objective, "objective", OBJECTIVES)
    check_choice(policy, "policy", POLICIES)
    pos = load_position(position, components=components)
    tw = _twins()
    g = _game(pos, policy, objective)
    s = pos.to_move
    d0, d1, d2 = pos.roll
    tab = np.zeros((13, 4))
    gval = tw["placement_table"](g, s, tab)
    actions = _actions(tw, g, s, (d0, d1, d2), tab, gval)
    if pos.stage == "action":
        chosen = int(tw["choose_action"](g, s, d0, d1, d2, tab, gval))
        best_gain = max(v for _, v in actions)
        rows = []
        for code, v in actions:
            t, k = (code // 8, code % 8) if code else (None, None)
            then = []
            if code and t == pos.doc["male"]:
                then.append("activate the wandering male")
            if code and pos.doc["tokens"].get(str(t)):
                then.append(f"the {pos.doc['tokens'][str(t)]} token on tile {t}")
            then.append("then one burrow action (optional)")
            rows.append((code, _action_text(code), t, (-1 if k == 4 else k) if code else 0, v,
                         "; ".join(then), _why_action(pos, code, v, best_gain)))
        df = pd.DataFrame(rows, columns=["action", "option", "tile", "meerkats", "value", "then", "why"])
        first = df["action"] == chosen
        df = pd.concat([df[first], df[~first]]).sort_values("value", ascending=False, kind="stable")
        df = exact_columns(df.reset_index(drop=True), 5)
        df.attrs.update(decision="action", chosen=chosen)
    else:
        vals = np.empty(8)
        tw["keep_values"](g, d0, d1, d2, tab, gval, vals)
        chosen = int(tw["choose_keep"](g, s, d0, d1, d2, tab, gval))
        rv = _roll_values(tw, g, tab, gval)
        now = rv[d0, d1, d2]
        best_now = max(actions, key=lambda cv: cv[1])
        rows, seen = [], set()
        dice = (d0, d1, d2)
        S0 = g[0][4:8]
        for mask in _KEEP_ORDER:
            kept = [dice[i] for i in range(3) if mask >> i & 1]
            nre = 3 - len(kept)
            if mask == 7:
                label, p_better = "no reroll", 0.0
                then = f"then {_action_text(best_now[0])} (value {best_now[1]:.3f})"
                why = "the dice as they stand"
            else:
                label = (f"keep {' '.join(map(str, kept))}, " if kept else "") + f"reroll {nre} di{'ce' if nre > 1 else 'e'}"
                outs = _outcomes(dice, mask)
                p_better = float(np.mean([rv[a, b, c] > now + 1e-12 for a, b, c in outs]))
                then = "then the best action of the new roll"
                why = f"beats the dice as they stand with p {p_better:.2f}"
                K = g[0][64]
                big = sorted({x for x in kept if K[6 + x] == 1 and S0[s, QUEEN] == 0})
                if big:
                    why = f"keeps the {'/'.join(map(str, big))} for the queen (or 3 meerkats); " + why
            key = tuple(sorted(kept))
            if key in seen:              # keeping the same dice (a pair rolled) is the same option
                continue
            seen.add(key)
            rows.append((mask, label, vals[mask] if mask != 7 else vals[7], p_better, then, why))
        df = pd.DataFrame(rows, columns=["keep", "option", "value", "p_better", "then", "why"])
        first = df["keep"] == chosen
        df = pd.concat([df[first], df[~first]]).sort_values("value", ascending=False, kind="stable")
        df = exact_columns(df.reset_index(drop=True), 3)
        df.attrs.update(decision="reroll", chosen=chosen)
    df["objective"] = OBJECTIVES[objective]
    df.attrs.update(objective=OBJECTIVES[objective], policy=policy, position=pos)
    return df


def _actions(tw, g, s, dice, tab, gval) -> list[tuple[int, float]]:
    """Every legal action of the dice with the player's value (the order of :func:`.rules.placement_options`)."""
    opts = np.empty(128, np.int64)
    m = tw["placement_options"](g, s, dice[0], dice[1], dice[2], opts)
    out = []
    for j in range(m):
        code = int(opts[j])
        if code == 0:
            out.append((0, float(gval)))
        else:
            t, n = code // 8, code % 8
            out.append((code, float(tab[t, 3] if n == 4 else tab[t, n - 1])))
    return out


def _roll_values(tw, g, tab, gval) -> np.ndarray:
    """``rv[a, b, c]``: the best action value of every roll (the player's own :func:`.policies.roll_value`)."""
    K = g[0][64]
    best_die = np.full((7, 13), -1e18)
    tw["die_table"](tab, K, best_die)
    rv = np.zeros((7, 7, 7))
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                rv[a, b, c] = tw["roll_value"](a, b, c, best_die, gval)
    return rv


def _outcomes(dice, mask):
    import itertools

    ranges = [(dice[i],) if mask >> i & 1 else range(1, 7) for i in range(3)]
    return list(itertools.product(*ranges))
