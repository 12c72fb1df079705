"""``compare(..., controls=True)`` (issue 47 item 1): the paired comparison estimated with the game's exogenous
controls (Rocking Raft's deck order), the plain difference of the same games beside it, the factor stated; errors
before any game; the numbers independent of the workers; coverage on real games (slow)."""

from __future__ import annotations

import numpy as np
import pytest

from pyradice_lab import compare
from pyradice_lab.design.controlvariates import controlled_paired, regression_estimate
from pyradice_lab.engine import registry

VARIANT = {"card.1.points": 4, "card.2.points": 4}


@pytest.fixture(scope="module")
def variant():
    from pyradice_lab import raft

    return raft.default_components().replace(VARIANT)


def _run(variant, controls, **kw):
    kw = {"games": 300, "players": 2, "policies": "greedy", "rng": 4, **kw}
    return compare("raft", None, variant, "points_per_boat", controls=controls, **kw)


def test_the_controls_narrow_the_same_games_interval_and_say_by_how_much(variant):
    plain, ctl = _run(variant, False), _run(variant, True)
    assert ctl.plain_difference == plain.difference          # the same games: the plain estimate kept beside it
    assert ctl.variance_reduction == plain.variance_reduction  # common random numbers' factor unchanged
    # the deck explains much of each side's points per boat: only if the controls are these games' own deals
    assert (plain.base.se / ctl.base.se) ** 2 > 2.5 and (plain.variant.se / ctl.variant.se) ** 2 > 2.5
    assert ctl.controls_factor == pytest.approx((plain.difference.se / ctl.difference.se) ** 2) and \
        ctl.controls_factor > 1.2
    assert abs(ctl.difference.value - plain.difference.value) < 2 * plain.difference.se
    assert ctl.controls[0] == "points dealt" and plain.plain_difference is None and plain.controls_factor is None
    text = str(ctl)
    assert "exogenous controls (points dealt" in text and f"factor {ctl.controls_factor:.1f}" in text
    attrs = ctl.to_frame().attrs
    assert attrs["controls_factor"] == ctl.controls_factor and attrs["plain_difference"]["value"] == \
        plain.difference.value


def test_until_stops_on_the_controlled_half_width(variant):
    target = 0.007
    ctl = _run(variant, True, games=100, until=target, max_games=5000)
    plain = _run(variant, False, games=100, until=target, max_games=5000)
    assert ctl.reached and ctl.difference.halfwidth <= target
    assert ctl.n_games <= plain.n_games


@pytest.mark.parametrize("kw, err, word", [
    (dict(game="meerkat", metric="mean_score"), ValueError, "controls: meerkat declares no exogenous controls"),
    (dict(game="purramid", metric="game_length", policies="greedy"), ValueError, "need a seat playing 'optimal'"),
    (dict(metric="start_player_win"), ValueError, "controls: start_player_win is a win share"),
    (dict(games=20), ValueError, "controls: needs games >= 30"),
    (dict(controls="yes"), TypeError, "controls must be True or False"),
])
def test_bad_controls_are_refused_before_any_game(kw, err, word, monkeypatch):
    from pyradice_lab.design import compare as C

    monkeypatch.setattr(C, "_compare_block", lambda *a: pytest.fail("a game was played"))
    args = {"game": "raft", "metric": "points_per_boat", "games": 100, "controls": True, **kw}
    with pytest.raises(err, match=word):
        compare(args.pop("game"), None, None, args.pop("metric"), **args)


def test_the_cli_flag(variant, tmp_path, capsys):
    from pyradice_lab.cli import main

    path = variant.dump(tmp_path / "v.toml")
    assert main(["raft", "compare", "--variant", str(path), "--metric", "points_per_boat", "--players", "2",
                 "--policies", "greedy", "--games", "100", "--seed", "1", "--controls", "--no-progress"]) == 0
    assert "exogenous controls (points dealt" in capsys.readouterr().out
    meerkat = registry.get_game("meerkat").components.coerce_components(None, "base").dump(tmp_path / "m.toml")
    assert main(["meerkat", "compare", "--variant", str(meerkat), "--metric", "mean_score", "--controls"]) == 2
    err = capsys.readouterr().err
    assert "declares no exogenous controls" in err and len(err.strip().splitlines()) == 1


def test_controlled_paired_regresses_the_difference_on_both_decks():
    rng = np.random.default_rng(3)
    n = 400
    xb, xv = rng.normal(size=(n, 1)), rng.normal(size=(n, 1))
    yb = 1 + xb[:, 0] + 0.1 * rng.normal(size=n)
    yv = 1.5 + xv[:, 0] + 0.1 * rng.normal(size=n)      # the variant's own deck drives its side
    plain = regression_estimate(yv - yb, np.zeros((n, 0)), [])
    c = controlled_paired(yb, yv, xb, [0.0], xv, [0.0], plain, ("deck",))
    assert c.difference.value == pytest.approx(0.5, abs=0.03) and c.factor > 50
    assert c.difference.df == n - 1 - 2
    assert c.variant.value == pytest.approx(1.5, abs=0.02) and c.variant.se < 0.01   # on its own deck's controls
    yv = 1.5 + xb[:, 0] + 0.1 * rng.normal(size=n)      # one deck on both sides: its repeat costs no df
    assert controlled_paired(yb, yv, xb, [0.0], xb, [0.0], plain).difference.df == n - 1 - 1


@pytest.mark.slow
def test_the_controlled_difference_covers_on_real_games(variant):
    """Coverage at n = 30 and 100 of the controlled paired difference on Rocking Raft's own distribution: runs drawn
    with replacement from a pool of 3,000 paired greedy games (base, and cards 1 and 2 at 4 points), whose mean
    difference is then the truth."""
    from pyradice_lab.design.metrics import metric_values
    from pyradice_lab.design.multifidelity import _per_game
    from pyradice_lab.raft.metrics import deck_controls
    from pyradice_lab.raft.sim import simulate_games

    pool, seed = 3000, 471
    side = {}
    for name, comp in (("b", None), ("v", variant)):
        df = simulate_games(pool, players=2, policies=["greedy"] * 2, rng=seed, components=comp)
        c = deck_controls(pool, players=2, rng=seed, components=comp)
        side[name] = (_per_game(*metric_values("raft", df, "points_per_boat")), c.values)
    (yb, Xb), (yv, Xv) = side["b"], side["v"]
    truth, mub, muv = (yv - yb).mean(), Xb.mean(axis=0), Xv.mean(axis=0)
    rng = np.random.default_rng(4710)
    for n in (30, 100):
        hit, runs = 0, 1500
        for _ in range(runs):
            i = rng.integers(0, pool, size=n)
            plain = regression_estimate(yv[i] - yb[i], np.zeros((n, 0)), [])
            d = controlled_paired(yb[i], yv[i], Xb[i], mub, Xv[i], muv, plain).difference
            hit += d.ci_low <= truth <= d.ci_high
        assert 0.93 <= hit / runs <= 0.97, (n, hit / runs)
