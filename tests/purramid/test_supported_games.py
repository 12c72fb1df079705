"""Whole games in which a group of dice that is not supported must burst, played by the compiled engine and
by the readable engine (issue 18, item 3): the compiled engine's own support check at stop is what decides
these games, so a compiled engine that ignored "supported" would place tiles where the rules burst."""

import re

from pyradice_lab.engine.rng import spawn
from pyradice_lab.purramid import board, rules, sim
from pyradice_lab.purramid.components import Layout

# the bottom row is hard to fill (only 11s), the rows above are easy: first placements often land on a space
# that is not supported yet, and a policy that stops after one placement then has to keep going or burst
TOWER = Layout.from_rows([[11, 11, 11, 11, 11], [1, 2, 1, 2], [2, 1, 2], [1, 2], [1]], name="tower")
POLICIES = ["stop_after:1", "stop_after:1", "risk:0.3"]


PUTS = re.compile(r"puts \S+ on \d+ \(row (\d+), col (\d+)\)")   # rows and columns from 1


def replay(transcript: str) -> tuple[int, int]:
    """Follow a readable-engine transcript: ``(placements leaving the turn's dice unsupported, turns that
    burst with their dice unsupported)``; checks that every group turned into tiles was supported."""
    covered = placed = 0
    unsupported = bursts = 0
    last_unsupported = False
    for line in transcript.splitlines():
        s = line.strip()
        if s.startswith(("turn with", "bonus turn with")):
            placed, last_unsupported = 0, False
        elif s.startswith("puts "):
            r, c = map(int, PUTS.match(s).groups())
            placed |= 1 << TOWER.index((r - 1, c - 1))
            last_unsupported = not board.is_supported(TOWER, placed, covered)
            unsupported += last_unsupported
        elif s.startswith("stops: conditions hold"):
            assert board.is_supported(TOWER, placed, covered), s
            covered |= placed
        elif s.startswith("BURST"):
            bursts += last_unsupported
    return unsupported, bursts


def test_unsupported_groups_burst_in_whole_games_of_both_engines():
    n, seed = 20, 31
    compiled = sim.simulate_games(n, players=3, layout=TOWER, policies=POLICIES, rng=seed)
    unsupported = doomed = 0
    for i, gen in enumerate(spawn(seed, n)):
        rec = rules.play_game(3, TOWER, policies=POLICIES, rng=gen, trace=True)
        u, b = replay(rec.transcript)
        unsupported, doomed = unsupported + u, doomed + b
        row = compiled.iloc[i]
        for k, v in rec.summary.items():
            if k in compiled.columns:  # the readable engine also reports what only it tracks
                assert row[k] == v, (i, k, row[k], v)
    assert {"bursts", "tiles_on_board", "turns", "end"} <= set(compiled.columns)
    assert unsupported >= 10, "the games must often hold dice on spaces that are not supported"
    assert doomed >= 4, "and some of those turns must burst with their dice unsupported"
    assert compiled["bursts"].sum() >= doomed
