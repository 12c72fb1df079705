from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.bench import dice_cases, format_bench, run_bench
from pyradice_lab.engine import registry


@pytest.mark.parametrize("name", list(registry.games()))
def test_every_registered_game_conforms(name):
    result = registry.check_game(name)
    assert result["passed"].all()


def _spec(**overrides):
    def smoke(seed):
        g = np.random.default_rng(seed)
        return pd.DataFrame({"x": g.integers(0, 10, size=5)})

    def bad_calls():
        def f():
            raise ValueError("players must be in 2..4, got 9")

        return [("players", f)]

    base = dict(name="toy", title="Toy", summary="a toy game for testing the checker", smoke_run=smoke,
                exact_tables=lambda: {"die": [Fraction(1, 6)] * 6, "coin": np.array([0.5, 0.5])},
                bad_calls=bad_calls)
    base.update(overrides)
    return registry.GameSpec(**base)


@pytest.fixture
def toy_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    yield registry


def test_check_game_passes_a_conforming_game(toy_registry):
    toy_registry.register(_spec())
    assert toy_registry.check_game("toy")["passed"].all()


@pytest.mark.parametrize(
    ("override", "needle"),
    [
        ({"smoke_run": lambda seed: pd.DataFrame({"x": np.random.default_rng().random(3)})}, "identical"),
        ({"exact_tables": lambda: {"die": [Fraction(1, 6)] * 5}}, "sums to 1"),
        ({"exact_tables": lambda: {"p": [1.5, -0.5]}}, "sums to 1"),
        ({"bad_calls": lambda: [("players", lambda: None)]}, "bad players"),
        ({"bad_calls": lambda: [("players", lambda: (_ for _ in ()).throw(ValueError("nope")))]}, "bad players"),
        ({"bad_calls": lambda: [("players", lambda: [][1])]}, "bad players"),
    ],
)
def test_check_game_catches_each_kind_of_failure(toy_registry, override, needle):
    toy_registry.register(_spec(**override))
    with pytest.raises(registry.ConformanceError, match=needle):
        toy_registry.check_game("toy")
    report = toy_registry.check_game("toy", strict=False)
    assert not report["passed"].all()


def test_unknown_game_is_a_clear_error():
    with pytest.raises(ValueError, match="game must be one of"):
        registry.get_game("chess")


def test_bench_table_shape_without_timing_assertions():
    df = run_bench(dice_cases(quick=True)[:1], quick=True)
    assert list(df.columns) == ["game", "kernel", "unit", "work_per_s", "seconds_per_call", "clock", "reference",
                                "reference_per_s", "ratio", "peak_rss_mb", "target", "ok"]
    assert df["work_per_s"].iloc[0] > 0 and df["ratio"].iloc[0] > 0
    assert "dice.classify" in format_bench(df)


def test_every_game_names_its_report_player_and_heuristic():
    """The report player and its heuristic are registered policies (registry.get_game(g).report_player)."""
    for name, spec in registry.games().items():
        assert spec.report_player in spec.policies, name
        assert spec.heuristic_player in spec.policies, name
        assert spec.report_player != spec.heuristic_player, name


def test_report_player_must_be_registered():
    import pytest

    with pytest.raises(ValueError, match="report_player"):
        registry.GameSpec(name="x", title="X", summary="x", smoke_run=None, exact_tables=None, bad_calls=None,
                          policies=("a", "b"), report_player="c")
