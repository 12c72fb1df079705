"""The Rocking Raft advisor: positions (file format, from seeded games), advise against the exact player and
against brute-force sums over the outcome distribution, the sampled policy, the loading decision, the CLI."""

import json

import numpy as np
import pytest

from pyradice_lab.cli import main
from pyradice_lab.raft import advisor
from pyradice_lab.raft.advisor import (
    advise,
    load_position,
    position_from_game,
    positions_from_game,
    tilt_outcomes,
)
from pyradice_lab.raft.loading import load
from pyradice_lab.raft.odds import fallen_joint_pmf

GAMES = [(1, 2, "standard"), (2, 3, "sinking"), (3, 4, "standard"), (4, 3, "standard"), (5, 2, "sinking"),
         (6, 4, "sinking"), (7, 3, "standard"), (8, 2, "standard"), (9, 3, "sinking"), (10, 4, "standard"),
         (11, 3, "standard"), (12, 2, "standard"), (13, 4, "sinking"), (14, 3, "standard")]


def _positions(games, **kw):
    for seed, players, variant in games:
        for turn, pos in positions_from_game(seed, players=players, variant=variant, **kw):
            yield (seed, players, variant, turn), pos


def _top(df):
    return df["edge"].iloc[0], df["finger"].iloc[0], float(df["duration"].iloc[0])


def test_advise_top_option_is_the_exact_players_choice_on_a_few_positions():
    n = 0
    for where, pos in _positions(GAMES[:1]):
        df = advise(pos)
        assert _top(df) == pos.played, where
        assert df["regret"].iloc[0] == 0 and (df["regret"] >= 0).all() and len(df) == 110
        assert df["se"].isna().all() and df["ci_low"].isna().all()
        n += 1
    assert n >= 6


@pytest.mark.slow
def test_advise_top_option_is_the_exact_players_choice_on_100_positions():
    n = 0
    for where, pos in _positions(GAMES):
        assert _top(advise(pos)) == pos.played, where
        n += 1
    assert n >= 100, n


def _brute_completed(pos, edge, finger, duration):
    """Expected points completed this turn: every outcome of the joint pmf loaded by the public loader."""
    comp = pos.comp
    boats = [{"slots": dict(zip(comp.gems.slot_colours, comp.deck[c].slots)), "points": comp.deck[c].points,
              "filled": dict(zip(comp.gems.slot_colours, f.tolist()))} for c, f, _ in pos.boats[pos.seat]]
    pmf = fallen_joint_pmf(pos.raft, edge, finger, duration, {"timing_noise": pos.skill})
    pmf = pmf[pmf["p"] > 0]
    total, cache = 0.0, {}
    for row in pmf.itertuples(index=False):
        x = tuple(int(v) for v in row[:4])
        if x not in cache:
            cache[x] = load(list(x), boats).points if boats else 0
        total += row.p * cache[x]
    return total


@pytest.mark.parametrize("seed, players, variant, turn", [(7, 3, "standard", 3), (2, 3, "sinking", 5),
                                                          (3, 4, "standard", 8)])
def test_exact_values_equal_brute_force_over_the_outcome_pmf(seed, players, variant, turn):
    pos = position_from_game(seed, turn, players=players, variant=variant)
    df = advise(pos, objective="completed")
    assert df["objective"].iloc[0] == "expected points completed this turn"
    picks = df.iloc[[0, 7, 60, 109]]
    for r in picks.itertuples(index=False):
        assert r.value == pytest.approx(_brute_completed(pos, r.edge, r.finger, r.duration), abs=1e-8)
    # the exact player's value: the compiled capped sums equal the full joint pmf summed outcome by outcome
    pts = advise(pos)
    for r in pts.iloc[[0, 40]].itertuples(index=False):
        out = tilt_outcomes(pos, r.edge, r.finger, r.duration)
        assert r.value == pytest.approx(float((out["p"] * out["value"]).sum()), abs=1e-8)


def test_outcome_table_of_the_top_tilt_is_an_exact_distribution():
    pos = position_from_game(7, 3)
    df = advise(pos)
    out = df.attrs["outcomes"]
    assert out["p"].sum() == pytest.approx(1.0, abs=1e-12)
    assert out["p"].is_monotonic_decreasing
    assert (out["total"] == out[["red", "yellow", "blue", "black"]].sum(axis=1)).all()
    mean = (out["total"] * out["p"]).sum()
    assert mean == pytest.approx(df["gems_fallen"].iloc[0], abs=1e-9)
    assert "completes" in out["load"].iloc[0]
    assert "secures the 3-slot lifeboat #18 R-YY (3)" in df["why"].iloc[0]


