"""Rocking Raft's web desk: the table companion's endpoints for this game (:mod:`pyradice_lab.engine.desk`).

``GET /api/raft/layout`` answers :meth:`RaftDesk.layout` (the raft, the lifeboat cards and a position replayed
from a seeded game, at the tilt or the loading) and ``POST /api/raft/advise`` answers :meth:`RaftDesk.advise` (a
``position`` document, validated by :func:`.advisor.load_position`, and the options ``objective``).

Examples
--------
>>> desk = DESK()
>>> sorted(desk.layout({})["fingers"])
['east', 'north', 'south', 'west']
"""

from __future__ import annotations

from ..engine.desk import Desk, int_field as _int, pick as _pick, replayed as _replayed

__all__ = ["RaftDesk", "DESK"]

class RaftDesk(Desk):
    name, title = "raft", "Rocking Raft"
    fields = ("position", "objective")
    query = ("seed", "players", "turn", "stage")
    #: the last turn the layout endpoint replays to: twice the longest of 900 simulated games (28 turns with 4
    #: players; 2 to 4 players, 300 games each)
    max_turn = 60

    def layout(self, query) -> dict:
        q = self.check_query(query)
        seed = _int(q, "seed", 7, 0, 10 ** 6)
        players = _int(q, "players", 3, 2, 4)
        turn = _int(q, "turn", 1, 1, self.max_turn)
        stage = _pick(q, "stage", ("tilt", "load"), "tilt")
        from .advisor import position_from_game
        from .components import load_components  # after the checks: a refusal imports nothing

        pos = self.run(lambda: self.cached(("layout", seed, players, turn, stage), lambda: _replayed(
            lambda: position_from_game(seed, turn, players=players, after_tilt=stage == "load"))))
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
        from .advisor import OBJECTIVES, advise, load_position

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

    # the recommendation in the table's words (engine/recommend.py): hold times of one edge and finger space
    # that are worth the same are merged
    def value_name(self, answer: dict) -> tuple[str, bool]:
        objective = str(answer.get("objective", ""))
        return ("expected points completed this turn" if "completed" in objective else "expected points"), False

    def describe(self, option: dict, answer: dict) -> dict:
        if "edge" not in option:
            return {"label": "load: " + str(option["option"]), "value": option.get("value"),
                    "detail": option.get("why") or ""}
        group = f"tilt the raft at the {option['edge']} edge, {option['finger']} finger space, for {{}} s"
        variant = f"{float(option['duration']):g}"
        return {"label": group.format(variant), "group": group, "variant": variant, "value": option.get("value"),
                "detail": option.get("why") or "", "extra": f"{float(option['gems_fallen']):.1f} gems fall"}


#: the desk the web server builds for this game
DESK = RaftDesk
