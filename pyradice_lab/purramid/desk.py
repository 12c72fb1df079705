"""Purramid's web desk: the table companion's endpoints for this game (:mod:`pyradice_lab.engine.desk`).

``GET /api/purramid/layout`` (also ``/api/layout``) answers :meth:`PurramidDesk.layout`: the board geometry of a
side the server offers (``?name=A``; every space with its row, column, number, tiles and its horizontal span in
units: row ``r`` starts at ``r/2``, "10" spaces are 2 wide) and a ``position`` document (the format of
:func:`.advisor.load_position`): the table as set up for ``?players=P`` (4), or with ``?seed=S`` and/or
``?turn=K`` a seeded game replayed to turn K's first roll.

``POST /api/purramid/advise`` (also ``/api/advise``) answers :meth:`PurramidDesk.advise` in two forms: a
``position`` document with the options ``objective``, ``yarn_value`` and ``bonus`` (the protocol every game's
desk follows), or the fields of the keyword form of :func:`.advisor.advise` (:data:`FIELDS`; ``layout`` names a
board the server offers, never a path).  Both answer the ranked options, the recommended one and the immediate
burst odds of the open spaces (:func:`advise_json`).

Validation is ``advise``'s own: a bad field is answered with status 400 and its message, which names the field.
Solvers are cached by :func:`.advisor.solver_for` (a bounded LRU); one lock per board lets one request at a time
solve a given board (others wait for it instead of solving it twice); every number is bounded by the board
(``("at_least", k)`` with ``k`` at most the tiles left, ``yarn_value`` at most the board's tiles) and each board
solves at most :data:`MAX_VARIANTS` distinct objectives / token values / bonus modes (429 after that).  While
the start-up solve warms a board, its requests are answered 503 with ``Retry-After``.

Examples
--------
>>> desk = DESK("A")
>>> g = desk.layout({})
>>> g["name"], g["position"]["layout"], g["spaces"][0]["space"]
('A', 'A', [0, 0])
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from contextlib import contextmanager

from ..engine.desk import WARM_RETRY_AFTER, Desk, RequestError, int_field, replayed
from .components import Layout, coerce_components, load_layout

__all__ = ["PurramidDesk", "DESK", "Boards", "layout_json", "advise_json", "check_table", "warm_up", "FIELDS",
           "MAX_VARIANTS"]

#: the names ``pyradice_lab.web`` still offers from here (their old import path)
WEB_NAMES = ("Boards", "layout_json", "advise_json", "warm_up", "FIELDS", "MAX_VARIANTS")

log = logging.getLogger(__name__)

#: distinct solver variants (objective, yarn_value, bonus mode, yarn tokens) one board solves per server
MAX_VARIANTS = 12
#: the fields of the keyword form of ``POST /api/purramid/advise``: those of :func:`.advisor.advise` that take
#: no file path
FIELDS = ("layout", "covered", "placed", "dice_left", "roll", "yarn", "turn_dice", "objective", "yarn_value",
          "bonus", "yarn_tokens", "race", "winner", "gold_placed")
#: the fields of the table the keyword form checks and answers back (``table``) but does not pass to ``advise``:
#: who has won reaches it through the race's hands (the winner's is 0), the gold tiles placed are the score
TABLE_FIELDS = ("winner", "gold_placed")
#: the options beside a ``position`` document
OPTIONS = ("objective", "yarn_value", "bonus")


def _then(v):
    if v is None:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


class Boards:
    """The boards a server offers (the components' sides, plus a layout file given at start-up), one solve
    lock per board, and which boards have been solved once (to tell the page a first solve is slow)."""

    def __init__(self, layout="A", components=None):
        self.components = coerce_components(components)
        self.layouts: dict[str, Layout] = dict(self.components.sides)
        self.paths: dict[str, str] = {}
        default = load_layout(layout, self.components)
        if default.name not in self.layouts or self.layouts[default.name].key != default.key:
            name = default.name if default.name not in self.layouts else f"{default.name} (file)"
            self.layouts[name] = default
            self.default = name
            if not isinstance(layout, Layout):
                self.paths[name] = str(layout)     # a position names the board; its file is read from here
        else:
            self.default = default.name
        self.locks = {name: threading.Lock() for name in self.layouts}
        self.solved: set = set()
        self.variants: dict = {name: set() for name in self.layouts}
        self.warming: set = set()   # boards the start-up solve is warming (their requests get 503)
        self._guard = threading.Lock()

    def admit_variant(self, name: str, key: tuple) -> None:
        """Count a solver variant of board ``name``; refuse (429) a new one beyond :data:`MAX_VARIANTS`."""
        with self._guard:
            seen = self.variants[name]
            if key not in seen and len(seen) >= MAX_VARIANTS:
                raise RequestError(f"board {name!r} has already been solved for {MAX_VARIANTS} different "
                                   f"objective / yarn_value / bonus choices on this server; use one of those "
                                   f"or restart the server", 429)
            seen.add(key)

    def get(self, name, field: str = "layout") -> tuple[str, Layout]:
        if name is None:
            name = self.default
        if not isinstance(name, str) or name not in self.layouts:
            raise RequestError(f"{field} must be one of the boards this server offers "
                               f"({', '.join(map(repr, self.layouts))}), got {name!r}")
        return name, self.layouts[name]


def layout_json(layout: Layout) -> dict:
    """The board geometry the page draws: per space its row, column, number, tiles, whether it is an "8"
    (a yarn token), and ``x``/``width`` in units (row ``r`` starts at ``r / 2``).

    Parameters
    ----------
    layout : Layout
        A Purramid board (:func:`~pyradice_lab.purramid.components.load_layout`).

    Returns
    -------
    dict
        ``name``, ``rows``, ``n_rows``, ``width``, ``capacity`` and ``spaces`` (JSON-ready).

    Examples
    --------
    >>> from pyradice_lab.purramid.components import load_layout
    >>> g = layout_json(load_layout("A"))
    >>> g["spaces"][0]["space"], g["n_rows"] > 1
    ([0, 0], True)
    """
    spaces = []
    for r, row in enumerate(layout.rows):
        x = r / 2
        for c, n in enumerate(row):
            w = 2 if n == 10 else 1
            spaces.append({"space": [r, c], "row": r, "col": c, "number": n, "tiles": 3 if n == 12 else w,
                           "x": x, "width": w, "yarn": n == 8})
            x += w
    width = max((s["x"] + s["width"] for s in spaces), default=0)
    return {"name": layout.name, "rows": [list(r) for r in layout.rows], "n_rows": layout.n_rows, "width": width,
            "capacity": layout.capacity, "spaces": spaces}


def _burst_odds(layout: Layout, covered, placed, dice_left: int) -> dict:
    """The chance that ``dice_left`` dice rolled now show no subset summing to an open space's number."""
    from .odds import burst_probability

    taken = {tuple(s) for s in covered or ()} | {tuple(s) for s in placed or ()}
    targets = sorted({layout.numbers[i] for i, s in enumerate(layout.spaces) if s not in taken})
    targets = [t for t in targets if t <= 30]
    p = float(burst_probability(dice_left, targets)) if dice_left > 0 and targets else 1.0
    return {"dice": dice_left, "targets": targets, "probability": p}


def advise_json(body, boards: Boards) -> dict:
    """Answer one ``POST /api/advise`` body (already parsed JSON) with :func:`~.advisor.advise`.

    Raises :class:`RequestError` for a body that is not an object, an unknown field or a board the server does
    not offer, and passes on ``advise``'s own ValueError/TypeError (naming the field) for bad values.

    Parameters
    ----------
    body : object
        The parsed JSON body (an object with the fields :data:`FIELDS`; ``race``: ``{"hands": [tiles in hand
        per player in turn order], "seat": whose turn (0-based)}`` with ``objective: "auto"``, the objective
        the race suggests, :func:`~.race.race_objective`).
    boards : Boards
        The server's boards (``create_app(...).state.boards``).

    Returns
    -------
    dict
        ``options`` (``advise``'s rows), ``best``, ``objective``, ``bonus``, ``burst_odds``, ``seconds``,
        ``first_solve``; with a race, ``race`` (the suggested ``objective``, its ``reason``, ``threat`` and
        ``finish_now``).

    Examples
    --------
    >>> app = create_app("A")                                        # doctest: +SKIP
    >>> advise_json({"dice_left": 5}, app.state.boards)["best"]["action"]  # doctest: +SKIP
    'continue'
    """
    from .advisor import advise

    if not isinstance(body, dict):
        raise RequestError(f"the request body must be a JSON object with the fields {', '.join(FIELDS)}")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise RequestError(f"unknown field(s) {', '.join(map(repr, unknown))}: allowed are {', '.join(FIELDS)}")
    name, layout = boards.get(body.get("layout"))
    if name in boards.warming:
        raise RequestError(f"the advisor is warming up: board {name!r} is being solved once (the first solve "
                           f"compiles the exact solver, about 15 s of CPU); ask again in a few seconds", 503,
                           {"Retry-After": str(WARM_RETRY_AFTER)})
    kwargs = {k: body[k] for k in FIELDS[1:] if k in body and k not in TABLE_FIELDS}
    if "objective" in kwargs and isinstance(kwargs["objective"], list):
        kwargs["objective"] = tuple(kwargs["objective"])
    race = kwargs.pop("race", None)
    if race is not None and kwargs.get("objective") != "auto":
        raise RequestError("race is read with objective 'auto' (the objective the race suggests), got objective "
                           f"{kwargs.get('objective', 'tiles')!r}")
    # who has won is checked against the race's hands when the body says it (null: nobody yet); a body without
    # it (an older client) keeps the race's own reading of a hand of 0
    table = check_table(body.get("winner"), body.get("gold_placed", 0), race if "winner" in body else None,
                        boards.components.config.gold_tiles)
    yv = kwargs.get("yarn_value")
    if isinstance(yv, (int, float)) and not isinstance(yv, bool) and yv > layout.capacity:
        raise RequestError(f"yarn_value must be at most {layout.capacity} (the tiles of board {name!r}), got {yv!r}")
    variant = tuple(json.dumps(kwargs.get(k), sort_keys=True) for k in ("objective", "yarn_value", "bonus",
                                                                         "yarn_tokens"))
    dice_left = kwargs.get("dice_left", kwargs.get("turn_dice", 5))
    if "dice_left" not in kwargs and "turn_dice" in kwargs:
        kwargs["dice_left"] = kwargs["turn_dice"]
    suggestion = None
    if kwargs.get("objective") == "auto":     # the race's objective, before the variant is counted and solved
        from .advisor import _race_advice

        _check_advise_args(layout, {**kwargs, "objective": "tiles"})
        if race is not None:      # it solves turns of this board: under its lock (the solvers are shared)
            with boards.locks[name]:
                suggestion = _race_advice(race, layout, kwargs.get("covered", ()), int(kwargs.get("yarn", 0)),
                                          boards.components, bool(kwargs.get("yarn_tokens", True)))
        kwargs["objective"] = suggestion.objective if suggestion is not None else "tiles"
        variant = (json.dumps(kwargs["objective"]), *variant[1:])
    _check_advise_args(layout, kwargs)
    boards.admit_variant(name, variant)
    first = name not in boards.solved
    t0 = time.perf_counter()
    with boards.locks[name]:
        df = advise(layout, components=boards.components, **kwargs)
        boards.solved.add(name)
    seconds = time.perf_counter() - t0
    options = []
    for row in df.itertuples(index=False):
        options.append({
            "action": row.action, "space": None if row.space is None or row.space != row.space else list(row.space),
            "number": None if _then(row.number) is None else int(row.number), "dice": [int(d) for d in row.dice],
            "value": float(row.value), "burst_probability": float(row.burst_probability),
            "regret": float(row.regret), "then": getattr(row, "then", None) if "then" in df.columns else None})
    for o in options:
        o["then"] = _then(o["then"])
    return {"layout": name, "options": options, "best": options[0], "objective": str(df["objective"].iloc[0]),
            "bonus": str(df["bonus"].iloc[0]), "seconds": seconds, "first_solve": first, "table": table,
            "burst_odds": _burst_odds(layout, kwargs.get("covered"), kwargs.get("placed"), int(dice_left)),
            **({} if suggestion is None else {"race": {"objective": suggestion.label, "reason": suggestion.reason,
                                                       "threat": suggestion.threat,
                                                       "finish_now": suggestion.finish_now}})}


def check_table(winner, gold_placed, race, gold_tiles: int) -> dict:
    """Check who has won and the gold tiles they have placed (the keyword form's ``winner``, ``gold_placed``) the
    way a position file is checked: ``winner`` a player numbered from 1 in ``race.hands``' order (None: nobody
    yet), and with a race the winner's hand, and only theirs, is 0; ``gold_placed`` 0 while nobody has won and
    below ``gold_tiles`` (placing the last one ends the game).  Answers ``{"winner", "gold_placed"}`` and, with
    a race, every player's ``scores`` now (the winner the gold tiles placed, the others minus their hand).

    Examples
    --------
    >>> check_table(2, 3, {"hands": [5, 0], "seat": 0}, 12)
    {'winner': 2, 'gold_placed': 3, 'scores': [-5, 3]}
    >>> try:
    ...     check_table(None, 0, {"hands": [5, 0], "seat": 0}, 12)
    ... except RequestError as exc:
    ...     print(str(exc)[:58])
    winner: player 2 has no regular tile left in race.hands, s
    """
    hands = race.get("hands") if isinstance(race, dict) else None
    if not (isinstance(hands, list) and 2 <= len(hands) <= 4
            and all(isinstance(h, int) and not isinstance(h, bool) for h in hands)):
        hands = None              # a malformed race is refused by the race's own check, naming it
    top = len(hands) if hands is not None else 4
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int) or not 1 <= winner <= top):
        raise RequestError(f"winner must be the player who has placed all their regular tiles, numbered from 1 "
                           f"(1..{top}{', in race.hands order' if hands is not None else ''}), or null while "
                           f"nobody has, got {winner!r}")
    if isinstance(gold_placed, bool) or not isinstance(gold_placed, int) or not 0 <= gold_placed < gold_tiles:
        raise RequestError(f"gold_placed must be an integer in 0..{gold_tiles - 1} (the gold tiles the winner has "
                           f"placed; placing the last of {gold_tiles} ends the game), got {gold_placed!r}")
    if winner is None and gold_placed:
        raise RequestError(f"gold_placed is {gold_placed} but winner is null: gold tiles are placed only once a "
                           f"player has won (0 while nobody has)")
    out = {"winner": winner, "gold_placed": gold_placed}
    if hands is None:
        return out
    for p, h in enumerate(hands):
        if winner is None and h == 0:
            raise RequestError(f"winner: player {p + 1} has no regular tile left in race.hands, so they have won: "
                               f"set winner = {p + 1} (null only while every hand holds a tile)")
        if p + 1 == winner and h != 0:
            raise RequestError(f"winner: player {winner} still holds {h} regular tiles in race.hands; the winner "
                               f"is the player whose hand is 0")
        if winner is not None and p + 1 != winner and h == 0:
            raise RequestError(f"winner: player {p + 1} has no regular tile left in race.hands but player {winner} "
                               f"has won: the game ends when a second player finishes, so only the winner's hand "
                               f"is 0")
    out["scores"] = [gold_placed if p + 1 == winner else -h for p, h in enumerate(hands)]
    return out


