"""Pyradice's web desk: the table companion's endpoints for this game (:mod:`pyradice_lab.engine.desk`).

``GET /api/pyradice/layout`` answers :meth:`PyradiceDesk.layout` (the quarry, the pyramid's spaces and the seeded
deal's starting position) and ``POST /api/pyradice/advise`` answers :meth:`PyradiceDesk.advise` (a ``position``
document, validated by :func:`.advisor.load_position`, and the options ``objective``, ``policy``, ``samples``,
``candidates`` and ``seed``, at most :data:`MAX_ROLLOUTS` rollouts per request).

Examples
--------
>>> desk = DESK()
>>> desk.layout({})["n"]
47
"""

from __future__ import annotations

from ..engine.desk import Desk, RequestError, int_field as _int, num as _num

__all__ = ["PyradiceDesk", "DESK", "MAX_ROLLOUTS"]


#: the most rollouts one Pyradice request may ask for (samples x candidates): a few seconds of CPU
MAX_ROLLOUTS = 2048

class PyradiceDesk(Desk):
    name, title = "pyradice", "Pyradice"
    fields = ("position", "objective", "policy", "samples", "candidates", "seed")
    shown = 30

    def layout(self, query) -> dict:
        from .components import Setup
        from .geometry import PYRAMID, quarry_geometry
        from .quarry import colour_letters
        from .rules import deal, first_player
        from .scoring import Table

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
        position = {"players": players, "to_move": first + 1, "first_player": first + 1,   # seats from 1
                    "setup": {"skills": list(setup.skills), "goals": list(setup.goals), "cards": list(setup.cards),
                              "discs": [names[x] for x in d.discs]},
                    "quarry": {key: [" ".join(f"{d.values[geom.index(k, r, c)]}{letters[d.colours[geom.index(k, r, c)]]}"
                                              for c in range(geom.shapes[k][1])) for r in range(geom.shapes[k][0])]
                               for k, key in enumerate(("bottom", "middle", "top"))},
                    "seat": [{"seat": s + 1, "pyramid": list(empty)} for s in range(players)]}
        return {"game": self.name, "title": self.title, "seed": seed, "players": players, "n": geom.n,
                "shapes": [list(x) for x in geom.shapes], "dice": dice, "spaces": spaces, "letters": letters,
                "colours": names, "cards": table.card_labels(), "describe": setup.describe(), "position": position}

    def warm_body(self) -> dict:
        return {"position": self.layout({})["position"], "samples": 2, "candidates": 2}

    def advise(self, body, gate: bool = True) -> dict:
        from .advisor import OBJECTIVES, POLICIES, advise, load_position

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
                "best": options[0], "moves": len(df), "samples": samples, "candidates": candidates, "seed": seed,
                "player": policy}


def _afters(pos, df) -> list[tuple[list, list]]:
    """The mover's pyramid after each move of ``df`` (the readable rules: place, then the skill option)."""
    from .geometry import PYRAMID
    from .scoring import Table
    from .skills import apply_action, skill_options

    table = Table.build(pos.setup, pos.discs)
    v0, c0 = ([int(x) for x in a] for a in pos.pyramids[pos.seat])
    out = []
    for r in df.itertuples(index=False):
        v, c = apply_action(v0, c0, ((int(r.place), int(pos.values[r.take]), int(pos.colours[r.take])),))
        if r.skill >= 0:
            tok = table.skills[int(PYRAMID.level_of[r.place])]
            v, c = apply_action(v, c, skill_options(tok, v, c, int(r.place))[int(r.skill)])
        out.append(([int(x) for x in v], [int(x) for x in c]))
    return out


#: the desk the web server builds for this game
DESK = PyradiceDesk
