"""The registry and the conformance check every registered game passes, the toy race (tests/toygame) included.

The golden transcripts live in tests/golden/<game>.txt, each reviewed by eye once.  The test only compares; after a
deliberate change of a game's rules, players, defaults or transcript, rewrite the files with a separate command and
review the diff by eye before committing it::

    PYTHONPATH=$PWD .venv/bin/python tests/test_registry.py --regenerate [GAME ...]
"""

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `tests.toygame` is imported as a package from the repository root
    sys.path.insert(0, str(ROOT))

from pyradice_lab.bench import dice_cases, format_bench, run_bench  # noqa: E402
from pyradice_lab.engine import registry  # noqa: E402
from tests import toygame  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
#: every registered game and the toy race, registered only for the tests that use :func:`games`
GAMES = [*registry.games(), toygame.NAME]


@pytest.fixture
def games():
    """The registry with the toy race in it (restored afterwards)."""
    with toygame.registered():
        yield registry.games()


@pytest.mark.parametrize("name", GAMES)
def test_every_registered_game_conforms(name, games):
    """Seed determinism, exact tables, bad-parameter errors, every player, the position round trip and the golden
    transcript (tests/golden/<game>.txt)."""
    result = registry.check_game(name, golden_dir=GOLDEN)
    assert result["passed"].all()
    assert "golden transcript" in set(result["check"])


def test_the_loop_covers_every_registered_game(games):
    assert list(games) == GAMES
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == sorted(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_position_round_trip_is_declared(name, games):
    """Each game declares the advisor protocol (the round trip itself runs in the conformance check); a game that
    does not yet is skipped, saying so."""
    spec = games[name]
    if spec.part("position", None) is None:
        pytest.skip(f"{name} declares no advisor Position yet: its position round trip is skipped")
    for part in ("load_position", "position_from_game", "advise"):
        assert callable(spec.part(part)), part


def test_golden_transcript_mismatch_and_missing_file_fail(games, tmp_path):
    (tmp_path / "toygame.txt").write_text(registry.golden_transcript("toygame").replace("holds", "keeps", 1))
    with pytest.raises(registry.ConformanceError, match="golden transcript .*differs at line 3"):
        registry.check_game("toygame", golden_dir=tmp_path)
    (tmp_path / "toygame.txt").unlink()
    with pytest.raises(registry.ConformanceError, match="missing"):
        registry.check_game("toygame", golden_dir=tmp_path)


def test_a_position_that_does_not_read_back_fails(games, monkeypatch):
    monkeypatch.setattr(toygame.advisor.Position, "to_toml", lambda self: "to_move = 1\nscores = [0, 0]\n"
                                                                          "turn_total = 1\n")
    report = registry.check_game("toygame", strict=False).set_index("check")
    assert report.loc["position round trip (mapping)", "passed"]
    assert not report.loc["position round trip (TOML file)", "passed"]
    assert "differing at 'scores'" in report.loc["position round trip (TOML file)", "detail"]


def test_a_game_without_its_own_transcript_gets_the_generic_one(games, monkeypatch):
    monkeypatch.delattr(toygame.rules, "transcript")
    text = registry.golden_transcript("toygame", 5)
    lines = text.splitlines()
    assert "outcomes of 3 games, hold_at:20 in every seat" in lines[0] and len(lines) == 4
    assert lines[1].startswith("game 1: seat 1 hold_at:20 position ")


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


if __name__ == "__main__":
    if sys.argv[1:2] != ["--regenerate"]:
        sys.exit(f"usage: python {sys.argv[0]} --regenerate [GAME ...]   (rewrites tests/golden/; review the diff)")
    with toygame.registered():
        for name in sys.argv[2:] or GAMES:
            (GOLDEN / f"{name}.txt").write_text(registry.golden_transcript(name), encoding="utf-8")
            print(f"wrote {GOLDEN / name}.txt")
