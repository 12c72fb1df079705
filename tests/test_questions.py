"""One call per question (issue 45, part 5): a metric under two settings of a game with the paired or independent
difference and its CI (Python and CLI); a game's declared questions (Pyradice goal difficulty and card strength
under a chosen player) in the CLI; one keyword for the players; one kind of value per table column."""

from __future__ import annotations

import inspect
import math

import pandas as pd
import pytest

import pyradice_lab as pl
from pyradice_lab import cli
from pyradice_lab.engine import registry


# ------------------------------------------------------------------------------------------------ compare_settings
def test_compare_settings_paired_is_the_paired_difference_of_the_same_seeds():
    from pyradice_lab.design.metrics import metric_values

    res = pl.compare_settings("raft", {"players": 2}, {"players": 3}, "game_length", games=40, policies="greedy",
                              rng=5)
    assert (res.base_label, res.variant_label, res.n_games) == ("players=2", "players=3", 40)
    from pyradice_lab import raft
    from pyradice_lab.engine.rng import fresh_copy, seed_sequence

    root = seed_sequence(5)
    block = root.spawn(1)[0]
    a = raft.simulate_games(40, players=2, policies="greedy", rng=fresh_copy(block))
    b = raft.simulate_games(40, players=3, policies="greedy", rng=fresh_copy(block))
    xa, _ = metric_values("raft", a, "game_length")
    xb, _ = metric_values("raft", b, "game_length")
    d = xb - xa
    assert res.difference.value == pytest.approx(d.mean())
    assert res.difference.se == pytest.approx(d.std(ddof=1) / math.sqrt(40))
    text = str(res)
    assert "b - a: " in text and "40 paired games" in text and "players=2" in text
    assert "3 players (b)" in text and "pairing paired" in text


