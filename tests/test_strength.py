"""The Bradley-Terry ladder and restricted play: the fit against known strengths and brute force, seatings,
seeds, flags, validation; the games' registered players and restrictions."""

import importlib
import itertools

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.design import strength
from pyradice_lab.design.strength import (
    ELO_PER_LOGIT,
    fit_bradley_terry,
    ladder,
    lineups,
    restricted_play,
    wilson_interval,
)
from pyradice_lab.engine import registry
from pyradice_lab.engine.outcomes import outcome_frame
from pyradice_lab.engine.stats import proportion_estimate

# ----------------------------------------------------------------------------------------- a toy game
TRUE = {"weak": -1.0, "mid": 0.0, "strong": 0.8, "mid/dead": 0.0, "mid/key": -8.0, "mid/bad": 0.7,
        "strong/dead": 0.8, "strong/key": -8.0, "strong/bad": 1.5}


TIES = {"share": 0.0}


def toy_lineup(policies, n_games, *, rng=None, progress=False):
    """Plackett-Luce games (for two players exactly Bradley-Terry) with strengths TRUE; seat 0 starts; a share
    TIES["share"] of the games ends all square (a shared win)."""
    gen = np.random.default_rng(rng)
    theta = np.array([TRUE[p] for p in policies])
    perf = theta + gen.gumbel(size=(n_games, len(policies)))
    perf[gen.random(n_games) < TIES["share"]] = 0.0
    return outcome_frame(np.arange(n_games), list(policies), np.arange(len(policies)), perf)


@pytest.fixture
def toy(monkeypatch):
    registry.games()  # the built-in games load into the real registry first
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    spec = registry.GameSpec(
        name="toy", title="Toy", summary="Bradley-Terry toy", smoke_run=None, exact_tables=None, bad_calls=None,
        policies=("weak", "mid", "strong"), lineup_outcomes=toy_lineup,
        restrictions={"dead": "costs nothing", "key": "always loses without it", "bad": "better without it"})
    registry.register(spec)
    return spec


# ----------------------------------------------------------------------------------------- Wilson
def test_wilson_matches_the_integer_wilson_and_takes_fractions():
    for s, n in [(0, 10), (3, 10), (10, 10), (517, 1000)]:
        est = proportion_estimate(s, n)
        low, high = wilson_interval(s, n)
        assert (float(low), float(high)) == pytest.approx((est.ci_low, est.ci_high), abs=1e-12)
    low, high = wilson_interval(2.5, 5)
    assert low < 0.5 < high and high - 0.5 == pytest.approx(0.5 - low)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(6, 5)


# ----------------------------------------------------------------------------------------- the fit
def simulated_pairs(theta, n, seed, tie=0.0):
    rng = np.random.default_rng(seed)
    rows = []
    g = 0
    for i, j in itertools.combinations(range(len(theta)), 2):
        p = 1 / (1 + np.exp(-(theta[i] - theta[j])))
        y = (rng.random(n) < p).astype(float)
        y[rng.random(n) < tie] = 0.5
        rows.append(pd.DataFrame({"game": g + np.arange(n), "a": f"p{i}", "b": f"p{j}", "score": y}))
        g += n
    return pd.concat(rows, ignore_index=True)


def test_fit_recovers_known_strengths_within_their_intervals():
    theta = np.array([0.0, 0.4, 1.0, -0.7])
    fit = fit_bradley_terry(simulated_pairs(theta, 3000, seed=5), [f"p{i}" for i in range(4)])
    true = (theta - theta.mean()) * ELO_PER_LOGIT
    assert fit["rating"].sum() == pytest.approx(0, abs=1e-6)  # anchored at the mean
    r, se = fit["rating"].to_numpy(), fit["rating_se"].to_numpy()
    for i, j in itertools.combinations(range(4), 2):  # every difference, fixed seed, 4 SE tolerance
        assert abs((r[i] - r[j]) - (true[i] - true[j])) < 4 * np.hypot(se[i], se[j])
        assert np.hypot(se[i], se[j]) == pytest.approx(fit.attrs["diff_se"].iloc[i, j], rel=0.05)
    # SE as the information of 3 x 3000 games per policy predicts: a few Elo points
    assert fit["rating_se"].between(2, 5).all()
    assert ((fit["rating_ci_low"] < true) & (true < fit["rating_ci_high"])).all()


