# %% [markdown]
# # The designer's loop: robustness over plausible components and automatic balancing (issue 14 §3-4)
# 1. Robustness: Purramid's 2-player start-player edge and Rocking Raft's 3-player start-player share,
#    each on the packaged components and on plausible reconstructions of the unpublished ones
#    (pyradice_lab.design.robustness: every set plays the same games).
# 2. Balancing, worked case (c): a start-player compensation for 2-player Purramid, searching the 2-player
#    deal (the start player's tiles vs the second player's, 51 in all) that brings the start player's win
#    rate to 50%, verified on fresh seeds.
#
#     python experiments/designer_loop.py [--quick] [--seed N]

# %%
from pyradice_lab import balance, robustness
from pyradice_lab.report.runner import parse_experiment_args

quick, seed, _ = parse_experiment_args(seed=2026)
K, G = (4, 200) if quick else (12, 1500)

for game, finding, kw in [("purramid", "start_player_win < 0.5", {"players": 2, "policies": "greedy"}),
                          ("raft", "start_player_win > 0.3333", {"players": 3, "policies": "greedy"})]:
    r = robustness(game, finding, reconstructions=K, games=G, rng=seed, progress=True, **kw)
    print(f"\n{game}: {r.summary()}")
    print(r.table[["set", "value", "ci_low", "ci_high", "verdict"]].to_string(index=False, float_format="%.3f"))
    print(r.sensitivity.to_string(index=False, float_format="%+.2f"))

# %%
deals = [[28, 23], [27, 24], [26, 25], [25, 26], [24, 27]]
b = balance("purramid", {"deal_2p.value": deals}, "start_player_win = 0.5", players=2, policies="greedy",
            budget=2000 if quick else 12000, first_games=100 if quick else 400,
            verify_games=400 if quick else 4000, rng=seed, progress=True)
print("\n" + b.summary())
print(b.history.to_string(index=False, float_format="%.4f"))
