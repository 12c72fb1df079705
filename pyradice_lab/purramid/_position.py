"""Purramid's position format and the replay of seeded games (:mod:`.advisor` re-exports the public names).

A **position** is what the table shows when a player is deciding: the player count, the board side, every
player's regular tiles in hand and yarn tokens, who has won and how many gold tiles they have placed, the spaces
holding cat tiles, and the turn at hand: whose turn it is, how many dice the turn started with (5, fewer in a
bonus turn), the spaces holding this turn's dice, the dice not yet placed and the roll just made (if any).

Numbering: the file and every text number from 1: players in turn order (``to_move = 1`` is the start player)
and board spaces ``[row, col]`` (row 1 at the bottom, column 1 at the left).  The Python attributes are 0-based
indices, as in :func:`.advisor.advise`'s keyword form: ``seat`` and ``winner`` (players), ``covered``, ``placed``
and ``played`` (``(row, col)`` spaces, row 0 at the bottom).

Examples
--------
>>> pos = load_position({"players": 2, "to_move": 1, "covered": [], "player": [{"hand": 36}, {"hand": 36}],
...                      "placed": [[1, 4]], "dice_left": 4, "roll": [6, 2, 3, 1]})
>>> pos.seat, pos.placed, pos.scores, pos.roll          # row 1, column 4 of the file is the index (0, 3)
(0, ((0, 3),), (-36, -36), (1, 2, 3, 6))
>>> load_position(pos.to_dict()) == pos
True
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine.positions import check_turn, position_components, read_position
from ..engine.schema import Array, Bool, Field, Int, SchemaError, Str, Table
from .board import dice_cost, popcount
from .components import Components, Layout, coerce_components, load_layout

__all__ = ["Position", "load_position", "position_from_game", "opening_position", "position_spec", "MAX_TURN_DICE",
           "MAX_YARN"]

MAX_TURN_DICE = 5
MAX_YARN = 12


# ------------------------------------------------------------------------------------------ the turn state's checks
def _check_int(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {int(value)}")
    return int(value)


def _spaces_mask(layout: Layout, spaces, name: str) -> int:
    if spaces is None:
        return 0
    if isinstance(spaces, (str, bytes)) or not isinstance(spaces, Iterable):
        raise ValueError(f"{name} must be a list of (row, col) spaces, got {spaces!r}")
    mask = 0
    for s in spaces:
        i = layout.index(s, name)
        if mask >> i & 1:
            raise ValueError(f"{name} lists space {tuple(s)} twice")
        mask |= 1 << i
    return mask


def _check_state(layout, covered, placed, dice_left, turn_dice, yarn):
    turn_dice = _check_int(turn_dice, "turn_dice", 1, MAX_TURN_DICE)
    if isinstance(dice_left, numbers.Integral) and not isinstance(dice_left, bool) and dice_left > turn_dice:
        raise ValueError(f"dice_left ({dice_left}) cannot exceed turn_dice ({turn_dice})")
    dice_left = _check_int(dice_left, "dice_left", 0, turn_dice)
    yarn = _check_int(yarn, "yarn", 0, MAX_YARN)
    cov = _spaces_mask(layout, covered, "covered")
    P = _spaces_mask(layout, placed, "placed")
    if cov & P:
        raise ValueError(f"placed holds covered space(s) {layout.spaces_of(cov & P)}: dice go on empty spaces")
    used = turn_dice - dice_left
    if popcount(P) > used:
        raise ValueError(f"placed holds {popcount(P)} spaces but only turn_dice - dice_left = {used} dice are "
                         f"on the board (each space holds at least one die)")
    need = dice_cost(layout, P)
    if need > used:
        raise ValueError(f"placed needs at least {need} dice (a space showing n holds at least ceil(n/6) dice) "
                         f"but only turn_dice - dice_left = {used} dice are on the board")
    if used > 0 and P == 0:
        raise ValueError(f"placed is empty but turn_dice - dice_left = {used} dice are on the board")
    return cov, P, dice_left, turn_dice, yarn


def _check_roll(roll, dice_left: int) -> tuple[int, ...]:
    if isinstance(roll, (str, bytes)):
        raise ValueError(f"roll must be a list of die values, got {roll!r}")
    try:
        vals = list(roll)
    except TypeError:
        raise ValueError(f"roll must be a list of die values, got {roll!r}") from None
    if len(vals) != dice_left:
        raise ValueError(f"roll must hold dice_left = {dice_left} die values, got {len(vals)}")
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 1 <= v <= 6:
            raise ValueError(f"roll must hold die values in 1..6, got {v!r}")
    return tuple(sorted(int(v) for v in vals))



# ------------------------------------------------------------------------------------------ the format
def position_spec() -> Table:
    """The schema of a Purramid position file (:mod:`pyradice_lab.engine.schema` nodes)."""
    space = Array(Int(1, 99), 2, 2)
    player = Table({
        "hand": Field(Int(0, 1000), "regular cat tiles still in this player's hand"),
        "yarn": Field(Int(0, MAX_YARN), "yarn tokens this player holds", default=0),
    }, doc="one player")
    return Table({
        "players": Field(Int(2, 4), "number of players"),
        "layout": Field(Str(max_len=200), "the board side (A, B, a side of the components or a layout TOML path)",
                        default="A"),
        "to_move": Field(Int(1, 4), "the player whose turn it is, numbered from 1 in turn order (1: the start "
                                    "player)"),
        "turn": Field(Int(1, 100_000), "the game's turn, numbered from 1 (for the record)", default=None),
        "yarn_tokens": Field(Bool(), "play with yarn tokens (false: none on the 8s, none to spend)", default=True),
        "winner": Field(Int(1, 4), "the player who has placed all their regular tiles and now plays gold tiles "
                                   "(leave it out while nobody has)", default=None),
        "gold_placed": Field(Int(0, 1000), "gold tiles the winner has placed (their score)", default=0),
        "covered": Field(Array(space, 0, 500, unique=True), "spaces holding cat tiles at the start of this turn, "
                                                            "[row, col] numbered from 1, row 1 at the bottom, "
                                                            "column 1 at the left", default=[]),
        "turn_dice": Field(Int(1, MAX_TURN_DICE), "dice this turn started with: 5, or 4, 3, ... in bonus turns",
                           default=MAX_TURN_DICE),
        "dice_left": Field(Int(0, MAX_TURN_DICE), "dice not yet placed this turn (default: turn_dice)", default=None),
        "placed": Field(Array(space, 0, MAX_TURN_DICE, unique=True), "spaces holding the dice placed this turn",
                        default=[]),
        "roll": Field(Array(Int(1, 6), 1, MAX_TURN_DICE), "the dice just rolled, dice_left values (leave it out "
                                                          "to decide whether to stop or roll on)", default=None),
        "player": Field(Array(player, 2, 4), "the players in turn order, [[player]] (the first is the start "
                                             "player)"),
    }, doc="a Purramid position: what the player whose turn it is sees")


@dataclass(frozen=True)
class Position:
    """A validated Purramid position (build with :func:`load_position` or :func:`position_from_game`).

    ``seat`` is the 0-based index of the player to move (the file's ``to_move`` is ``seat + 1``); ``hands`` and
    ``yarn`` hold every player's regular tiles in hand and yarn tokens, in turn order; ``winner`` the 0-based
    index of the player who has placed all regular tiles (None: nobody yet) and ``gold_placed`` their gold tiles
    on the board; ``covered`` and ``placed`` are sorted ``(row, col)`` spaces; ``roll`` the sorted dice just
    rolled (None: the decision is stop or roll on).  ``played`` is what the player did when the position comes
    from a game (``("place", (row, col), dice)``, ``("reroll",)`` or ``("burst",)``), else None.
    """

    players: int
    layout: str
    seat: int
    hands: tuple
    yarn: tuple
    covered: tuple
    placed: tuple = ()
    turn_dice: int = MAX_TURN_DICE
    dice_left: int = MAX_TURN_DICE
    roll: tuple | None = None
    winner: int | None = None
    gold_placed: int = 0
    yarn_tokens: bool = True
    turn: int | None = None
    board: Layout = field(default=None, repr=False, compare=False)
    comp: Components = field(default=None, repr=False, compare=False)
    played: tuple | None = field(default=None, compare=False)

    @property
    def to_move(self) -> int:
        """The player to move, numbered from 1 (as in the file and every text)."""
        return self.seat + 1

    @property
    def scores(self) -> tuple:
        """Every player's score now (the rules' scoring): the winner the gold tiles placed, the others minus the
        regular tiles still in hand."""
        return tuple(self.gold_placed if p == self.winner else -h for p, h in enumerate(self.hands))

    @property
    def gold_in_hand(self) -> int:
        """Gold tiles the winner still holds (0 while nobody has won)."""
        return 0 if self.winner is None else self.comp.config.gold_tiles - self.gold_placed

    def advise_kwargs(self) -> dict:
        """The keyword form of :func:`.advisor.advise` for this position (the board as a Layout)."""
        return {"layout": self.board, "covered": list(self.covered), "placed": list(self.placed),
                "dice_left": self.dice_left, "roll": None if self.roll is None else list(self.roll),
                "yarn": self.yarn[self.seat], "turn_dice": self.turn_dice, "yarn_tokens": self.yarn_tokens,
                "components": self.comp}

    def race(self) -> dict:
        """The race state ``advise(..., race=...)`` takes (every hand, the seat to move, every player's yarn)."""
        return {"hands": list(self.hands), "seat": self.seat, "players_yarn": list(self.yarn)}

    def to_dict(self) -> dict:
        """The position as a plain document (the file format; :func:`load_position` reads it back)."""
        doc = {"players": self.players, "layout": self.layout, "to_move": self.seat + 1}
        if self.turn is not None:
            doc["turn"] = self.turn
        doc["yarn_tokens"] = self.yarn_tokens
        if self.winner is not None:
            doc.update(winner=self.winner + 1, gold_placed=self.gold_placed)
        doc.update(covered=[[r + 1, c + 1] for r, c in self.covered], turn_dice=self.turn_dice,
                   dice_left=self.dice_left, placed=[[r + 1, c + 1] for r, c in self.placed])   # spaces from 1
        if self.roll is not None:
            doc["roll"] = list(self.roll)
        doc["player"] = [{"hand": h, "yarn": y} for h, y in zip(self.hands, self.yarn)]
        return doc

    document = to_dict

    def to_toml(self) -> str:
        """The position as a TOML file (the format of :func:`load_position`)."""
        d = self.to_dict()
        lines = [f"# Purramid position: player {d['to_move']} to move" + (f", turn {d['turn']}" if "turn" in d else ""),
                 f"players = {d['players']}", f"layout = {json.dumps(d['layout'])}",
                 f"to_move = {d['to_move']}  # players are numbered from 1 in turn order"]
        if "turn" in d:
            lines.append(f"turn = {d['turn']}")
        lines.append(f"yarn_tokens = {'true' if d['yarn_tokens'] else 'false'}")
        if "winner" in d:
            lines += [f"winner = {d['winner']}", f"gold_placed = {d['gold_placed']}"]
        lines += [f"covered = {json.dumps(d['covered'])}  # [row, col] from 1: row 1 at the bottom, column 1 at the left",
                  f"turn_dice = {d['turn_dice']}", f"dice_left = {d['dice_left']}", f"placed = {json.dumps(d['placed'])}"]
        if "roll" in d:
            lines.append(f"roll = {json.dumps(d['roll'])}")
        for p in d["player"]:
            lines += ["", "[[player]]", f"hand = {p['hand']}", f"yarn = {p['yarn']}"]
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        """The table as text: the board (top row first; ``#`` a cat tile, ``*`` this turn's dice), then the
        players."""
        L = self.board
        cov, pl = set(self.covered), set(self.placed)
        rows = []
        for r in range(L.n_rows - 1, -1, -1):
            cells = []
            for c, n in enumerate(L.rows[r]):
                mark = "#" if (r, c) in cov else "*" if (r, c) in pl else " "
                cells.append(f"{n:>2}{mark}")
            rows.append(" " * (2 * r) + " ".join(cells))
        turn = f" (turn {self.turn})" if self.turn is not None else ""
        roll = "" if self.roll is None else f", rolled {' '.join(map(str, self.roll))}"
        out = [f"Purramid, {self.players} players, side {self.layout}{turn}: player {self.seat + 1} to move, "
               f"{'bonus turn with ' if self.turn_dice < MAX_TURN_DICE else ''}{self.turn_dice} dice, "
               f"{self.dice_left} left{roll}", *rows]
        for p in range(self.players):
            who = " (to move)" if p == self.seat else ""
            won = f", WINNER with {self.gold_placed} gold placed" if p == self.winner else ""
            out.append(f"player {p + 1}{who}: {self.hands[p]} tiles in hand, {self.yarn[p]} yarn{won}; "
                       f"score {self.scores[p]:+d}")
        return "\n".join(out)


def _key_of(message: str, default: str) -> str:
    m = re.match(r"[a-z_]+", message)
    return m.group(0) if m and m.group(0) in ("covered", "placed", "dice_left", "turn_dice", "yarn", "roll") \
        else default


def _build(doc: dict, comp: Components, file=None) -> Position:
    def fail(what, path, allowed=None):
        raise SchemaError(what, path, allowed=allowed, file=file)

    cfg = comp.config
    players = doc["players"]
    if len(doc["player"]) != players:
        fail(f"lists {len(doc['player'])} players", ("player",), f"one [[player]] for each of the {players} players")
    for key in ("to_move", "winner"):
        if doc.get(key) is not None and doc[key] > players:
            fail(f"{doc[key]} is not a player of a {players}-player game", (key,), f"1..{players}")
    try:
        L = load_layout(doc["layout"], comp)
    except (ValueError, OSError) as exc:
        fail(" ".join(str(exc).split()), ("layout",))
    spaces = []
    for key in ("covered", "placed"):
        got = []
        for i, s in enumerate(doc[key]):
            r, c = int(s[0]) - 1, int(s[1]) - 1            # the file numbers rows and columns from 1
            if (r, c) not in L.index_map:
                fail(f"[{r + 1}, {c + 1}] is not a space of side {L.name}", (key, i),
                     f"[row, col] numbered from 1: rows 1..{L.n_rows}; row k has "
                     f"{', '.join(str(len(x)) for x in L.rows)} spaces (bottom row first)")
            got.append((r, c))
        spaces.append(tuple(sorted(got)))
    covered, placed = spaces
    hands = tuple(int(p["hand"]) for p in doc["player"])
    yarn = tuple(int(p["yarn"]) for p in doc["player"])
    seat = doc["to_move"] - 1
    turn_dice = doc["turn_dice"]
    dice_left = turn_dice if doc.get("dice_left") is None else doc["dice_left"]
    try:
        _check_state(L, covered, placed, dice_left, turn_dice, yarn[seat])
    except ValueError as exc:
        fail(" ".join(str(exc).split()), (_key_of(str(exc), "placed"),))
    roll = doc.get("roll")
    if roll is not None:
        if dice_left == 0:
            fail("there is no roll with no dice left", ("roll",), "leave it out when dice_left = 0")
        if len(roll) != dice_left:
            fail(f"has {len(roll)} dice", ("roll",), f"dice_left = {dice_left} values in 1..6")
        roll = tuple(sorted(int(v) for v in roll))
    if not doc["yarn_tokens"] and any(yarn):
        fail("players hold yarn tokens but yarn_tokens is false", ("player",), "yarn = 0 for every player")
    winner = None if doc.get("winner") is None else doc["winner"] - 1
    gold = doc["gold_placed"]
    for p, h in enumerate(hands):
        if (h == 0) != (p == winner):
            fail("a player with no regular tile left is the winner (and only the winner has none)",
                 ("player", p, "hand"), "winner = the player with hand = 0; everyone else hand >= 1")
    if winner is None and gold:
        fail(f"{gold} gold tiles placed but nobody has won", ("gold_placed",), "0 while there is no winner")
    if winner is not None and gold >= cfg.gold_tiles:
        fail(f"{gold} gold tiles placed: the game ended when the winner placed the last one", ("gold_placed",),
             f"0..{cfg.gold_tiles - 1}")
    on_board = L.tiles_of(L.mask_of(covered))
    expect = cfg.regular_tiles - sum(hands) + gold
    if on_board != expect:
        fail(f"the hands hold {sum(hands)} regular tiles and {gold} gold tiles are placed, so the board should hold "
             f"{expect} tiles, but covered holds {on_board}", ("player",),
             f"hands + regular tiles on the board = {cfg.regular_tiles}")
    if L.all_mask == L.mask_of(covered):
        fail("every space is covered: the game is over", ("covered",))
    return Position(players, doc["layout"] if isinstance(doc["layout"], str) else L.name, seat, hands, yarn, covered,
                    placed, turn_dice, dice_left, roll, winner, gold, bool(doc["yarn_tokens"]), doc.get("turn"), L,
                    comp)


def load_position(source, *, components=None) -> Position:
    """Read and validate a Purramid position: a ``.toml`` or ``.json`` path, a mapping, or a :class:`Position`.

    Parameters
    ----------
    source : path, Mapping or Position
        The position (format: :func:`position_spec`; documented in docs/guide/purramid.md).
    components : path or Components, optional
        The components the board side and the tile counts come from (default: the packaged ones).

    Returns
    -------
    Position

    Raises
    ------
    SchemaError
        A ``ValueError`` naming the file and the key, e.g. ``player: the hands hold ... (allowed: ...)``.

    Examples
    --------
    >>> pos = load_position({"players": 3, "to_move": 2, "player": [{"hand": 16}, {"hand": 24}, {"hand": 24}],
    ...                      "covered": [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6], [1, 7]]})
    >>> pos.to_move, pos.hands, pos.dice_left
    (2, (16, 24, 24), 5)
    >>> load_position({"players": 2, "to_move": 3, "player": [{"hand": 36}, {"hand": 36}]})
    Traceback (most recent call last):
    ...
    pyradice_lab.engine.schema.SchemaError: to_move: 3 is not a player of a 2-player game (allowed: 1..2)
    """
    return read_position(source, Position, position_spec(), _build,
                         position_components(source, Position, components, coerce_components))


# ------------------------------------------------------------------------------------------ from games
def opening_position(players: int = 4, layout="A", *, yarn_tokens: bool = True, components=None) -> Position:
    """The table as the rules set it up, the start player about to roll (turn 1, nothing rolled yet).

    Examples
    --------
    >>> opening_position(2).hands, len(opening_position(2).covered), opening_position(3).to_move
    ((26, 25), 20, 1)
    """
    from .rules import check_players

    comp = coerce_components(components)
    players = check_players(players)
    L = load_layout(layout, comp)
    cfg = comp.config
    covered = L.bottom_rows_mask(cfg.two_player_covered_rows) if players == 2 else 0
    return Position(players, L.name, 0, tuple(cfg.deal_for(players)), (0,) * players,
                    tuple(sorted(L.spaces_of(covered))), turn=1, yarn_tokens=bool(yarn_tokens), board=L, comp=comp)


class _Stop(Exception):
    pass


class _Capture:
    """A seat's policy that records its first decision of the turn (the table, the roll, the choice), then stops
    the game there."""

    def __init__(self, policy, game):
        self._policy = policy
        self._game = game
        self.seen = None

    def __getattr__(self, name):
        return getattr(self._policy, name)

    def decide(self, L, cov, P, roll, **kw):
        from .chance import sub_multisets
        from .rules import PLACE, REROLL

        kind, s, c = self._policy.decide(L, cov, P, roll, **kw)
        if kind == PLACE:
            used = next(u for u in sub_multisets(roll, L.numbers[s]) if len(u) == c)
            played = ("place", L.spaces[s], tuple(used))
        else:
            played = ("reroll",) if kind == REROLL else ("burst",)
        g = self._game
        self.seen = (tuple(sorted(int(v) for v in roll)), kw.get("turn_dice", len(roll)), played, g.covered,
                     list(g.hands), list(g.yarn), g.winner, g.gold_placed)
        raise _Stop


def position_from_game(seed, turn: int, *, players: int = 4, layout="A", policies=None, yarn_tokens: bool = True,
                       components=None) -> Position:
    """The position at the first roll of turn ``turn`` (1 = the first turn, as transcripts number them) of the
    game ``play_game(players, layout, policies, rng=seed)``: "what should I have done at turn K?".

    Parameters
    ----------
    seed : int or Generator
        The game's seed (its dice stream).
    turn : int
        1.. the game's number of turns.
    players, layout, policies, yarn_tokens, components
        As for :func:`~pyradice_lab.purramid.rules.play_game` (default: every seat ``"greedy"``).

    Returns
    -------
    Position
        With the turn's first roll; ``played`` holds what the seat's policy did with it.

    Raises
    ------
    ValueError
        If ``turn`` is not a turn of that game (the message gives the game's length), or a game argument is not
        allowed.

    Examples
    --------
    >>> pos = position_from_game(7, 3, players=3)
    >>> pos.to_move, pos.turn, len(pos.roll)
    (3, 3, 5)
    """
    from .policies import seat_policies
    from .rules import DiceStream, check_players, new_game, play_turn

    comp = coerce_components(components)
    turn = check_turn(turn, comp.config.turn_limit, "a game ends at the components' turn_limit")
    players = check_players(players)
    if not isinstance(yarn_tokens, bool):
        raise TypeError(f"yarn_tokens must be True or False, got {yarn_tokens!r}")
    pols = [p.with_config(comp.config) if hasattr(p, "with_config") else p for p in seat_policies(policies, players)]
    g = new_game(players, layout, trace=False, yarn_tokens=yarn_tokens, components=comp)
    dice = DiceStream(seed)
    while not g.over:     # the loop of rules.play_game, stopped at the turn asked for
        pol = pols[g.seat]
        pol = pol.for_turn(g) if hasattr(pol, "for_turn") else pol
        if g.turns + 1 == turn:
            cap = _Capture(pol, g)
            seat = g.seat
            try:
                play_turn(g, cap, dice)
            except _Stop:
                pass
            roll, D, played, cov, hands, yarn, winner, gold = cap.seen
            L = g.layout
            return Position(players, L.name, seat, tuple(hands), tuple(yarn), tuple(sorted(L.spaces_of(cov))), (),
                            D, D, roll, winner, gold, yarn_tokens, turn, L, comp, played)
        play_turn(g, pol, dice)
        g.turns += 1
        if not g.over:
            g.seat = (g.seat + 1) % players
            if g.turns >= g.config.turn_limit:
                g.over, g.end = True, "turn_limit"
    raise ValueError(f"turn must be a turn of this game: seed {seed!r} with {players} players lasts {g.turns} "
                     f"turns, got turn={turn}")
