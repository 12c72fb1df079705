"""The table companion's endpoints for Meerkat Kingdom, Rocking Raft and Pyradice (Purramid's are in
:mod:`pyradice_lab.web`).

Each game is a :class:`Desk`: ``layout(query)`` answers ``GET /api/<game>/layout`` (what the page draws: the
table's geometry and a starting position, rebuilt from a seeded game) and ``advise(body)`` answers
``POST /api/<game>/advise``: a JSON object with the game's ``position`` (the document of its position file,
validated by the game's own ``load_position``: a bad field is answered 400 with the message naming the key) and
the game's options, every number bounded before any work.  One lock per game lets one request at a time compute
(the others wait), and ``warming`` holds the games whose first call (compiling their kernels) is under way:
their requests are answered 503 with ``Retry-After``.

Examples
--------
>>> desk = DESKS["raft"]()
>>> sorted(desk.layout({})["fingers"])
['east', 'north', 'south', 'west']
"""

from __future__ import annotations

import math
import numbers
import threading

from . import WARM_RETRY_AFTER, RequestError

__all__ = ["Desk", "MeerkatDesk", "RaftDesk", "PyradiceDesk", "DESKS", "MAX_ROLLOUTS"]

#: the most rollouts one Pyradice request may ask for (samples x candidates): a few seconds of CPU
MAX_ROLLOUTS = 2048


def _num(v):
    if v is None:
        return None
    v = float(v)
    return None if math.isnan(v) else v


def _int(query, name: str, default: int, lo: int, hi: int) -> int:
    raw = query.get(name)
    if raw is None:
        return default
    if isinstance(raw, bool) or not (isinstance(raw, numbers.Integral) or (isinstance(raw, str) and raw.isdigit())):
        raise RequestError(f"{name} must be an integer in {lo}..{hi}, got {raw!r}")
    v = int(raw)
    if not lo <= v <= hi:
        raise RequestError(f"{name} must be an integer in {lo}..{hi}, got {v}")
    return v


def _pick(query, name: str, allowed, default: str) -> str:
    raw = query.get(name, default)
    if raw not in allowed:
        raise RequestError(f"{name} must be one of {', '.join(allowed)}, got {raw!r}")
    return raw


def _replayed(fn):
    """``fn()`` (a game's ``position_from_game``); its ValueError (a turn the game does not have, naming
    ``turn``) is answered 400 with the message."""
    try:
        return fn()
    except ValueError as exc:
        raise RequestError(" ".join(str(exc).split())) from None


class Desk:
    """One game's endpoints: the allowed fields, a lock, the warm-up flag."""

    name = ""
    title = ""
    fields: tuple = ("position",)
    query: tuple = ("seed", "players")

    def __init__(self):
        self.lock = threading.Lock()
        self.warming = False
        self.solved = False

    # -------------------------------------------------------------------------------------- shared checks
    def _body(self, body, gate: bool = True) -> dict:
        if not isinstance(body, dict):
            raise RequestError(f"the request body must be a JSON object with the fields {', '.join(self.fields)}")
        unknown = sorted(set(body) - set(self.fields))
        if unknown:
            raise RequestError(f"unknown field(s) {', '.join(map(repr, unknown))}: allowed are "
                               f"{', '.join(self.fields)}")
        if not isinstance(body.get("position"), dict):
            raise RequestError("position must be a JSON object: the game's position document (see its guide)")
        if gate and self.warming:
            raise RequestError(f"the advisor is warming up: {self.title}'s engine is being compiled once; ask "
                               f"again in a few seconds", 503, {"Retry-After": str(WARM_RETRY_AFTER)})
        return body

    def _choice(self, body, name, allowed, default):
        v = body.get(name, default)
        if v not in allowed:
            raise RequestError(f"{name} must be one of {list(allowed)}, got {v!r}")
        return v

    def check_query(self, query) -> dict:
        extra = sorted(set(query) - set(self.query))
        if extra:
            raise RequestError(f"unknown query parameter(s) {', '.join(extra)}: allowed are {', '.join(self.query)}")
        return query

    def run(self, fn):
        with self.lock:
            out = fn()
            self.solved = True
            return out

    def warm_body(self) -> dict:
        return {"position": self.layout({})["position"]}


