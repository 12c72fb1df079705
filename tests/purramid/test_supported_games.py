"""Whole games in which a group of dice that is not supported must burst, played by the compiled engine and
by the readable engine (issue 18, item 3): the compiled engine's own support check at stop is what decides
these games, so a compiled engine that ignored "supported" would place tiles where the rules burst."""

from pyradice_lab.purramid import board, rules, sim
from pyradice_lab.purramid.components import Layout
from pyradice_lab.rng import spawn

# the bottom row is hard to fill (only 11s), the rows above are easy: first placements often land on a space
# that is not supported yet, and a policy that stops after one placement then has to keep going or burst
TOWER = Layout.from_rows([[11, 11, 11, 11, 11], [1, 2, 1, 2], [2, 1, 2], [1, 2], [1]], name="tower")
POLICIES = ["stop_after:1", "stop_after:1", "risk:0.3"]


def test_unsupported_groups_burst_in_whole_games_of_both_engines(monkeypatch):
    n, seed = 20, 31
    compiled = sim.simulate_games(n, players=3, layout=TOWER, policies=POLICIES, rng=seed)

    unsupported = []  # every time the readable engine checks a group that does not rest on covered spaces
    check = rules.is_valid

    def counting(layout, placed, covered):
        ok = check(layout, placed, covered)
        if not board.is_supported(layout, placed, covered):
            assert not ok
            unsupported.append(placed)
        return ok

    monkeypatch.setattr(rules, "is_valid", counting)
    doomed = 0
    for i, gen in enumerate(spawn(seed, n)):
        rec = rules.play_game(3, TOWER, policies=POLICIES, rng=gen, trace=True)
        doomed += rec.transcript.count("BURST: no placement can still meet the conditions")
        row = compiled.iloc[i]
        for k, v in rec.summary.items():
            assert row[k] == v, (i, k, row[k], v)
        # the board is only ever built bottom-up: every covered space rests on covered spaces
        covered = TOWER.all_mask if rec.summary["end"] == "board_full" else None
        if covered is not None:
            assert board.is_supported(TOWER, covered, 0)
    assert len(unsupported) >= 15, "the games must often hold dice on spaces that are not supported"
    assert doomed >= 4, "and some of those turns must burst"
    assert compiled["bursts"].sum() >= doomed