def _check_advise_args(layout: Layout, kwargs: dict) -> None:
    """``advise``'s validation without solving (so a refused variant is never counted nor solved)."""
    from .advisor import _check_reachable, _check_state, _check_yarn_value, parse_objective

    dl = kwargs.get("dice_left", 5)
    cov = _check_state(layout, kwargs.get("covered", ()), kwargs.get("placed", ()), dl,
                       kwargs.get("turn_dice", 5), kwargs.get("yarn", 0))[0]
    _check_reachable(parse_objective(kwargs.get("objective", "tiles")), layout, cov)
    if kwargs.get("yarn_value") is not None:
        _check_yarn_value(kwargs["yarn_value"])


def warm_up(boards: Boards, name: str | None = None) -> threading.Thread:
    """Solve board ``name`` (default: the opening board) once in a background thread; until it is done the
    board's requests are answered 503 with ``Retry-After`` (see the module docstring).

    Parameters
    ----------
    boards : Boards
        The server's boards (``create_app(...).state.boards``).
    name : str, optional
        The board to solve (default: the opening board).

    Returns
    -------
    threading.Thread
        The (daemon) thread solving it.

    Examples
    --------
    >>> warm_up(create_app("A").state.boards).join()     # doctest: +SKIP
    """
    name = boards.default if name is None else name
    boards.warming.add(name)

    def _warm():
        try:   # a roll with a token to spend reaches every compiled path (place, stop/continue, reroll)
            with boards.locks[name]:
                from .advisor import advise

                advise(boards.layouts[name], components=boards.components, roll=[1, 2, 3, 4, 5], yarn=1)
                advise(boards.layouts[name], components=boards.components)
                boards.solved.add(name)
        except Exception as exc:  # noqa: BLE001 - a warm-up failure shows on the first real request instead
            log.warning("warming up board %r failed: %s", name, exc)
        finally:
            boards.warming.discard(name)

    t = threading.Thread(target=_warm, name="advisor-warm-up", daemon=True)
    t.start()
    return t