# ------------------------------------------------------------------------------------------ Meerkat
class MeerkatDesk(Desk):
    name, title = "meerkat", "Meerkat Kingdom"
    fields = ("position", "objective", "policy")
    query = ("seed", "players", "turn", "stage")
    #: the last turn the layout endpoint replays to (a replay costs about a turn's decisions each)
    max_turn = 200

    def layout(self, query) -> dict:
        from ..meerkat.advisor import _TOKENS, _setup, position_from_game
        from ..meerkat.components import default_components

        q = self.check_query(query)
        seed = _int(q, "seed", 1, 0, 10 ** 6)
        players = _int(q, "players", 2, 1, 3)
        turn = _int(q, "turn", 0, 0, self.max_turn)
        stage = _pick(q, "stage", ("reroll", "action"), "reroll")
        pos = self.run(lambda: _replayed(lambda: position_from_game(seed, turn, players=players,
                                                                    after_reroll=stage == "action")))
        comp = default_components()
        V = _setup(comp).V
        tiles = [{"tile": t, "values": [int(x) for x in V[t, 1:1 + V[t, 0]]]} for t in range(3, 13)]
        return {"game": self.name, "title": self.title, "seed": seed, "players": players, "turn": turn,
                "stage": stage, "rows": list(comp.rows), "tiles": tiles, "meerkats": int(comp.meerkats),
                "tokens": list(_TOKENS), "position": pos.document(), "seats": pos.seats, "automa": pos.automa}

    def advise(self, body, gate: bool = True) -> dict:
        from ..meerkat.advisor import OBJECTIVES, POLICIES, advise, load_position

        body = self._body(body, gate)
        objective = self._choice(body, "objective", OBJECTIVES, "margin")
        policy = self._choice(body, "policy", POLICIES, "expectimax")
        pos = load_position(body["position"])
        df = self.run(lambda: advise(pos, objective=objective, policy=policy))
        decision = df.attrs["decision"]
        options = []
        for r in df.itertuples(index=False):
            o = {"option": r.option, "value": float(r.value), "regret": float(r.regret), "why": r.why,
                 "then": r.then}
            if decision == "reroll":
                o.update(keep=int(r.keep), p_better=float(r.p_better))
            else:
                o.update(action=int(r.action), tile=None if r.tile is None or r.tile != r.tile else int(r.tile),
                         meerkats=int(r.meerkats))
            options.append(o)
        return {"game": self.name, "decision": decision, "objective": df.attrs["objective"], "options": options,
                "best": options[0]}


# ------------------------------------------------------------------------------------------ Raft
class RaftDesk(Desk):
    name, title = "raft", "Rocking Raft"
    fields = ("position", "objective")
    query = ("seed", "players", "turn", "stage")
    max_turn = 120

    def layout(self, query) -> dict:
        from ..raft.advisor import position_from_game
        from ..raft.components import load_components

        q = self.check_query(query)
        seed = _int(q, "seed", 7, 0, 10 ** 6)
        players = _int(q, "players", 3, 2, 4)
        turn = _int(q, "turn", 1, 1, self.max_turn)
        stage = _pick(q, "stage", ("tilt", "load"), "tilt")
        pos = self.run(lambda: _replayed(lambda: position_from_game(seed, turn, players=players,
                                                                    after_tilt=stage == "load")))
        comp = load_components(None)
        slots, points = comp.deck_arrays()
        letters = list(comp.gems.letters)
        cards = {str(c.id): {"slots": {letters[j]: int(n) for j, n in enumerate(slots[i]) if n},
                             "points": int(points[i]), "label": comp.card_label(i)} for i, c in enumerate(comp.deck)}
        return {"game": self.name, "title": self.title, "seed": seed, "players": players, "turn": turn,
                "stage": stage, "fingers": {e: list(f) for e, f in comp.raft.fingers.items()}, "letters": letters,
                "colours": list(comp.gems.colours), "cards": cards, "boats": int(comp.rules.boats),
                "in_play": {letters[j]: int(n) for j, n in enumerate(comp.gems.in_play(players))},
                "position": pos.document()}

    def advise(self, body, gate: bool = True) -> dict:
        from ..raft.advisor import OBJECTIVES, advise, load_position

        body = self._body(body, gate)
        objective = self._choice(body, "objective", OBJECTIVES, "points")
        pos = load_position(body["position"])
        df = self.run(lambda: advise(pos, objective=objective))
        options = []
        if df.attrs.get("decision") == "load":
            for r in df.itertuples(index=False):
                options.append({"option": r.action, "value": float(r.value), "regret": float(r.regret),
                                "why": r.why, "then": r.then})
            return {"game": self.name, "decision": "load", "objective": df.attrs["objective"], "options": options,
                    "best": options[0]}
        for r in df.itertuples(index=False):
            options.append({"option": f"{r.edge} {r.finger} {float(r.duration):g} s", "edge": r.edge,
                            "finger": r.finger, "duration": float(r.duration), "value": float(r.value),
                            "regret": float(r.regret), "gems_fallen": float(r.gems_fallen), "why": r.why,
                            "then": r.then})
        return {"game": self.name, "decision": "tilt", "objective": df.attrs["objective"], "options": options,
                "best": options[0], "lifeboats": df.attrs["lifeboats"]}