def test_fit_equals_brute_force_maximisation_of_the_penalised_likelihood():
    pairs = pd.DataFrame({"game": range(9), "a": ["x", "x", "x", "x", "y", "y", "y", "x", "z"],
                          "b": ["y", "y", "y", "z", "z", "z", "z", "z", "x"],
                          "score": [1, 1, 0, 1, 0.5, 1, 0, 1, 0]})
    prior_sd = 300.0
    fit = fit_bradley_terry(pairs, ["x", "y", "z"], prior_sd=prior_sd)
    tau = 1 / (prior_sd / ELO_PER_LOGIT) ** 2
    idx = {"x": 0, "y": 1, "z": 2}
    a, b = pairs["a"].map(idx).to_numpy(), pairs["b"].map(idx).to_numpy()
    y = pairs["score"].to_numpy(float)

    def logpost(t):  # t: (..., 3)
        d = t[..., a] - t[..., b]
        return (-(y * np.logaddexp(0, -d)) - (1 - y) * np.logaddexp(0, d)).sum(-1) - tau * (t ** 2).sum(-1) / 2

    best = np.zeros(3)
    for width in (3.0, 0.3, 0.03, 0.003):  # a grid, then finer grids around the best point
        axis = np.linspace(-width, width, 41)
        grid = best + np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), -1).reshape(-1, 3)
        best = grid[np.argmax(logpost(grid))]
    brute = (best - best.mean()) * ELO_PER_LOGIT
    assert np.allclose(fit["rating"], brute, atol=0.02 * ELO_PER_LOGIT / 40)


def test_a_policy_that_always_wins_keeps_a_finite_rating_and_a_wide_interval():
    pairs = pd.DataFrame({"game": range(200), "a": "ace", "b": ["mid"] * 100 + ["low"] * 100, "score": 1.0})
    pairs = pd.concat([pairs, simulated_pairs(np.array([0.0, -0.5]), 500, seed=1).replace({"p0": "mid", "p1": "low"})
                       .assign(game=lambda d: d["game"] + 1000)])
    fit = fit_bradley_terry(pairs, ["ace", "mid", "low"], anchor="mid").set_index("policy")
    assert np.isfinite(fit.loc["ace", "rating"]) and fit.loc["ace", "rating"] > 400
    assert fit.loc["ace", "rating_se"] > 3 * fit.loc["low", "rating_se"]
    assert fit.loc["mid", ["rating", "rating_ci_low", "rating_ci_high"]].tolist() == [0, 0, 0]
    # without an anchor the unbeaten policy's uncertainty stays its own (quasi-standard errors)
    free = fit_bradley_terry(pairs, ["ace", "mid", "low"]).set_index("policy")
    assert free.loc["mid", "rating_se"] < 0.2 * free.loc["ace", "rating_se"]
    assert free.loc["mid", "rating_se"] == pytest.approx(fit.loc["low", "rating_se"] / np.sqrt(2), rel=0.3)


def test_the_fit_never_raises_on_well_posed_two_policy_ladders():
    """Issue 28: 1.7% of two-policy ladders at 200 games raised "did not converge" with |gradient| 1.08e-8 against
    an absolute limit of 1e-8 (converged in fact).  Over many seeds (strengths, ties, games), none may raise,
    and every fit is the optimum: its gradient vanishes to rounding and the rating difference is the closed
    form of the penalised two-policy problem."""
    for seed in range(400):
        rng = np.random.default_rng(seed)
        n = int(rng.choice([50, 200, 1000]))
        y = (rng.random(n) < 1 / (1 + np.exp(-rng.normal(0, 0.6)))).astype(float)
        y[rng.random(n) < rng.choice([0.0, 0.1])] = 0.5
        if y.min() == y.max():
            continue  # not well posed (see the degenerate test)
        fit = fit_bradley_terry(pd.DataFrame({"game": np.arange(n), "a": "x", "b": "y", "score": y}), ["x", "y"])
        assert fit.attrs["separation"] is None
        # two policies: d = theta_x - theta_y solves s - n p(d) = tau d / 2 (the prior on both, rating +-d/2)
        d = (fit["rating"].iloc[0] - fit["rating"].iloc[1]) / ELO_PER_LOGIT
        tau = 1 / (strength.DEFAULT_PRIOR_SD / ELO_PER_LOGIT) ** 2
        assert y.sum() - n / (1 + np.exp(-d)) == pytest.approx(tau * d / 2, abs=1e-6 * n)