class PurramidDesk(Desk):
    """Purramid's endpoints (see the module docstring): the boards the server offers (:class:`Boards`, one solve
    lock per board), answered through the position protocol or the keyword form."""

    name, title = "purramid", "Purramid"
    fields = ("position", *OPTIONS)
    query = ("name", "seed", "players", "turn")
    settings = ("layout", "components")
    aliases = {"/api/layout": "layout", "/api/advise": "advise"}
    #: the last turn the layout endpoint replays to: above the longest of 900 simulated games (356 turns; 2 to
    #: 4 players, 300 games each); a whole game replays in about 0.1 s
    max_turn = 400
    #: a layout (or another board's request) is answered while one board solves
    workers = 2

    def __init__(self, layout="A", components=None):
        self.boards = Boards("A" if layout is None else layout, components)
        super().__init__()

    @property
    def state(self) -> dict:
        return {"boards": self.boards}

    @property
    def note(self) -> str:
        """What ``serve`` says about this desk at start-up."""
        return f"Purramid board {self.boards.default}"

    # the warm-up flag is the opening board's (a board warming answers 503; the others are served meanwhile)
    @property
    def warming(self) -> bool:
        return self.boards.default in self.boards.warming

    @warming.setter
    def warming(self, value: bool) -> None:
        (self.boards.warming.add if value else self.boards.warming.discard)(self.boards.default)

    @property
    def solved(self) -> bool:
        return bool(self.boards.solved)

    @solved.setter
    def solved(self, value: bool) -> None:
        pass   # the boards record which of them are solved

    def layout(self, query) -> dict:
        from ._position import opening_position, position_from_game

        q = self.check_query(query)
        name, L = self.boards.get(q.get("name"), "name")
        seed = int_field(q, "seed", 1, 0, 10 ** 6)
        players = int_field(q, "players", 4, 2, 4)
        turn = int_field(q, "turn", 1, 1, self.max_turn)
        if "seed" in q or "turn" in q:     # a seeded game replayed to its turn's first roll
            pos = self.cached(("layout", name, seed, players, turn), lambda: replayed(
                lambda: position_from_game(seed, turn, players=players, layout=L, components=self.boards.components)))
        else:                              # the table as set up (quick: no replay, no solver imported)
            pos = replayed(lambda: opening_position(players, L, components=self.boards.components))
        doc = pos.to_dict()
        doc["layout"] = name
        out = layout_json(L)
        out.update(name=name, boards=list(self.boards.layouts), default=self.boards.default,
                   solved=name in self.boards.solved, game=self.name, title=self.title, seed=seed, players=players,
                   turn=turn, position=doc, gold_tiles=self.boards.components.config.gold_tiles)
        return out

    def advise(self, body, gate: bool = True) -> dict:
        if isinstance(body, dict) and "position" in body:
            return self._advise_position(body, gate)
        with self._gate(body.get("layout") if isinstance(body, dict) else None, gate):
            return advise_json(body, self.boards)

    @contextmanager
    def _gate(self, board, gate: bool):
        """With ``gate=False`` (the warm-up's own request) the board's warming flag is lifted for the request."""
        name = board if isinstance(board, str) and board in self.boards.layouts else self.boards.default
        lift = not gate and name in self.boards.warming
        if lift:
            self.boards.warming.discard(name)
        try:
            yield
        finally:
            if lift:
                self.boards.warming.add(name)

    def _advise_position(self, body, gate: bool) -> dict:
        from .advisor import load_position

        body = self._body(body, gate=False)
        doc = dict(body["position"])
        name, L = self.boards.get(doc.get("layout"), "position.layout")
        doc["layout"] = self.boards.paths.get(name, name)
        pos = load_position(doc, components=self.boards.components)
        legacy = {"layout": name, "covered": [list(s) for s in pos.covered], "placed": [list(s) for s in pos.placed],
                  "dice_left": pos.dice_left, "yarn": pos.yarn[pos.seat], "turn_dice": pos.turn_dice,
                  "yarn_tokens": pos.yarn_tokens, **{k: body[k] for k in OPTIONS if k in body}}
        if pos.roll is not None:
            legacy["roll"] = list(pos.roll)
        if legacy.get("objective") == "auto":      # the race the position's hands and yarn make (every player's)
            legacy["race"] = pos.race()
        if pos.winner is not None:                 # numbered from 1 in turn order, as the race's hands are
            legacy.update(winner=pos.winner + 1, gold_placed=pos.gold_placed)
        with self._gate(name, gate):
            out = advise_json(legacy, self.boards)
        out.update(game=self.name, decision="stop or continue" if pos.roll is None else "placement")
        for o in out["options"]:
            o["option"] = o["action"]
        return out

    def warm_body(self) -> dict:
        return {"layout": self.boards.default, "roll": [1, 2, 3, 4, 5], "yarn": 1}

    # the recommendation in the board's words (engine/recommend.py): spaces by the number printed on them, the
    # row from the bottom and the place from the left, both from 1
    def value_name(self, answer: dict) -> tuple[str, bool]:
        objective = str(answer.get("objective", "tiles"))
        if objective == "tiles":
            return "expected tiles this turn", False
        return "chance of " + objective.removeprefix("P(").removesuffix(")"), True

    def describe(self, option: dict, answer: dict) -> dict:
        return _describe_option(option, answer)

    def warm(self) -> None:
        warm_up(self.boards).join()