# ------------------------------------------------------------------------------------------ Pyradice
class PyradiceDesk(Desk):
    name, title = "pyradice", "Pyradice"
    fields = ("position", "objective", "policy", "samples", "candidates", "seed")
    shown = 30

    def layout(self, query) -> dict:
        from ..pyradice.components import Setup
        from ..pyradice.geometry import PYRAMID, quarry_geometry
        from ..pyradice.quarry import colour_letters
        from ..pyradice.rules import deal, first_player
        from ..pyradice.scoring import Table

        q = self.check_query(query)
        seed = _int(q, "seed", 3, 0, 10 ** 6)
        players = _int(q, "players", 2, 2, 4)
        setup = Setup.default()
        d = deal(players, setup, rng=seed)
        geom = quarry_geometry(players)
        names = list(setup.catalogue.palette.names)
        letters = list(colour_letters(names))
        dice = [{"i": i, "layer": int(geom.coords[i, 0]), "row": int(geom.coords[i, 1]), "col": int(geom.coords[i, 2]),
                 "value": int(d.values[i]), "colour": int(d.colours[i]),
                 "sides": [int(x) for x in geom.sides[i]], "covers": [int(x) for x in geom.covers[i]]}
                for i in range(geom.n)]
        spaces = [{"space": s, "level": int(PYRAMID.level_of[s]), "index": int(PYRAMID.index_in_level[s]),
                   "supports": [int(x) for x in PYRAMID.supports[s]], "label": PYRAMID.label(s)}
                  for s in range(PYRAMID.n)]
        table = Table.build(setup, d.discs)
        first = first_player(d.rolls)
        empty = [" ".join("." * (7 - k)) for k in range(1, 7)]
        position = {"players": players, "to_move": first, "first_player": first,
                    "setup": {"skills": list(setup.skills), "goals": list(setup.goals), "cards": list(setup.cards),
                              "discs": [names[x] for x in d.discs]},
                    "quarry": {key: [" ".join(f"{d.values[geom.index(k, r, c)]}{letters[d.colours[geom.index(k, r, c)]]}"
                                              for c in range(geom.shapes[k][1])) for r in range(geom.shapes[k][0])]
                               for k, key in enumerate(("bottom", "middle", "top"))},
                    "seat": [{"seat": s, "pyramid": list(empty)} for s in range(players)]}
        return {"game": self.name, "title": self.title, "seed": seed, "players": players, "n": geom.n,
                "shapes": [list(x) for x in geom.shapes], "dice": dice, "spaces": spaces, "letters": letters,
                "colours": names, "cards": table.card_labels(), "describe": setup.describe(), "position": position}

    def warm_body(self) -> dict:
        return {"position": self.layout({})["position"], "samples": 2, "candidates": 2}

    def advise(self, body, gate: bool = True) -> dict:
        from ..pyradice.advisor import OBJECTIVES, POLICIES, advise, load_position

        body = self._body(body, gate)
        objective = self._choice(body, "objective", OBJECTIVES, "search")
        policy = self._choice(body, "policy", POLICIES, "flat_mc")
        samples = _int(body, "samples", 64, 2, 512)
        candidates = _int(body, "candidates", 8, 1, 16)     # the page's; advise's own default is the player's
        seed = _int(body, "seed", 0, 0, 2 ** 31 - 1)
        if samples * candidates > MAX_ROLLOUTS:
            raise RequestError(f"samples x candidates must be at most {MAX_ROLLOUTS} rollouts per request, got "
                               f"{samples} x {candidates}")
        pos = load_position(body["position"])
        df = self.run(lambda: advise(pos, objective=objective, policy=policy, rng=seed, samples=samples,
                                     candidates=candidates))
        after = _afters(pos, df.head(self.shown))
        options = []
        for r, (v, c) in zip(df.head(self.shown).itertuples(index=False), after):
            options.append({"option": r.option, "take": int(r.take), "place": int(r.place), "skill": int(r.skill),
                            "value": _num(r.value), "se": _num(r.se), "ci_low": _num(r.ci_low),
                            "ci_high": _num(r.ci_high), "regret": _num(r.regret), "lookahead": float(r.lookahead),
                            "vp_now": int(r.vp_now), "why": r.why, "then": r.then, "after": {"values": v,
                                                                                            "colours": c}})
        return {"game": self.name, "decision": "move", "objective": df.attrs["objective"], "options": options,
                "best": options[0], "moves": len(df), "samples": samples, "candidates": candidates, "seed": seed}


def _afters(pos, df) -> list[tuple[list, list]]:
    """The mover's pyramid after each move of ``df`` (the readable rules: place, then the skill option)."""
    from ..pyradice.geometry import PYRAMID
    from ..pyradice.scoring import Table
    from ..pyradice.skills import apply_action, skill_options

    table = Table.build(pos.setup, pos.discs)
    v0, c0 = ([int(x) for x in a] for a in pos.pyramids[pos.to_move])
    out = []
    for r in df.itertuples(index=False):
        v, c = apply_action(v0, c0, ((int(r.place), int(pos.values[r.take]), int(pos.colours[r.take])),))
        if r.skill >= 0:
            tok = table.skills[int(PYRAMID.level_of[r.place])]
            v, c = apply_action(v, c, skill_options(tok, v, c, int(r.place))[int(r.skill)])
        out.append(([int(x) for x in v], [int(x) for x in c]))
    return out


#: the desks the server offers, by game name (Purramid's endpoints are :mod:`pyradice_lab.web`'s own)
DESKS = {"meerkat": MeerkatDesk, "raft": RaftDesk, "pyradice": PyradiceDesk}