def test_two_policy_ladders_at_200_games_never_raise(toy):
    """The audit's case end to end: 1.7% of two-policy ladders at 200 games raised; here 60 seeds, none does."""
    for seed in range(60):
        table = ladder("toy", ["weak", "mid"], games=200, rng=seed)
        assert np.isfinite(table["rating"]).all() and table.attrs["separation"] is None


def test_a_degenerate_ladder_says_its_ratings_come_from_the_prior(toy):
    pairs = pd.DataFrame({"game": range(200), "a": "x", "b": "y", "score": 1.0})
    fit = fit_bradley_terry(pairs)
    assert np.isfinite(fit["rating"]).all()  # no error: finite through the prior, and it says so
    assert fit.attrs["separation"].startswith("degenerate ladder: {x} > {y}")
    assert "infinite" in fit.attrs["separation"] and "prior" in fit.attrs["separation"]
    # a group: ace beats both others every time; mid and low are a proper ladder between them
    pairs = pd.concat([pd.DataFrame({"game": range(100), "a": "ace", "b": ["mid", "low"] * 50, "score": 1.0}),
                       simulated_pairs(np.array([0.0, -0.5]), 300, seed=1).replace({"p0": "mid", "p1": "low"})
                       .assign(game=lambda d: d["game"] + 1000)])
    sep = fit_bradley_terry(pairs).attrs["separation"]
    assert sep.startswith("degenerate ladder: {ace} > {low, mid}")
    # the ladder carries it: a policy that always loses without its key option
    table = ladder("toy", ["strong", "mid/key"], games=40, rng=1)
    assert table.attrs["separation"].startswith("degenerate ladder: {strong} > {mid/key}")
    assert ladder("toy", ["weak", "strong"], games=200, rng=1).attrs["separation"] is None


def test_fit_validation():
    pairs = pd.DataFrame({"game": [0, 1], "a": ["x", "u"], "b": ["y", "v"], "score": [1.0, 0.0]})
    with pytest.raises(ValueError, match="connected"):
        fit_bradley_terry(pairs)
    with pytest.raises(ValueError, match="anchor"):
        fit_bradley_terry(pairs.iloc[:1], anchor="u")
    with pytest.raises(ValueError, match="prior_sd"):
        fit_bradley_terry(pairs.iloc[:1], prior_sd=0)
    with pytest.raises(ValueError, match="no comparisons"):
        fit_bradley_terry(pairs.iloc[:1], ["x", "y", "w"])


# ----------------------------------------------------------------------------------------- the ladder
def test_lineups_rotate_every_policy_through_every_seat():
    for names, players in [(list("abcd"), 2), (list("abcd"), 3), (list("abcde"), 4), (list("ab"), 3)]:
        seatings = [s for lineup in lineups(names, players) for s in lineup]
        for p in names:
            seats = [s.index(p) for s in seatings if s.count(p) == 1]
            counts = np.bincount(seats, minlength=players)
            assert (counts == counts[0]).all(), (names, players, p)
    assert lineups(["a", "b"], 3) == [[("a", "a", "b"), ("a", "b", "a"), ("b", "a", "a")],
                                       [("a", "b", "b"), ("b", "b", "a"), ("b", "a", "b")]]
    assert lineups(["x", "y", "z"], 2, ok=lambda s: "z" not in s) == [[("x", "y"), ("y", "x")]]


