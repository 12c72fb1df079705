"""A golden transcript of one seeded game (reviewed by eye once: placements above two dice, skill effects
(A2 quarter turns, A5 level flips, A6 swaps), goal and card scores all checked by hand).

The test only compares; it never writes.  After a deliberate change of the rules, the policies or the transcript
format, regenerate the file with a separate command and review the diff by eye before committing it::

    .venv/bin/python tests/pyradice/test_golden.py --regenerate
"""

import sys
from pathlib import Path

from pyradice_lab.pyradice import play_game

GOLDEN = Path(__file__).with_name("golden_game.txt")


def golden_game():
    """The reviewed game: 2 players, default setup, greedy against lookahead, seed 2026."""
    return play_game(2, None, ["greedy", "lookahead"], rng=2026)


def test_golden_transcript():
    rec = golden_game()
    assert rec.transcript + "\n" == GOLDEN.read_text()
    assert rec.totals == [46, 60] and rec.winners == [1]


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(f"usage: python {sys.argv[0]} --regenerate   (rewrites {GOLDEN.name}; review the diff by eye)")
    GOLDEN.write_text(golden_game().transcript + "\n")
    print(f"wrote {GOLDEN}")
