# %% [markdown]
# # Meerkat Kingdom: tile values so that every tile pays the same per meerkat (issue 29, worked case (a))
#
# `pyradice_lab.balance` over the values of seven reconstructed tiles at once (tile 6 keeps the rules' 6/3),
# each within a range a designer would accept (the packaged values and a step or two towards the board mean,
# highest value first), with the family objective `tile_pay_excess:* = 0`: every tile's points per meerkat equal to the
# board's, the search minimising the largest absolute excess over the ten tiles. 3 players without the automa, played
# by expectimax (the report player, mcts, costs about a second of CPU a game: 20,000 games would be hours).
# The proposal is verified on fresh seeds; the table is every tile's excess before and after with its 95% CI.
#
#     python experiments/meerkat_tile_values_balance.py [--quick] [--seed N] [--out DIR]

# %%
from pathlib import Path

from pyradice_lab import balance
from pyradice_lab.engine.figures import objectives_figure
from pyradice_lab.report import ExperimentResult, run_experiment

PARAMETERS = {
    "tile.3.values": [[9, 4], [10, 5]],
    "tile.4.values": [[7, 3], [8, 4]],
    "tile.5.values": [[7, 3], [8, 4], [9, 4]],
    "tile.7.values": [[6, 3], [7, 3], [8, 4]],
    "tile.9.values": [[7, 4, 2], [6, 3, 2]],
    "tile.11.values": [[9, 5, 2], [8, 4, 2], [7, 3, 2]],
    "tile.12.values": [[11, 6, 3], [9, 5, 2], [8, 4, 2], [7, 3, 2]],
}
POLICY = "expectimax"
GRID = 1
for choices in PARAMETERS.values():
    GRID *= len(choices)


def make(quick: bool, seed: int) -> ExperimentResult:
    budget, first, verify = (1500, 20, 300) if quick else (12000, 60, 2000)
    b = balance("meerkat", PARAMETERS, "tile_pay_excess:* = 0", players=3, policies=POLICY, budget=budget,
                first_games=first, verify_games=verify, rng=seed, game_kwargs={"automa": False})
    out = Path("reports/proposals")
    out.mkdir(parents=True, exist_ok=True)
    toml = b.to_toml(out / "meerkat_tile_values.toml")
    table = b.objectives.round(4)
    reading = (f"{b.summary()} Proposal written to {toml} (ready for --components). The search tried "
               f"{len(b.history[b.history['round'] == 0])} of the {GRID} combinations (sampled "
               f"reproducibly), {POLICY} players; before/after on {verify} fresh games each.")
    return ExperimentResult("meerkat_tile_values_balance", "Meerkat Kingdom: tile values for an even pay per meerkat",
                            reading, table, objectives_figure(b.objectives, unit="points per meerkat",
                                                              label="tile"),
                            question="Which tile values make every tile pay the same per meerkat?",
                            meta={"games": verify, "budget": budget, "games_used": b.games_used,
                                  "reached": b.reached, "values": repr(b.values)},
                            method=f"balance, successive halving with common random numbers, budget {budget} "
                                   f"games, 3 {POLICY} players, no automa; verification on fresh seeds")


run_experiment(make, seed=2026)
