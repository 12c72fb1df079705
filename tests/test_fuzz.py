"""Property-based hardening (issue 15, sections 5 and 6).

1. **Fuzzed entry points.**  Every public entry point listed in :data:`ENTRIES` starts from a small valid call;
   hypothesis replaces one argument by a hostile value (wrong types, bools for ints, numpy scalars, NaN/inf,
   negative, zero, huge, empty and ragged sequences, unicode, bad paths, objects, callables).  Each call must
   either return a valid result or raise ValueError/TypeError whose message names the replaced parameter.
2. **Fuzzed CLI.**  Light subcommands get one option replaced by a hostile string: exit 0, or exit 2 with one
   line on stderr and no traceback.
3. **Bad calls of the top level** (the games list theirs through the registry's ``bad_calls``, checked by
   ``tests/test_registry.py``).
4. **Properties**: probabilities in [0, 1], odds tables summing to 1, confidence intervals containing their
   estimate, same seed -> same numbers.

Bounded: few examples per entry point, ``deadline=None`` (the machine is shared), counts kept small (a valid
huge count would only run long: refusing counts too large to hold is tested in ``tests/test_blocks.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import numbers
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import pyradice_lab as pl
from pyradice_lab import cli, meerkat, purramid, pyradice, raft
from pyradice_lab.engine import dice

#: ``PYRADICE_FUZZ_EXAMPLES=300 pytest tests/test_fuzz.py`` explores further (random, not derandomized).
EXAMPLES = int(os.environ.get("PYRADICE_FUZZ_EXAMPLES", "0")) or None
SETTINGS = settings(max_examples=EXAMPLES or 12, deadline=None, derandomize=EXAMPLES is None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

#: Parameters that are counts of work: a valid value above this would only make the test slow.
COUNT_PARAMS = {"n", "n_games", "trials", "max_trials", "batch", "min_trials", "tilts", "bootstrap", "turns",
                "max_dice", "max_turns", "k", "successes"}
SMALL = 40


class _Opaque:
    def __repr__(self):
        return "<opaque>"


HOSTILE = st.one_of(
    st.none(), st.booleans(),
    st.integers(-10**20, 10**20),
    st.sampled_from([0, -1, 1, 2, 7, 2**31, 2**63, -2**63]),
    st.sampled_from([np.int64(3), np.int8(-1), np.uint64(2**63), np.float64(2.0), np.bool_(True), np.float32(np.nan)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, -0.0, 2.5, 1e300, float("nan"), float("inf"), -float("inf")]),
    st.text(max_size=6),
    st.sampled_from(["", " ", "A", "north", "greedy", "literal", "C6", "/nonexistent/x.toml", "\x00", "\u00fc\u2603",
                     "1,2", "0.5"]),
    st.lists(st.integers(-3, 12), max_size=6),
    st.lists(st.floats(allow_nan=True), max_size=3),
    st.tuples(st.integers(-2, 6), st.floats(allow_nan=True)),
    st.sampled_from([(), [], {}, [[1, 2], [3]], [(0, 0.5)], ("heuristic", 5), {"x": 1}, [None], [True, False]]),
    st.sampled_from([np.array([]), np.arange(6).reshape(2, 3), np.full(4, np.nan), np.array(["a", "b"])]),
    st.builds(_Opaque),
    st.just(lambda *a, **k: None),
)


def _is_prob(x) -> bool:
    v = float(x)
    return 0.0 <= v <= 1.0


def _frame(x) -> bool:
    return isinstance(x, pd.DataFrame) and len(x) > 0


def _estimate(e) -> bool:
    return isinstance(e, pl.Estimate) and (not math.isfinite(e.value) or e.ci_low <= e.value <= e.ci_high)


@dataclass(frozen=True)
class Entry:
    """A public entry point, a small valid call of it, and what a valid result looks like."""

    name: str
    fn: Callable[..., Any]
    kwargs: dict = field(default_factory=dict)
    valid: Callable[[Any], bool] = lambda r: r is not None
    names: dict = field(default_factory=dict)  # parameter -> the name its errors use (e.g. an alias)


def _late_purramid():
    L = purramid.load_layout("A")
    return L.spaces_of(L.bottom_rows_mask(6))


def _entries() -> list[Entry]:
    z = np.zeros((2, 10), int)
    z[0, 4], z[1, 4] = 2, 1
    table = pyradice.Table.build(pyradice.Setup.default(), (0, 1, 2, 3))
    values, colours = [3, 5, 5, 3, 3, 5] + [0] * 15, [0, 0, 1, 1, 2, 3] + [-1] * 15
    geom = pyradice.quarry_geometry(2)
    late = _late_purramid()
    deck = raft.default_components().deck
    return [
        # top level
        Entry("proportion_estimate", pl.proportion_estimate, dict(successes=3, n=10, confidence=0.95), _estimate),
        Entry("mean_estimate", pl.mean_estimate, dict(samples=[1.0, 2.0, 4.0], confidence=0.9), _estimate),
        Entry("as_generator", pl.as_generator, dict(rng=1), lambda g: isinstance(g, np.random.Generator)),
        Entry("spawn", pl.spawn, dict(rng_or_seed=1, n=2), lambda r: isinstance(r, list)),
        Entry("run_until", pl.run_until, dict(sample_fn=lambda n, g: g.random(n), rel_or_abs_halfwidth=0.5,
                                              max_trials=20, rng=0, batch=10, min_trials=10, confidence=0.95),
              lambda r: _estimate(r.estimate)),
        Entry("dice.roll", dice.roll, dict(n=4, k=3, rng=0), lambda r: r.ndim == 2 and ((r >= 1) & (r <= 6)).all()),
        # purramid
        Entry("purramid.burst_probability", purramid.burst_probability, dict(n_dice=3, targets=[6, 8], exact=False),
              _is_prob),
        Entry("purramid.burst_table", purramid.burst_table, dict(max_dice=2, numbers=[2, 7], exact=False), _frame),
        Entry("purramid.load_layout", purramid.load_layout, dict(name_or_path="A"), names={"name_or_path": "layout"}),
        Entry("purramid.advise", purramid.advise, dict(layout="A", covered=late, placed=(), dice_left=5, yarn=0,
                                                       turn_dice=5, objective="tiles", bonus="none"), _frame),
        Entry("purramid.stop_after", purramid.stop_after, dict(k=2)),
        Entry("purramid.stop_if_burst_risk_above", purramid.stop_if_burst_risk_above, dict(p=0.3)),
        Entry("purramid.simulate_turns", purramid.simulate_turns,
              dict(n=3, layout="A", covered=late, policy="greedy", turn_dice=5, yarn=0, rng=0), _frame),
        # pyradice
        Entry("pyradice.Quarry.random", pyradice.Quarry.random, dict(players=2, rng=0)),
        Entry("pyradice.Quarry.take", lambda pos: pyradice.Quarry.random(2, rng=0).take(pos), dict(pos=(2, 0, 0))),
        Entry("pyradice.availability", pyradice.availability, dict(occupied=np.ones(geom.n, bool), players=2)),
        Entry("pyradice.visible_faces", pyradice.visible_faces, dict(occupied=np.ones(geom.n, bool), players=2)),
        Entry("pyradice.quarry_geometry", pyradice.quarry_geometry, dict(players=3)),
        Entry("pyradice.legal_places", pyradice.legal_places, dict(values=values), lambda r: isinstance(r, list)),
        Entry("pyradice.score_pyramid", pyradice.score_pyramid, dict(values=values, colours=colours, table=table)),
        Entry("pyradice.deal", pyradice.deal, dict(players=2, setup=pyradice.Setup.default(), rng=0)),
        Entry("pyradice.available_exact", pyradice.available_exact, dict(turns=2, players=2), _frame),
        Entry("pyradice.blind_goal_probability", pyradice.blind_goal_probability, dict(code="C6", level=1, players=2),
              _is_prob),
        # raft
        Entry("raft.tilt", raft.tilt, dict(state=raft.reference_state(4), edge="north", finger="centre", duration=1.0,
                                           n=5, rng=0), lambda r: r.fallen.ndim == 2 and (r.fallen >= 0).all()),
        Entry("raft.setup_state", raft.setup_state, dict(players=2, rng=0)),
        Entry("raft.reference_state", raft.reference_state, dict(players=3)),
        Entry("raft.load", raft.load, dict(gems=[1, 0, 1, 1], lifeboats=[deck[0], deck[4]])),
        Entry("raft.TiltParams", raft.TiltParams, dict(slide_rate=0.5, drop_rate=1.5, finger_skew=0.5,
                                                       timing_noise=0.2, spill=0.25)),
        Entry("raft.simulate_games", raft.simulate_games, dict(n_games=1, players=2, variant="standard", rng=0,
                                                               max_turns=5, n_jobs=1), _frame),
        # meerkat
        Entry("meerkat.placement_odds", meerkat.placement_odds, dict(tile=7, count=2, reroll=True), _is_prob),
        Entry("meerkat.placement_odds_exact", meerkat.placement_odds_exact, dict(tile=7, count=1, reroll=False),
              _is_prob),
        Entry("meerkat.score_tile", meerkat.score_tile, dict(counts=[3, 3, 2, 1], queens=None, values=(6, 3),
                                                             reverse=False, bonus=0, reverse_reading="literal")),
        Entry("meerkat.score_game", meerkat.score_game, dict(counts=z, queens=None, guardians=[0, 1], pups=[1, 0],
                                                             bonus=[0, 3], out_order=[1, 0], guardian_policy="best",
                                                             reverse_reading="literal"), _frame),
        Entry("meerkat.simulate_games", meerkat.simulate_games, dict(n_games=1, players=2, automa=None, rng=0,
                                                                     engine="python", reverse_reading="literal",
                                                                     jackal_reading="literal"), _frame),
        Entry("meerkat.setup_label", meerkat.setup_label, dict(players=2, automa=None)),
    ]


ENTRIES = _entries()


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
@SETTINGS
@given(data=st.data())
def test_fuzzed_argument_gives_a_valid_result_or_an_error_naming_it(entry, data):
    param = data.draw(st.sampled_from(sorted(entry.kwargs)), label="param")
    value = data.draw(HOSTILE, label="value")
    if param in COUNT_PARAMS:  # a valid large count is not an error, only slow
        assume(not (isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
                    and SMALL < value < 10**30))
    kwargs = {**entry.kwargs, param: value}
    try:
        result = entry.fn(**kwargs)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        named = entry.names.get(param, param)
        assert named in msg, f"{entry.name}({param}={value!r}): {type(exc).__name__} does not name {named!r}: {msg}"
        return
    assert entry.valid(result), f"{entry.name}({param}={value!r}) returned an invalid result: {result!r}"


# ----------------------------------------------------------------------------------------------- CLI
CLI_BASE = {
    ("purramid", "odds"): ["--dice", "3", "--targets", "6,8"],
    ("purramid", "layout"): ["--layout", "B"],
    ("pyradice", "quarry"): ["--seed", "1", "--players", "2"],
    ("pyradice", "odds"): ["--players", "2", "--turns", "2"],
    ("raft", "play"): ["--players", "2", "--seed", "1"],
    ("meerkat", "odds"): ["--tile", "7", "--count", "2"],
    ("meerkat", "score"): ["--tile", "7", "--counts", "3,3,2,1"],
    ("meerkat", "play"): ["--players", "2", "--seed", "1"],
}
CLI_HOSTILE = ["", " ", "nan", "inf", "-inf", "-5", "-2.5", "1e400", "abc\u00e9", "1,,2", ",", "0x10", "\u2603", "3,",
               "1 2", "/nonexistent-dir/x.csv", "99999999999999999999999"]


def _leaf_options(path) -> list[str]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    inner = next(a for a in sub.choices[path[0]]._actions if isinstance(a, argparse._SubParsersAction))
    return [a.option_strings[-1] for a in inner.choices[path[1]]._actions
            if a.option_strings and a.nargs != 0 and not isinstance(a, argparse._HelpAction)]


CLI_CASES = [(path, opt) for path in CLI_BASE for opt in _leaf_options(path)]


def _run_cli(argv) -> tuple[Any, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, err.getvalue()


@SETTINGS
@given(case=st.sampled_from(CLI_CASES), value=st.one_of(st.sampled_from(CLI_HOSTILE), st.text(max_size=5)))
def test_cli_fuzzed_option_exits_0_or_one_line_exit_2(case, value):
    path, opt = case
    argv = list(CLI_BASE[path])
    if opt in argv:
        argv[argv.index(opt) + 1] = value
    else:
        argv += [opt, value]
    code, err = _run_cli([*path, *argv])
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code in (0, 2), (path, opt, value, code, err)
    if code == 2:
        assert len(lines) == 1 and "error:" in lines[0] and "Traceback" not in err, (path, opt, value, err)


# -------------------------------------------------------------------------------------- top-level bad calls
def _top_bad_calls():
    from pyradice_lab.report.overview import subset_sum_cell

    def sweep(grid, **kw):
        return pl.run_sweep(subset_sum_cell, grid, trials=10, seed=0, progress=False, **kw)

    return [
        ("min_trials", lambda: pl.run_until(lambda n, g: np.zeros(n), rel_or_abs_halfwidth=0.1, max_trials=10,
                                            min_trials=-1)),
        ("sample_fn", lambda: pl.run_until(None, rel_or_abs_halfwidth=0.1, max_trials=10)),
        ("params", lambda: sweep({"dice": [2]})),
        ("n_jobs", lambda: sweep({"dice": [2], "target": [3]}, n_jobs=0)),
        ("target", lambda: sweep({"dice": [2], "target": ["x"]})),
        ("dice", lambda: sweep({"dice": [2.5], "target": [3]})),
        ("n", lambda: pl.proportion_estimate(1, 0)),
        ("successes", lambda: pl.proportion_estimate(5, 3)),
        ("confidence", lambda: pl.mean_estimate([1.0, 2.0], confidence=1.5)),
        ("samples", lambda: pl.mean_estimate([])),
        ("rng", lambda: pl.as_generator("x")),
        ("n", lambda: pl.spawn(0, -1)),
        ("n", lambda: dice.roll(10**15, 5)),
    ]


@pytest.mark.parametrize("pname, call", _top_bad_calls(), ids=lambda x: x if isinstance(x, str) else "")
def test_top_level_bad_calls_name_the_parameter(pname, call):
    with pytest.raises((ValueError, TypeError), match=pname):
        call()


@pytest.mark.parametrize("game", ["purramid", "pyradice", "raft", "meerkat"])
def test_each_games_bad_calls_raise_an_error_naming_the_parameter(game):
    """The registry's ``bad_calls`` alone (the conformance check runs them too, after the games' smoke runs)."""
    from pyradice_lab.engine import registry

    wrong = []
    for pname, call in registry.get_game(game).bad_calls():
        try:
            call()
        except (ValueError, TypeError) as exc:
            if pname not in str(exc):
                wrong.append(f"{pname}: {type(exc).__name__}: {exc}")
        except Exception as exc:  # noqa: BLE001 - any other exception is a finding
            wrong.append(f"{pname}: {type(exc).__name__}: {exc}")
        else:
            wrong.append(f"{pname}: no error")
    assert not wrong, wrong


# ----------------------------------------------------------------------------------------------- properties
@SETTINGS
@given(n_dice=st.integers(0, 6), targets=st.lists(st.integers(1, 12), min_size=1, max_size=4))
def test_burst_probability_is_a_probability_and_exact_matches_float(n_dice, targets):
    exact = purramid.burst_probability(n_dice, targets, exact=True)
    assert isinstance(exact, Fraction) and 0 <= exact <= 1
    assert math.isclose(float(exact), purramid.burst_probability(n_dice, targets), abs_tol=1e-12)
    # more targets can only make a burst less likely
    assert purramid.burst_probability(n_dice, [*targets, 6], exact=True) <= exact


@SETTINGS
@given(tile=st.integers(3, 12), count=st.sampled_from([1, 2, 3, "queen"]))
def test_placement_odds_are_probabilities_and_the_reroll_only_helps(tile, count):
    try:
        p0 = meerkat.placement_odds_exact(tile, count, reroll=False)
    except ValueError:  # a count the tile cannot take
        return
    p1 = meerkat.placement_odds_exact(tile, count, reroll=True)
    assert 0 <= p0 <= p1 <= 1


def test_odds_tables_sum_to_one_and_hold_probabilities():
    t = meerkat.automa_placement_table(exact=True)
    for _face, g in t.groupby("face"):
        assert sum(g["probability"]) == 1 and all(0 <= p <= 1 for p in g["probability"])
    bt = purramid.burst_table(3, [2, 7, 12])
    num = bt.select_dtypes("number").to_numpy(dtype=float)
    assert np.all((num >= 0) | np.isnan(num))
    av = pyradice.available_exact(3, 2)
    for _turn, g in av.groupby("turn"):
        assert sum(g["probability"]) == 1 and g["p"].between(0, 1).all()


@SETTINGS
@given(n=st.integers(1, 10**6), frac=st.floats(0, 1), conf=st.floats(0.5, 0.999))
def test_proportion_ci_contains_the_estimate(n, frac, conf):
    k = int(round(frac * n))
    e = pl.proportion_estimate(k, n, confidence=conf)
    assert 0 <= e.ci_low <= e.value <= e.ci_high <= 1
    assert e.value == k / n and e.n == n


@SETTINGS
@given(xs=st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=50), conf=st.floats(0.5, 0.999))
def test_mean_ci_contains_the_estimate(xs, conf):
    e = pl.mean_estimate(xs, confidence=conf)
    assert e.ci_low <= e.value <= e.ci_high
    assert e.se >= 0 and e.n == len(xs)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_numbers(seed):
    a = raft.tilt(raft.reference_state(4), "north", "centre", 1.0, n=20, rng=seed)
    b = raft.tilt(raft.reference_state(4), "north", "centre", 1.0, n=20, rng=seed)
    assert np.array_equal(a.fallen, b.fallen) and np.array_equal(a.states, b.states)
    assert np.array_equal(dice.roll(5, 4, rng=seed), dice.roll(5, 4, rng=np.random.SeedSequence(seed)))
    late = _late_purramid()
    pd.testing.assert_frame_equal(purramid.simulate_turns(5, "A", covered=late, policy="greedy", rng=seed),
                                  purramid.simulate_turns(5, "A", covered=late, policy="greedy", rng=seed))