def test_compare_settings_independent_uses_independent_seeds_and_welch():
    paired = pl.compare_settings("raft", {"players": 2}, {"players": 3}, "game_length", games=40,
                                 policies="greedy", rng=5)
    ind = pl.compare_settings("raft", {"players": 2}, {"players": 3}, "game_length", games=40, policies="greedy",
                              rng=5, pairing="independent")
    assert (ind.base.value, ind.variant.value) != (paired.base.value, paired.variant.value)  # other seeds
    assert ind.difference.se == pytest.approx(math.hypot(ind.base.se, ind.variant.se))
    assert ind.difference.ci_low < ind.difference.value < ind.difference.ci_high
    assert "independent seeds (Welch t interval)" in str(ind) and "common random numbers" not in str(ind)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(a={"players": 3}, b={"players": 3}), "a and b must differ"),
    (dict(a={"players": 3}, b={"nonsense": 1}), "b: simulate_games has no 'nonsense'"),
    (dict(a={"rng": 3}, b={"players": 3}), "a must not set rng"),
    (dict(a={"players": 3}, b={"players": 4}, pairing="both"), "pairing must be one of 'paired', 'independent'"),
])
def test_compare_settings_refuses_bad_settings_before_any_game(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        pl.compare_settings("raft", metric="game_length", games=10, **kwargs)
    with pytest.raises(TypeError, match="a must be a dict"):
        pl.compare_settings("raft", "players=3", {"players": 4})


def test_cli_compare_settings(capsys):
    rc = cli.main(["raft", "compare-settings", "--a", "players=2", "--b", "players=3", "--metric", "game_length",
                   "--games", "30", "--policies", "greedy", "--seed", "2", "--no-progress"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "b - a: " in out.out and "a        players=2" in out.out and "assumptions: game Rocking Raft" in out.out
    assert "pyradice-lab: raft compare settings: 60 games of greedy" in out.err   # the cost, said first
    assert cli.main(["raft", "compare-settings", "--b", "players=3"]) == 2
    assert "--a KEY=VALUE is required" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------------ questions
def test_questions_are_declared_through_the_contract_and_reach_real_functions():
    from pyradice_lab.engine.plan import Question

    for name, spec in registry.games().items():
        for key, q in dict(spec.part("questions", None) or {}).items():
            assert isinstance(q, Question)
            module, _, fn = q.target.partition(":")
            assert callable(registry.lazy(f"{spec.package}.{module}:{fn}").resolve()), (name, key)
    assert set(registry.get_game("pyradice").part("questions")) == {"goals", "cards"}
    with pytest.raises(ValueError, match="target must be 'module:function'"):
        Question("h", "goal_rates", "p_met", ("goal",), "a", "b")


def test_cli_goal_difficulty_and_card_strength_under_a_chosen_player(capsys):
    rc = cli.main(["pyradice", "goals", "--policies", "greedy", "--games", "20", "--seed", "1"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "assumptions: game Pyradice; components packaged (content hash" in out and "policies greedy" in out
    hardest = next(x for x in out.splitlines() if x.startswith("hardest goal under greedy: "))
    assert "% (95% CI " in hardest
    rc = cli.main(["pyradice", "cards", "--policies", "greedy", "--games", "12", "--seed", "1"])
    out = capsys.readouterr().out
    assert rc == 0 and "weakest card under greedy: " in out and "strongest card under greedy: " in out
    assert " VP (95% CI " in out
    assert cli.main(["pyradice", "cards", "--policies", "greedy,lookahead", "--games", "5"]) == 2


def test_answer_lines_rank_lowest_first_and_leave_out_unranked_rows():
    from pyradice_lab._cli_questions import answer_lines
    from pyradice_lab.engine.plan import Question

    q = Question("h", "m:f", "p", ("goal",), "hardest", "easiest", unit="%", where="ok")
    df = pd.DataFrame({"goal": ["x", "y", "z"], "p": [0.5, 0.2, 0.0], "p_ci_low": [0.4, 0.1, 0.0],
                       "p_ci_high": [0.6, 0.3, 0.0], "ok": [True, True, False], "policy": ["g"] * 3})
    lines = answer_lines(df, q, "g")
    assert lines[0].split() == ["y", "20.0%", "(95%", "CI", "10.0..30.0)"]
    assert "z" in lines[2] and "not ranked" in lines[2]
    assert lines[3] == "hardest under g: y, 20.0% (95% CI 10.0..30.0)"
    assert lines[4] == "easiest under g: x, 50.0% (95% CI 40.0..60.0)"


# ------------------------------------------------------------------------------------------------ one keyword
def test_one_keyword_for_the_players_of_the_experiment_functions():
    """Every public experiment function of every game that takes players by keyword takes ``policies=``;
    ``policy=`` is only its deprecated alias (or one player, named in the allow-list)."""
    # one player's rows or parameters, not the seats' line-up: they keep ``policy``
    one_player = {("meerkat", "with_params"), ("meerkat", "head_to_head"), ("pyradice", "available_distribution"),
                  ("pyradice", "by_position"), ("pyradice", "goal_findings")}
    from pyradice_lab.purramid.measures import game_cells

    with pytest.warns(DeprecationWarning, match="game_cells: policy= is renamed policies="):
        game_cells((2,), ("A",), 2, policy="greedy", seed=1)
    for name, spec in registry.games().items():
        if not spec.package.startswith("pyradice_lab."):
            continue
        mod = spec.module("analysis")
        for fname in getattr(mod, "__all__", []):
            fn = getattr(mod, fname, None)
            if not inspect.isfunction(fn) or (name, fname) in one_player:
                continue
            params = inspect.signature(fn).parameters
            if "policy" in params:
                assert "policies" in params and params["policy"].default is None, (name, fname)


def test_card_balance_and_goal_rates_take_policies_and_warn_on_policy():
    from pyradice_lab.pyradice.analysis import card_balance

    new = card_balance(4, 2, policies="greedy", rng=1)
    with pytest.warns(DeprecationWarning, match="policy= is renamed policies="):
        old = card_balance(4, 2, policy="greedy", rng=1)
    assert old.equals(new)


# ------------------------------------------------------------------------------------------------ one kind a column
def test_goal_table_columns_hold_one_kind_of_value():
    from pyradice_lab.pyradice.analysis import goal_findings, goal_rates

    df = goal_rates(10, 2, ("greedy", "lookahead"), rng=2)
    assert (df.level > 0).all() and df.p_met.between(0, 1).all()           # probabilities only
    assert (df.mean_score > 1).all()                                       # the score has its own columns
    per_policy = df.groupby("policy")["mean_score"].nunique()
    assert (per_policy == 1).all()
    names = [f.quantity for f in goal_findings(df)]
    assert "mean score per seat with lookahead instead of greedy" in names
