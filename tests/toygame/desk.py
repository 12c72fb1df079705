"""The toy race's web desk (the contract part ``desk``): ``GET /api/toygame/layout`` replays a seeded game to a
decision, ``POST /api/toygame/advise`` ranks roll and hold for a ``position`` document.

>>> desk = DESK()
>>> desk.advise(desk.warm_body())["decision"]
'roll or hold'
"""

from __future__ import annotations

from pyradice_lab.engine.desk import Desk, int_field, replayed

__all__ = ["ToyDesk", "DESK"]


class ToyDesk(Desk):
    name, title = "toygame", "Toy race"
    fields = ("position",)
    query = ("seed", "turn", "decision")

    def layout(self, query) -> dict:
        from .advisor import position_from_game

        q = self.check_query(query)
        seed, turn = int_field(q, "seed", 3, 0, 10 ** 6), int_field(q, "turn", 2, 1, 1000)
        decision = int_field(q, "decision", 1, 1, 1000)
        pos = self.run(lambda: replayed(lambda: position_from_game(seed, turn, decision=decision)))
        return {"game": self.name, "title": self.title, "seed": seed, "turn": turn, "target": pos.comp.target,
                "position": pos.document()}

    def advise(self, body, gate: bool = True) -> dict:
        from .advisor import advise, load_position

        body = self._body(body, gate)
        pos = load_position(body["position"])  # a SchemaError (ValueError) naming the key: answered 400
        df = self.run(lambda: advise(pos))
        options = [{"option": r.option, "value": float(r.value), "regret": float(r.regret), "why": r.reason}
                   for r in df.itertuples(index=False)]
        return {"game": self.name, "decision": "roll or hold", "objective": "win", "options": options,
                "best": options[0]}


#: the desk the web server builds for this game
DESK = ToyDesk