def _space_words(space) -> str:
    """Where a space is, as a player finds it on the board: ``"bottom row, 3rd from the left"``."""
    r, c = int(space[0]), int(space[1])
    row = "bottom row" if r == 0 else f"row {r + 1} from the bottom"
    return f"{row}, {_ordinal(c + 1)} from the left"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


_THEN = {"continue": "then roll on", "stop": "then stop", "burst": "then the turn bursts"}


def _describe_option(o: dict, answer: dict) -> dict:
    """One option of :func:`advise_json` in the board's words (the recommendation; placements of other dice on
    the same space with the same value are merged by the page's recommendation)."""
    burst = o.get("burst_probability")
    extra = "" if burst is None else f"{100 * float(burst):.0f}% chance the turn ends in a burst"
    action = o.get("action")
    if o.get("space") is not None:
        group = f"put {{}} on the {o['number']} ({_space_words(o['space'])})"
        then = _THEN.get(o.get("then"), "")
        if then:
            group += ", " + then
        variant = "+".join(str(d) for d in o.get("dice", ()))
        return {"label": group.format(variant), "group": group, "variant": variant, "value": o.get("value"),
                "extra": extra}
    dice = (answer.get("burst_odds") or {}).get("dice")
    words = {"stop": ("stop now", "bank this turn's tiles"),
             "continue": (f"roll the {dice} dice left" if dice else "roll on", ""),
             "reroll": ("spend a yarn token to reroll", ""),
             "burst": ("nothing fits: the turn bursts", "no placement fits this roll")}
    label, why = words.get(action, (str(action), ""))
    return {"label": label, "value": o.get("value"), "detail": why, "extra": extra if action != "burst" else ""}


#: the desk the web server builds for this game
DESK = PurramidDesk
