"""Issue 47 item 2: the faster exact solver plays THE SAME games as the solver it replaced.

``tests/golden/purramid_optimal_games.json`` was recorded with the exact solver as it was before issue 47
(its files as of commit 8ee05d9; ``python tests/purramid/test_optimal_identity.py --regenerate`` run on that
commit; the transcripts' digests again on 029a0bb, which labels spaces from 1 and left the solver as it was):

- ``frames``: every row of :func:`~pyradice_lab.purramid.sim.simulate_games` (the compiled game loop) for
  several lineups of optimal seats (2, 3 and 4 players, both sides, every objective, bonus modes, no yarn):
  turns, scores, bursts, bonus turns, tokens, dice rolled (a different choice anywhere shifts every later
  roll) and the sums of the exact turn values solved (``expected_p``) and realised (``value_p``);
- ``transcripts``: the SHA-256 of the readable engine's full transcripts (:func:`~.rules.play_game`: every
  roll, placement, reroll, stop and burst) of all-optimal games.

The test plays them again and requires identical integers and transcripts, and exact values equal to 1e-9
(they are sums of floating-point expectations: the order of additions may differ, never a decision).
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "purramid_optimal_games.json"

#: (name, players, side, policies, seed, games, yarn_tokens); policies are strings (see _policies)
FRAMES = [
    ("4p A all optimal", 4, "A", ["optimal"] * 4, 2024, 12, True),
    ("4p B all optimal", 4, "B", ["optimal"] * 4, 7, 6, True),
    ("3p A mixed objectives", 3, "A", ["optimal", "optimal:at_least:4", "greedy"], 3, 6, True),
    ("2p B exact bonus, at_least", 2, "B", ["optimal(bonus=exact, yarn_value=1)", "optimal:at_least:3"], 11, 6,
     True),
    ("2p A no yarn", 2, "A", ["optimal", "optimal"], 5, 4, False),
    ("4p A approx bonus vs risk", 4, "A", ["optimal(bonus=approx)", "risk:0.35", "optimal", "stop_after:2"], 9, 4,
     True),
]
#: (name, players, side, policies, seed, games) of the readable engine's transcripts
TRANSCRIPTS = [
    ("4p A all optimal", 4, "A", ["optimal"] * 4, 5, 3),
    ("2p B at_least", 2, "B", ["optimal:at_least:4", "optimal(bonus=exact)"], 6, 2),
]
FLOAT_PREFIXES = ("expected_", "value_")


def _policies(names):
    from pyradice_lab.purramid.policies import optimal

    out = []
    for p in names:
        if p == "optimal(bonus=exact, yarn_value=1)":
            out.append(optimal(bonus="exact", yarn_value=1.0))
        elif p == "optimal(bonus=exact)":
            out.append(optimal(bonus="exact"))
        elif p == "optimal(bonus=approx)":
            out.append(optimal(bonus="approx"))
        else:
            out.append(p)
    return out


def _frame_rows(players, side, pols, seed, games, yarn_tokens):
    from pyradice_lab.purramid.sim import simulate_games

    df = simulate_games(games, players=players, layout=side, policies=_policies(pols), rng=seed,
                        yarn_tokens=yarn_tokens)
    cols = [c for c in df.columns if c not in ("game", "players", "layout", "policies", "end")]
    rows = []
    for _, r in df.iterrows():
        row = {"end": r["end"]}
        for c in cols:
            v = r[c]
            if c.startswith(FLOAT_PREFIXES):
                row[c] = None if math.isnan(v) else float(v)
            else:
                row[c] = int(v)
        rows.append(row)
    return rows


def _transcript_digests(players, side, pols, seed, games):
    from pyradice_lab.engine.rng import spawn
    from pyradice_lab.purramid.rules import play_game

    out = []
    for gen in spawn(seed, games):
        rec = play_game(players, side, policies=_policies(pols), rng=gen, trace=True)
        out.append(hashlib.sha256(rec.transcript.encode()).hexdigest())
    return out


def record() -> dict:
    """The games of :data:`FRAMES` and :data:`TRANSCRIPTS` as the solver in use plays them."""
    return {
        "recorded_with": "the exact solver before issue 47 (commit 8ee05d9)",
        "frames": {name: _frame_rows(*args) for name, *args in FRAMES},
        "transcripts": {name: _transcript_digests(*args) for name, *args in TRANSCRIPTS},
    }


def dumps(data: dict) -> str:
    """The golden file's text: one line per game (compact, and a changed game is one changed line)."""
    lines = ["{", f'"recorded_with": {json.dumps(data["recorded_with"])},', '"frames": {']
    for i, (name, rows) in enumerate(data["frames"].items()):
        body = ",\n".join(json.dumps(r, sort_keys=True) for r in rows)
        lines.append(f"{json.dumps(name)}: [\n{body}\n]" + ("," if i + 1 < len(data["frames"]) else ""))
    lines.append("},")
    lines.append(f'"transcripts": {json.dumps(data["transcripts"], indent=1)}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _golden() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("name", [f[0] for f in FRAMES])
def test_compiled_games_are_the_recorded_games(name):
    args = next(f[1:] for f in FRAMES if f[0] == name)
    want = _golden()["frames"][name]
    got = _frame_rows(*args)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert set(g) == set(w), (name, i)
        for c, wv in w.items():
            gv = g[c]
            if c.startswith(FLOAT_PREFIXES) and wv is not None:
                assert gv is not None and abs(gv - wv) <= 1e-9, (name, f"game {i + 1}", c, gv, wv)
            else:
                assert gv == wv, (name, f"game {i + 1}", c, gv, wv)


@pytest.mark.parametrize("name", [t[0] for t in TRANSCRIPTS])
def test_readable_engine_transcripts_are_the_recorded_ones(name):
    args = next(t[1:] for t in TRANSCRIPTS if t[0] == name)
    assert _transcript_digests(*args) == _golden()["transcripts"][name]


if __name__ == "__main__":  # pragma: no cover - run once, on the solver the golden file must describe
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(f"usage: python {sys.argv[0]} --regenerate   (rewrites {GOLDEN.name}; only on the old solver)")
    GOLDEN.write_text(dumps(record()))
    print(f"wrote {GOLDEN}")
