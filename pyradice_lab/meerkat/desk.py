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

from ..engine.desk import Desk, RequestError, int_field as _int, pick as _pick

__all__ = ["MeerkatDesk", "DESK"]

class MeerkatDesk(Desk):
    name, title = "meerkat", "Meerkat Kingdom"
    fields = ("position", "objective", "policy")
    query = ("seed", "players", "turn", "stage")
    #: the last turn the layout endpoint replays to: twice the longest of 900 simulated games (29 turns; 1 to 3
    #: players, 300 games each), so a turn no game reaches is refused before any replay (a whole game's replay
    #: takes seconds)
    max_turn = 60
    #: the advisor's player: the report player ``mcts_v2`` searches inside the compiled game engine and gives
    #: no value per option to rank, so the desk ranks with the evaluation it plays on every decision it does not
    #: search
    player = "expectimax_v2"
    player_why = ("the report player mcts_v2 searches with rollouts inside the compiled game engine and gives no "
                  "value per option to rank; expectimax_v2 is the evaluation mcts_v2 plays on every decision it "
                  "does not search (it beats expectimax 0.75 head to head), exact and well under a second")
    #: replayed games remembered (each: its positions up to the turn asked, or all of them)
    games_cached = 16

    def layout(self, query) -> dict:
        q = self.check_query(query)
        seed = _int(q, "seed", 1, 0, 10 ** 6)
        players = _int(q, "players", 2, 1, 3)
        turn = _int(q, "turn", 1, 1, self.max_turn)  # from 1, as the transcript
        stage = _pick(q, "stage", ("reroll", "action"), "reroll")
        from .advisor import _TOKENS, BURROW_ACTIONS, _setup
        from .components import default_components  # after the checks: a refusal imports nothing

        pos = self.run(lambda: self._replay(seed, players, turn, stage == "action"))
        comp = default_components()
        V = _setup(comp).V
        tiles = [{"tile": t, "values": [int(x) for x in V[t, 1:1 + V[t, 0]]]} for t in range(3, 13)]
        return {"game": self.name, "title": self.title, "seed": seed, "players": players, "turn": turn,
                "stage": stage, "rows": list(comp.rows), "tiles": tiles, "meerkats": int(comp.meerkats),
                "tokens": list(_TOKENS), "burrow": list(BURROW_ACTIONS), "position": pos.document(),
                "seats": pos.seats, "automa": pos.automa}

    def advise(self, body, gate: bool = True) -> dict:
        from .advisor import OBJECTIVES, POLICIES, advise, load_position

        body = self._body(body, gate)
        objective = self._choice(body, "objective", OBJECTIVES, "margin")
        policy = self._choice(body, "policy", POLICIES, self.player)
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
                "best": options[0], "player": policy}

    # the recommendation in the table's words (engine/recommend.py)
    def value_name(self, answer: dict) -> tuple[str, bool]:
        if str(answer.get("objective", "")).startswith("expected end-of-game points margin"):
            return "points expected ahead of the others at the end", False
        return "points expected at the end", False

    def describe(self, option: dict, answer: dict) -> dict:
        label, tile, n = str(option["option"]), option.get("tile"), option.get("meerkats")
        if tile is not None and n is not None:
            label = (f"put the queen on tile {tile}" if n < 0 else
                     f"put {n} meerkat{'s' if n != 1 else ''} on tile {tile}") if n else label
        return {"label": label, "value": option.get("value"), "detail": option.get("why") or ""}

    def _replay(self, seed: int, players: int, turn: int, after_reroll: bool):
        """The position at ``turn`` of the seeded game, replayed once per game (positions remembered): a turn
        past the game's end is refused from the remembered end after one replay."""
        from .advisor import positions_from_game

        key = ("game", seed, players, after_reroll)
        game = self.cached(key, lambda: {"turns": {}, "complete": False})
        if turn in game["turns"]:
            return game["turns"][turn]
        if not game["complete"]:
            seen = game["turns"]
            last = max(seen, default=-1)
            for t, pos in positions_from_game(seed, players=players, after_reroll=after_reroll):
                if t > last:
                    seen[t] = pos
                if t >= turn:
                    break
            else:
                game["complete"] = True
            if turn in seen:
                return seen[turn]
        some = sorted(game["turns"])
        last = f", last {some[-1] if some else None}" if game["complete"] else ""
        raise RequestError(f"turn must be a turn at which a player rolls in game {seed!r} (e.g. {some[:8]}{last}), "
                           f"got {turn}")


#: the desk the web server builds for this game
DESK = MeerkatDesk
