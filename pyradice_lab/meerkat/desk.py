"""Meerkat Kingdom's web desk: the table companion's endpoints for this game (:mod:`pyradice_lab.engine.desk`).

``GET /api/meerkat/layout`` answers :meth:`MeerkatDesk.layout` (the tiles and a position replayed from a seeded
game, at the reroll or the action decision) and ``POST /api/meerkat/advise`` answers :meth:`MeerkatDesk.advise` (a
``position`` document, validated by :func:`.advisor.load_position`, and the options ``objective`` and ``policy``).

Examples
--------
>>> desk = DESK()
>>> len(desk.layout({})["tiles"])
10
"""

from __future__ import annotations

from ..engine.desk import Desk, int_field as _int, pick as _pick, replayed as _replayed

__all__ = ["MeerkatDesk", "DESK"]

class MeerkatDesk(Desk):
    name, title = "meerkat", "Meerkat Kingdom"
    fields = ("position", "objective", "policy")
    query = ("seed", "players", "turn", "stage")
    #: the last turn the layout endpoint replays to (a replay costs about a turn's decisions each)
    max_turn = 200

    def layout(self, query) -> dict:
        from .advisor import _TOKENS, _setup, position_from_game
        from .components import default_components

        q = self.check_query(query)
        seed = _int(q, "seed", 1, 0, 10 ** 6)
        players = _int(q, "players", 2, 1, 3)
        turn = _int(q, "turn", 1, 1, self.max_turn)  # from 1, as the transcript
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
        from .advisor import OBJECTIVES, POLICIES, advise, load_position

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


#: the desk the web server builds for this game
DESK = MeerkatDesk