def test_sampled_policy_agrees_with_the_exact_values_within_its_intervals():
    pos = position_from_game(7, 3)
    exact = advise(pos).set_index(["edge", "finger", "duration"])["value"]
    mc = advise(pos, policy="sampled", samples=400, rng=1)
    assert (mc["se"] > 0).all() and (mc["ci_low"] < mc["value"]).all() and (mc["value"] < mc["ci_high"]).all()
    z = (mc.set_index(["edge", "finger", "duration"])["value"] - exact) / mc.set_index(["edge", "finger",
                                                                                       "duration"])["se"]
    assert (z.abs() < 5).all() and z.abs().mean() < 1.5
    # the sampled top option is the exact best, or the exact best lies within its interval
    best = exact.max()
    assert _top(mc) == _top(advise(pos)) or mc["ci_low"].iloc[0] <= best <= mc["ci_high"].iloc[0] + 4 * mc["se"].iloc[0]
    again = advise(pos, policy="sampled", samples=400, rng=1)
    assert again["value"].tolist() == mc["value"].tolist()       # seeded


def test_loading_decision_ranks_every_maximal_loading_and_includes_the_engines():
    n = better = 0
    for where, pos in _positions(GAMES[:2], after_tilt=True):
        df = advise(pos)
        fill, left = pos.played
        eng = df[df["engine"]]
        assert len(eng) == 1, where
        assert np.array_equal(eng["fill"].iloc[0], fill) and np.array_equal(eng["leftover"].iloc[0], left)
        assert df["regret"].iloc[0] == 0 and eng["regret"].iloc[0] >= 0
        better += not df["engine"].iloc[0]
        n += 1
    assert n >= 12 and better < n / 4


def test_the_engines_loading_is_valued_like_the_outcome_of_the_tilt():
    before = position_from_game(2, 5, players=3, variant="sinking")
    after = position_from_game(2, 5, players=3, variant="sinking", after_tilt=True)
    out = tilt_outcomes(before, *before.played)
    x = after.fallen
    row = out[(out[["red", "yellow", "blue", "black"]].to_numpy() == x).all(axis=1)]
    df = advise(after)
    assert df[df["engine"]]["value"].iloc[0] == pytest.approx(row["value"].iloc[0], abs=1e-9)


def test_position_files_round_trip_in_toml_and_json(tmp_path):
    pos = position_from_game(2, 5, players=3, variant="sinking")
    (tmp_path / "p.toml").write_text(pos.to_toml())
    (tmp_path / "p.json").write_text(json.dumps(pos.document()))
    ref = advise(pos)["value"].tolist()
    for name in ("p.toml", "p.json"):
        back = load_position(tmp_path / name)
        assert back.document() == pos.document()
        assert advise(back)["value"].tolist() == ref


def _doc():
    return position_from_game(7, 3).document()


@pytest.mark.parametrize("change, key", [
    (lambda d: d.update(players=5), "players"),
    (lambda d: d.update(to_move=4), "to_move"),
    (lambda d: d.update(to_move=0), "to_move"),           # seats are numbered from 1
    (lambda d: d.update(flag=40), "flag"),
    (lambda d: d.update(varaint="sinking"), "varaint"),
    (lambda d: d["raft"][1].__setitem__(1, "R3 Q1"), "raft[1][1]"),
    (lambda d: d["raft"][1].__setitem__(1, "R30"), "raft"),
    (lambda d: d["raft"].pop(), "raft"),
    (lambda d: d["seat"][1]["boats"][0].update(card=99), "seat.2.boats[0].card"),
    (lambda d: d["seat"][1]["boats"][0].update(card=18), "seat.2.boats[0].card"),
    (lambda d: d["seat"][0]["boats"][0].update(filled="R1 Y2"), "seat.1.boats[0].filled"),
    (lambda d: d["seat"][0]["boats"][0].update(filled="K1"), "seat.1.boats[0].filled"),
    (lambda d: d["seat"][0]["boats"][0].update(water=1), "seat.1.boats[0].water"),
    (lambda d: d["seat"].pop(), "seat"),
    (lambda d: d.update(fallen="R9"), "fallen"),
])
def test_bad_positions_name_the_key(change, key):
    doc = _doc()
    change(doc)
    with pytest.raises(ValueError) as err:
        load_position(doc)
    assert key in str(err.value)


