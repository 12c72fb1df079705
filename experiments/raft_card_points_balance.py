# %% [markdown]
# # Rocking Raft: card points proportional to the turns a card is held (issue 29, worked case (b))
#
# The kernel records, per game and card, the own turns each lifeboat is held until completed
# (`simulate_games(..., card_columns=True)`: `completed_turns_c<i>`), and `points_per_turn_held:K` is card K's
# points per such turn. Points proportional to the turns held means every card pays the same per turn held:
# the family objective `points_per_turn_held:* = R`, with R the packaged deck's own rate (every card's points
# over every card's turns held until completed, measured first on separate games), so the proposal keeps the
# deck's overall pay. The levers are the eight groups of cards of the same size and points (each group moved
# together: a parameter key of several paths), one point down or up where the deck allows. With 39 objectives
# the search minimises the sum of squared excesses (`combine="sumsq"`): the largest absolute excess alone leaves every
# card but the worst free to move away from its target (a first run with "max" raised the 3-slot 4-point cards
# to 5, overpaying, because the 1-point cards' deficit dominated the maximum). 3 players, every seat the
# report player (exact); verified on fresh seeds.
#
#     python experiments/raft_card_points_balance.py [--quick] [--seed N] [--out DIR]

# %%
from collections import defaultdict
from pathlib import Path

import numpy as np

from pyradice_lab import balance, raft
from pyradice_lab.engine.figures import objectives_figure
from pyradice_lab.engine.registry import get_game
from pyradice_lab.report import ExperimentResult, run_experiment

POLICY = get_game("raft").report_player


def groups() -> dict:
    """The balance parameters: every group of cards with the same size and points, one point down/up."""
    g = defaultdict(list)
    for card in raft.default_components().deck:
        g[(card.size, card.points)].append(card.id)
    return {",".join(f"card.{i}.points" for i in ids): sorted({max(1, pts - 1), pts, pts + 1})
            for (size, pts), ids in sorted(g.items())}


def make(quick: bool, seed: int) -> ExperimentResult:
    budget, first, verify, pilot = (1200, 20, 300, 300) if quick else (6000, 40, 1500, 1500)
    df = raft.simulate_games(pilot, players=3, policies=POLICY, card_columns=True,
                              rng=np.random.SeedSequence([seed, 1]))
    m = len(df.attrs["card_ids"])
    pts = np.asarray(df.attrs["card_points"], float)
    rate = float((pts * df[[f"completed_c{i}" for i in range(m)]].sum().to_numpy()).sum()
                 / df[[f"completed_turns_c{i}" for i in range(m)]].sum().sum())
    target = round(rate, 2)
    b = balance("raft", groups(), f"points_per_turn_held:* = {target}", players=3, policies=POLICY,
                budget=budget, first_games=first, verify_games=verify, rng=seed, combine="sumsq")
    out = Path("reports/proposals")
    out.mkdir(parents=True, exist_ok=True)
    toml = b.to_toml(out / "raft_card_points.toml")
    t = b.objectives.copy()
    t["card"] = t["metric"].str.split(":").str[1].astype(int)
    comp = raft.default_components()
    t["points_before"] = [comp.get(f"card.{k}.points") for k in t["card"]]
    t["points_after"] = [b.components.get(f"card.{k}.points") for k in t["card"]]
    spread = {w: float(t[w].max() - t[w].min()) for w in ("before", "after")}
    reading = (f"Packaged deck: {target:g} points per own turn held until completed ({pilot} pilot games). "
               f"{b.summary()} Spread of the card rates (largest less smallest): {spread['before']:.2f} before, "
               f"{spread['after']:.2f} after. Proposal written to {toml}.")
    return ExperimentResult("raft_card_points_balance", "Rocking Raft: card points proportional to turns held",
                            reading, t.round(4), objectives_figure(b.objectives, unit="points per turn held",
                                                                   label="card"),
                            question="Which card points pay every lifeboat the same per turn "
                                                          "it is held?",
                            meta={"games": verify, "budget": budget, "games_used": b.games_used, "target": target,
                                  "reached": b.reached, "values": repr(b.values)},
                            method=f"balance over 8 card groups (sum of squared excesses), budget {budget} "
                                   f"games, 3 {POLICY} players, verification on fresh seeds")


run_experiment(make, seed=2026)