def test_ladder_recovers_the_toy_strengths(toy):
    table, out = ladder("toy", ["weak", "mid", "strong"], games=4000, rng=11, return_outcomes=True)
    assert table["policy"].tolist() == ["strong", "mid", "weak"]
    assert set(table.columns) >= {"policy", "rating", "rating_ci_low", "rating_ci_high", "win_rate",
                                  "win_rate_ci_low", "win_rate_ci_high", "games"}
    true = pd.Series({p: TRUE[p] for p in ["weak", "mid", "strong"]})
    true = (true - true.mean()) * ELO_PER_LOGIT
    t = table.set_index("policy")
    for p, q in itertools.combinations(true.index, 2):
        err = (t.loc[p, "rating"] - t.loc[q, "rating"]) - (true[p] - true[q])
        assert abs(err) < 4 * np.hypot(t.loc[p, "rating_se"], t.loc[q, "rating_se"])
    assert (t["games"] == 8000).all()  # two opponents, 4000 games each
    # both seatings of every pair, equally often
    seat0 = out[out["seat"] == 0].groupby("policy").size()
    assert (seat0 == 4000).all()
    h2h = table.attrs["head_to_head"].set_index(["a", "b"])
    assert h2h.loc[("mid", "strong"), "score_ci_high"] < 0.5


def test_ladder_three_players_with_shared_wins(toy, monkeypatch):
    monkeypatch.setitem(TIES, "share", 0.1)
    table, out = ladder("toy", ["weak", "mid", "strong"], players=3, games=3000,
                        rng=2, return_outcomes=True)
    assert table["policy"].tolist() == ["strong", "mid", "weak"]
    assert out.groupby("game")["win"].sum().eq(1).all()
    assert (out["win"] == 1 / 3).mean() == pytest.approx(0.1, abs=0.01)  # shared three ways
    # every policy in every seat equally often, win rates around the fair third
    assert (out.groupby(["policy", "seat"]).size() == 1000).all()
    assert table["win_rate"].sum() == pytest.approx(1.0)


def test_ladder_same_seed_same_table_and_validation(toy):
    a = ladder("toy", ["weak", "strong"], games=50, rng=5)
    b = ladder("toy", ["weak", "strong"], games=50, rng=5)
    pd.testing.assert_frame_equal(a, b)
    with pytest.raises(ValueError, match="players"):
        ladder("toy", ["weak", "strong"], players=5)
    with pytest.raises(ValueError, match="games"):
        ladder("toy", ["weak", "strong"], games=0)
    with pytest.raises(ValueError, match="at least two"):
        ladder("toy", ["weak"])
    with pytest.raises(ValueError, match="distinct"):
        ladder("toy", ["weak", "weak"])
    with pytest.raises(ValueError, match="n_jobs"):
        ladder("toy", ["weak", "strong"], n_jobs=0)
    with pytest.raises(ValueError, match="anchor"):
        ladder("toy", ["weak", "strong"], anchor="mid")
    with pytest.raises(ValueError, match="game must be one of"):
        ladder("chess", ["a", "b"])


@pytest.mark.slow
def test_ladder_identical_for_any_n_jobs():
    a = ladder("raft", ["random", "greedy"], games=8, rng=3)
    b = ladder("raft", ["random", "greedy"], games=8, rng=3, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)


# ----------------------------------------------------------------------------------------- restricted play
def test_restricted_play_flags(toy):
    t = restricted_play("toy", "mid", ["dead", "key", "bad"], games=2000, rng=4)
    assert t["restriction"].tolist() == ["key", "dead", "bad"]  # most costly first
    flags = dict(zip(t["restriction"], t["flag"]))
    assert flags == {"key": "dominant", "dead": "no measurable value", "bad": "harmful"}
    assert (t["games"] == 2000).all() and (t["fair_share"] == 0.5).all()
    t3 = restricted_play("toy", "mid", ["dead"], players=3, games=3000, rng=4)
    assert t3["fair_share"].iloc[0] == pytest.approx(1 / 3) and t3["flag"].iloc[0] == "no measurable value"
    with pytest.raises(ValueError, match="restrictions must be among"):
        restricted_play("toy", "mid", ["nope"])
    with pytest.raises(ValueError, match="dominant_fraction"):
        restricted_play("toy", "mid", ["dead"], dominant_fraction=1.5)


