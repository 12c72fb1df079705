"""A golden transcript of one seeded game (reviewed by eye once: placements above two dice, skill effects
(A2 quarter turns, A5 level flips, A6 swaps), goal and card scores all checked by hand)."""

import os
from pathlib import Path

from pyradice_lab.pyradice import play_game

GOLDEN = Path(__file__).with_name("golden_game.txt")


def test_golden_transcript():
    rec = play_game(2, None, ["greedy", "lookahead"], rng=2026)
    text = rec.transcript + "\n"
    if os.environ.get("PYRADICE_REGENERATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
    assert rec.totals == [46, 60] and rec.winners == [1]