def test_bad_arguments_name_the_parameter():
    pos = position_from_game(7, 3)
    for kw, name in [({"objective": "tiles"}, "objective"), ({"policy": "mcts"}, "policy"),
                     ({"samples": 1}, "samples"), ({"params": 3}, "params")]:
        with pytest.raises(ValueError, match=name):
            advise(pos, **kw)
    with pytest.raises(ValueError, match="turn must be at most 9"):
        position_from_game(7, 300)
    with pytest.raises(ValueError, match="turn"):
        position_from_game(7, 0)
    with pytest.raises(ValueError, match="after_tilt"):
        position_from_game(7, 1, after_tilt="yes")
    with pytest.raises(TypeError, match="position"):
        load_position(3)


def test_cli_advise_from_a_game_and_from_a_file(capsys, tmp_path):
    dump = tmp_path / "pos.toml"
    assert main(["raft", "advise", "--game-seed", "7", "--turn", "3", "--dump-position", str(dump)]) == 0
    out = capsys.readouterr().out
    assert "Raft (north at the top):" in out and "seat 1 (to tilt)" in out
    assert "played in the game: north right 1 s, rank 1, regret 0.000" in out
    assert "exact distribution of the gems fallen" in out and "P(total fallen)" in out
    assert main(["raft", "advise", "--position", str(dump), "--top", "3", "--outcomes", "0"]) == 0
    out2 = capsys.readouterr().out
    assert "north  right" in out2 and "... 107 more options" in out2
    assert main(["raft", "advise", "--game-seed", "1", "--turn", "4", "--players", "2", "--after-tilt"]) == 0
    assert "every loading of the gems that fell" in capsys.readouterr().out


def test_cli_advise_bad_input_is_one_line_and_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(position_from_game(7, 3).to_toml().replace("card = 16", "card = 99"))
    for argv, word in [(["--position", str(bad)], "seat.2.boats[0].card"), (["--turn", "3"], "--game-seed"),
                       (["--game-seed", "7"], "--turn"), (["--game-seed", "7", "--turn", "99"], "turn"),
                       (["--position", str(tmp_path / "none.toml")], "no such file"), ([], "--position")]:
        assert main(["raft", "advise", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and word in err, (argv, err)


def test_position_spec_is_a_schema_table():
    spec = advisor.position_spec()
    assert {"players", "to_move", "raft", "seat", "flag", "fallen"} <= set(spec.fields)


def test_the_guides_example_position_file_is_turn_3_of_game_7():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "raft.md").read_text(encoding="utf-8")
    start = text.index("```toml\n# Rocking Raft position: seat 1 to tilt\n") + len("```toml\n")
    block = text[start:text.index("```", start)]
    assert block == position_from_game(7, 3).to_toml()
    assert load_position(__import__("tomllib").loads(block)).document() == position_from_game(7, 3).document()


def test_the_most_likely_outcome_named_in_then_is_the_most_likely_one():
    """Issue 46: each option's ``then`` names the outcome of highest probability and its probability, as the
    independent exact pmf of :func:`tilt_outcomes` (most likely first) gives them, for several options."""
    import re

    pos = position_from_game(3, 2, players=2)
    df = advisor.advise(pos)
    letters = "RYBK"
    for i in (0, 5, len(df) - 1):
        row = df.iloc[i]
        m = re.match(r"most likely (\S+) \(p (\d\.\d\d)\)", row["then"])
        assert m, row["then"]
        out = tilt_outcomes(pos, row["edge"], row["finger"], row["duration"], described=1)
        top = out.iloc[0]
        assert float(m.group(2)) == pytest.approx(top["p"], abs=0.005)
        assert top["p"] >= out["p"].max() - 1e-12
        counts = dict(re.findall(r"([A-Z])(\d+)", m.group(1))) if m.group(1) != "nothing" else {}
        named = [int(counts.get(c, 0)) for c in letters]
        best = [[int(r.red), int(r.yellow), int(r.blue), int(r.black)] for r in out.itertuples()
                if r.p >= top["p"] - 1e-12]
        assert named in best, (named, best)
