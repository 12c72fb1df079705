"""Meerkat Kingdom's position format (:class:`Position`, :func:`load_position`) and positions replayed from
seeded games (:func:`position_from_game`) (re-exported by :mod:`pyradice_lab.meerkat.advisor`).
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from ..engine.positions import position_components, read_position, seats_by_index
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

#: the five burrow action spaces, in the engine's order
BURROW_ACTIONS = ("move", "queen", "swap", "oasis", "male")


_TOKENS = TOKEN_NAMES[1:10]        # what can lie on a tile (hazards fire at once and turn to their tan side)


# ------------------------------------------------------------------------------------------ the format
def position_spec() -> Table:
    """The schema of a position file (:mod:`pyradice_lab.engine.schema` nodes)."""
    tile = Int(3, 12)
    seat = Table({
        "seat": Field(Int(1, 4), "the seat, numbered from 1 as in every text (p1 is seat 1; turn order follows "
                                 "the seats; the automa is the last seat)"),
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
        "to_move": Field(Int(1, 4), "the seat deciding, numbered from 1 (p1 is 1)"),
        "roll": Field(Array(Int(1, 6), 3, 3), "the three dice as they stand"),
        "stage": Field(Str(("reroll", "action")), "the decision: \"reroll\" (the first roll; keep which dice?) or "
                                                  "\"action\" (reroll used or declined: place or guardian?)",
                       default="reroll"),
        "turn": Field(Int(1, 601), "the turn number, from 1 (as transcripts number them)", default=1),
        "first_player": Field(Int(1, 4), "the start player's seat, numbered from 1", default=1),
        "male": Field(tile, "the wandering male's tile", default=7),
        "bonus_taken": Field(Int(0, 3), "bonus tokens already taken", default=0),
        "layout": Field(Array(tile, 10, 10, unique=True), "the tiles in layout order, positions 1..10 (default: "
                                                          "tile t on position t - 2)", default=None),
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
        """The seat deciding, numbered from 1 (as in the file and every text; ``seat`` is its 0-based index)."""
        return self.doc["to_move"]

    @property
    def seat(self) -> int:
        """The 0-based index of the seat deciding."""
        return self.doc["to_move"] - 1

    @property
    def first_player(self) -> int:
        """The start player's seat, numbered from 1 (``first_seat`` is its 0-based index)."""
        return self.doc["first_player"]

    @property
    def first_seat(self) -> int:
        return self.doc["first_player"] - 1

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
        lines = [f"# Meerkat Kingdom position: p{d['to_move']} to decide", f"players = {d['players']}",
                 f"automa = {'true' if self.automa else 'false'}",
                 f"to_move = {d['to_move']}  # seats are numbered from 1: p{d['to_move']}",
                 f"roll = {d['roll']}", f'stage = "{d["stage"]}"  # reroll: keep which dice? action: what to do',
                 f"turn = {d['turn']}", f"first_player = {d['first_player']}", f"male = {d['male']}",
                 f"bonus_taken = {d['bonus_taken']}"]
        if d.get("layout") is not None:
            lines.append(f"layout = {d['layout']}  # the tiles on layout positions 1..10")
        lines.append("tokens = {" + ", ".join(f'{k} = "{v}"' for k, v in d["tokens"].items()) + "}")
        for s in d["seat"]:
            who = f"p{s['seat']}" if s["seat"] <= d["players"] else "the automa"
            lines += ["", "[[seat]]", f"seat = {s['seat']}  # {who}",
                      "meerkats = {" + ", ".join(f"{k} = {v}" for k, v in s["meerkats"].items()) + "}",
                      f"queen = {s['queen']}  # 0 supply, 3..12 tile, -1 forfeited", f"supply = {s['supply']}",
                      f"reserve = {s['reserve']}", f"pups = {s['pups']}", f"lost = {s['lost']}",
                      f"bonus = {s['bonus']}", f"out = {s['out']}", f"burrow = {json.dumps(s['burrow'])}"]
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        """The table as text: meerkats per tile (queens as Q), then every seat's supply and reserve."""
        d = self.doc
        n = self.seats
        names = [f"p{s + 1}" for s in range(self.players)] + (["automa"] if self.automa else [])  # seats from 1
        V = _setup(self.comp).V
        head = (f"Meerkat Kingdom, {self.players} players" + (" + automa" if self.automa else "")
                + f", turn {d['turn']}: {names[self.seat]} rolled {' '.join(map(str, d['roll']))}"
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
            out.append(f"{names[s]}{' (to move)' if s == self.seat else ''}: supply {seat['supply']}, {q}, "
                       f"reserve {seat['reserve']}, pups {seat['pups']}, lost {seat['lost']}, bonus {seat['bonus']}"
                       + (f", burrow {'/'.join(seat['burrow'])}" if seat["burrow"] else ""))
        return "\n".join(out)


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
    seats = seats_by_index(doc, players, fail, seats=n, note=f" (seat {n}: the automa)" if automa else "")
    for s in range(n):
        e = seats[s]
        path = ("seat", str(s + 1))
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
    if seats[doc["to_move"] - 1]["supply"] == 0:
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
    >>> pos = load_position({"players": 2, "to_move": 1, "roll": [5, 4, 2],
    ...                      "seat": [{"seat": 1, "supply": 20}, {"seat": 2, "supply": 20},
    ...                               {"seat": 3, "supply": 20, "queen": 12}]})
    >>> pos.seats, pos.automa, pos.to_move, pos.seat
    (3, True, 1, 0)
    >>> load_position({"players": 2, "to_move": 1, "roll": [5, 4, 9], "seat": []})
    Traceback (most recent call last):
    ...
    pyradice_lab.engine.schema.SchemaError: roll[2]: 9 is out of range (allowed: an integer in 1..6)
    """
    from .components import coerce_components

    return read_position(source, Position, position_spec(), _build,
                         position_components(source, Position, components, coerce_components))


# ------------------------------------------------------------------------------------------ from games
class _Stop(Exception):
    pass


def _snapshot_doc(g, s, dice, stage, layout, comp, players, automa) -> dict:
    W = g[0]
    S, T, G = W[4:8], W[8:21], W[21]
    n = int(G[G_NS])
    seats = []
    for o in range(n):
        seats.append({"seat": o + 1, "meerkats": {str(t): int(W[o, t]) for t in range(3, 13) if W[o, t]},
                      "queen": int(S[o, QUEEN]), "supply": int(S[o, SUP]), "reserve": int(S[o, RES]),
                      "pups": int(S[o, PUP]), "lost": int(S[o, BOX]), "bonus": int(S[o, BONUS]),
                      "out": int(S[o, OUT]), "burrow": [b for k, b in enumerate(BURROW_ACTIONS) if S[o, BUR + k]]})
    return {"players": players, "automa": automa, "to_move": int(s) + 1, "roll": [int(x) for x in dice],
            "stage": stage, "turn": int(G[G_TURN]) + 1, "first_player": int(G[G_FIRST]) + 1,
            "male": int(G[G_MALE]), "bonus_taken": int(G[G_TOKENS]), "layout": layout,
            "tokens": {str(t): TOKEN_NAMES[T[t, TOK]] for t in range(3, 13) if T[t, TOK]}, "seat": seats}


def positions_from_game(seed, *, players: int = 3, automa: bool | None = None, policies="expectimax",
                        after_reroll: bool = False, components=None, turns=None,
                        _seen: list | None = None) -> Iterator[tuple[int, Position]]:
    """Every ``(turn, position)`` of the seeded game at which a player decides, in order (one replay).

    Parameters
    ----------
    seed : int or Generator
        The game's seed (the game of :func:`~pyradice_lab.meerkat.sim.play_game` with that seed).
    players, automa, policies, components
        As for :func:`~pyradice_lab.meerkat.sim.play_game` (default: the game's 3 players, no automa); the default
        policy is ``"expectimax"`` for every player.
    after_reroll : bool
        ``False``: the reroll decision (the first roll); ``True``: the action decision (the dice after the
        reroll, or the first roll if the seat kept it).
    turns : collection of int, optional
        Only these turns, numbered from 1 as the transcript numbers them (the replay stops after the last).

    Returns
    -------
    iterator of (int, Position)
        The turn number (from 1, as in the transcript) and the position; ``played`` holds the seat's choice.

    Raises
    ------
    ValueError
        If ``after_reroll`` is not a bool, or a game argument is not allowed.

    Examples
    --------
    >>> [t for t, _ in positions_from_game(1, players=2)][:4]   # turns 3, 6, ... are the automa's
    [1, 2, 4, 5]
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
        turn = int(g[0][21, G_TURN]) + 1  # from 1, as the transcript
        if _seen is not None:
            _seen.append(turn)
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
        turn = int(g[0][21, G_TURN]) + 1
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
                if _seen is not None:
                    _seen.append(None)  # the game ran to its end
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


def position_from_game(seed, turn: int, *, players: int = 3, automa: bool | None = None, policies="expectimax",
                       after_reroll: bool = False, components=None) -> Position:
    """The position at turn ``turn`` (1 = the first turn, as the transcript of
    :func:`~pyradice_lab.meerkat.sim.play_game` numbers them, and as the other games' ``position_from_game``) of
    the seeded game: "what should I have done at turn K?".

    Parameters
    ----------
    seed : int or Generator
        The game's seed.
    turn : int
        A turn at which a player (not the automa) rolls.
    players, automa, policies, components
        As for :func:`~pyradice_lab.meerkat.sim.play_game` (default: the game's 3 players, no automa; policy
        ``"expectimax"`` for everyone).
    after_reroll : bool
        ``True``: the action decision, with the dice after the reroll (see :func:`positions_from_game`).

    Returns
    -------
    Position
        ``played`` holds the seat's choice (a keep mask, or with ``after_reroll`` an action code).

    Raises
    ------
    ValueError
        If ``turn`` is not a turn at which a player rolls in that game (the message lists some that are): beyond
        the rules engine's cap on a game's turns (``rules.MAX_TURNS``) at once, otherwise after one replay of
        the game (remembered: asking again for that game answers at once).

    Examples
    --------
    >>> pos = position_from_game(1, 1, players=2)
    >>> pos.roll, pos.played        # kept the 6, rerolled the 3 and the 4
    ((3, 4, 6), 4)
    """
    from .rules import MAX_TURNS

    if isinstance(turn, bool) or not isinstance(turn, numbers.Integral) or not 1 <= turn <= MAX_TURNS:
        shown = f"{turn!r:.40}" if not isinstance(turn, numbers.Integral) or abs(turn) < 10 ** 30 else \
            f"a number of about {int(abs(int(turn)).bit_length() * 0.30103) + 1} digits"
        raise ValueError(f"turn must be an integer from 1 to {MAX_TURNS} (as transcripts number the turns; the rules "
                         f"engine ends every game by turn {MAX_TURNS}), got {shown}")
    key = _replay_key(seed, players, automa, policies, components)
    known = _ROLL_TURNS.get(key) if key is not None else None
    if known is not None and turn not in known:  # this game was replayed in full before: no replay again
        raise _no_such_turn(seed, turn, known)
    seen: list = []
    for t, pos in positions_from_game(seed, players=players, automa=automa, policies=policies,
                                      after_reroll=after_reroll, components=components, turns=(int(turn),),
                                      _seen=seen):
        if t == turn:
            return pos
    if not seen or seen[-1] is not None:  # stopped past the turn (an automa's): replay to the end to list them
        seen = []
        for _ in positions_from_game(seed, players=players, automa=automa, policies=policies,
                                     components=components, turns=(MAX_TURNS + 1,), _seen=seen):
            pass
    rolls = tuple(t for t in seen if t is not None)
    if key is not None:  # the replay ran to the end: every turn at which a player rolls is known
        _ROLL_TURNS[key] = rolls
        while len(_ROLL_TURNS) > _ROLL_TURNS_KEPT:
            _ROLL_TURNS.pop(next(iter(_ROLL_TURNS)))
    raise _no_such_turn(seed, turn, rolls)


#: Per replayed game (seed, players, automa, policies; default components): the turns at which a player rolls,
#: remembered after a replay that ran to the end (a turn the game never reaches), so that asking again for
#: that game answers at once instead of replaying it (seconds) once more.
_ROLL_TURNS: dict = {}
_ROLL_TURNS_KEPT = 64


def _replay_key(seed, players, automa, policies, components):
    if components is not None or isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        return None
    pol = policies if isinstance(policies, str) else tuple(policies) if isinstance(policies, (list, tuple)) else None
    if pol is None or not all(isinstance(p, str) for p in ((pol,) if isinstance(pol, str) else pol)):
        return None
    return int(seed), players, automa, pol


def _no_such_turn(seed, turn, rolls) -> ValueError:
    rolls = list(rolls)
    return ValueError(f"turn must be a turn at which a player rolls in game {seed!r} (e.g. {rolls[:8]}, "
                      f"last {rolls[-1] if rolls else None}), got {turn}")