def test_restricted_play_defaults_to_the_strongest_policy_and_every_restriction(toy):
    t = restricted_play("toy", None, None, games=10, rng=1)
    assert set(t["restriction"]) == {"dead", "key", "bad"}
    assert set(t["opponent"]) == {"strong"}


# ----------------------------------------------------------------------------------------- registered players
@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_registered_restrictions_match_the_policy_parsers(game):
    spec = registry.get_game(game)
    assert len(spec.policies) >= 3 and spec.restrictions
    impl = importlib.import_module(f"pyradice_lab.{game}.policies").RESTRICTIONS
    described = {k: (v[0] if isinstance(v, tuple) else v) for k, v in impl.items()}
    assert described == dict(spec.restrictions)


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_an_unknown_restriction_is_a_clear_error(game):
    spec = registry.get_game(game)
    with pytest.raises(ValueError, match="restriction"):
        spec.lineup_outcomes([f"{registry.strongest_policy(spec)}/no_such_thing", spec.policies[-1]], 1, rng=0)


def test_strength_module_docstring_names_the_anchor():
    assert "average 0" in strength.__doc__ and "1000 Elo" in strength.__doc__


# ----------------------------------------------------------------------------------------- CLI
def test_cli_ladder_and_restricted(capsys, tmp_path):
    from pyradice_lab import cli

    out = tmp_path / "ladder.csv"
    assert cli.main(["raft", "ladder", "--policies", "random,greedy", "--games", "6", "--seed", "1",
                     "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "raft ladder: 3 players, 2 games per seating, seed 1" in text  # the game's 3 players and "head to head" in text
    assert list(pd.read_csv(out)["policy"]) in (["greedy", "random"], ["random", "greedy"])
    assert cli.main(["raft", "restricted", "--policy", "greedy", "--restrictions", "ignore_gifts",
                     "--games", "4", "--seed", "1", "--no-progress"]) == 0
    assert "greedy/ignore_gifts" in capsys.readouterr().out


def test_cli_restricted_defaults_to_the_reports_player(capsys):
    # restricted play (CLI and restricted_play) plays the registry's report player when it takes restrictions
    # (Meerkat: mcts_v2, as `meerkat ladder` does), else the strongest restrictable policy
    from pyradice_lab import cli
    from pyradice_lab.engine import registry

    spec = registry.get_game("meerkat")
    assert registry.restricted_player(spec) == spec.report_player == "mcts_v2"
    assert registry.restricted_player(registry.get_game("raft")) == "exact"
    for game in ("purramid", "pyradice"):  # their report players take no restriction
        s = registry.get_game(game)
        assert s.report_player in s.unrestrictable and registry.restricted_player(s) == registry.strongest_policy(s)
    assert cli.main(["meerkat", "restricted", "--restrictions", "no_queen", "--games", "4", "--seed", "1",
                     "--players", "2", "--no-progress"]) == 0  # 2 players: the search player is slow
    out = capsys.readouterr().out
    assert "meerkat restricted play: mcts_v2 forbidden one option" in out and "mcts_v2/no_queen" in out
    t = restricted_play("meerkat", None, ["no_queen"], players=2, games=2, rng=1)
    assert set(t["player"]) == {"mcts_v2/no_queen"}
    assert cli.main(["raft", "restricted", "--restrictions", "ignore_gifts", "--games", "2", "--players", "2",
                     "--no-progress"]) == 0
    assert "raft restricted play: exact forbidden" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["meerkat", "restricted", "--help"])
    assert "(default: mcts_v2, the report player)" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("args, needle", [
    (["raft", "ladder", "--policies", "random", "--games", "2", "--no-progress"], "at least two"),
    (["raft", "ladder", "--policies", "random,clever", "--games", "2", "--no-progress"], "policies"),
    (["raft", "restricted", "--restrictions", "bogus", "--games", "2", "--no-progress"], "restrictions"),
    (["meerkat", "ladder", "--policies", "automa,automa:H", "--games", "2", "--no-progress"], "no lineup"),
    (["pyradice", "ladder", "--players", "5", "--games", "2", "--no-progress"], "players"),
])
def test_cli_strength_errors_are_one_line_and_exit_2(capsys, args, needle):
    from pyradice_lab import cli

    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err
