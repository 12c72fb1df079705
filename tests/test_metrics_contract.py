"""The designer metrics are part of each game's contract: ``<game>/metrics.py`` declares ``METRICS`` (name ->
:class:`pyradice_lab.engine.metrics.Metric`), and :mod:`pyradice_lab.design.metrics` offers the common metrics then
the game's, found through the registry; a new game (here a small one made on the fly) brings its own metrics and
smooth forms without an edit to design/."""

from __future__ import annotations

import ast
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pyradice_lab
from pyradice_lab.design import metrics as D
from pyradice_lab.engine import execution as ex, registry
from pyradice_lab.engine.metrics import COMMON, SMOOTH_FORMS, Metric, Smooth

PACKAGE = Path(pyradice_lab.__file__).parent


@pytest.mark.parametrize("game", list(registry.games()))
def test_every_game_declares_its_metrics(game):
    spec = registry.get_game(game)
    own = spec.part("metrics")
    assert own is spec.module("metrics").METRICS
    assert own and all(isinstance(k, str) and ":" not in k and isinstance(m, Metric) for k, m in own.items())
    assert not set(own) & set(COMMON), "a game's metric must not replace a common one"
    assert "game_length" in own
    table = D.metrics(game)
    assert list(table["metric"]) == [*COMMON, *own]
    assert list(table["meaning"]) == [m.description for m in (*COMMON.values(), *own.values())]


@pytest.mark.parametrize("game", list(registry.games()))
def test_a_games_smooth_forms_are_registered_with_its_metrics(game):
    registry.get_game(game).part("metrics")
    assert "ratio_difference" in SMOOTH_FORMS
    if game == "raft":
        assert "raft_boat_rates" in SMOOTH_FORMS


def _strings_outside_docstrings(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs}


@pytest.mark.parametrize("path", ["design/metrics.py", "design/compare.py", "design/robustness.py",
                                  "design/balance.py", "design/strength.py", "engine/assumptions.py",
                                  "engine/metrics.py"])
def test_no_game_is_named_or_imported_by_string(path):
    text = (PACKAGE / path).read_text()
    assert "import_module" not in text
    strings = _strings_outside_docstrings(PACKAGE / path)
    named = sorted(s for s in strings for g in registry.BUILTIN_GAMES if g in s and "pyradice_lab" not in s
                   or f"pyradice_lab.{g}" in s)
    assert not named, f"{path} names a game outside its docstrings: {named}"


def test_the_old_names_still_work():
    from pyradice_lab.design import compare as C

    assert D._Smooth is Smooth and D._Metric is Metric
    assert D.GAMES == C.GAMES == tuple(registry.games())
    with pytest.raises(AttributeError):
        D.NOT_A_NAME  # noqa: B018


def test_a_smooth_block_stored_under_the_old_module_reads_back():
    s = Smooth(np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 1.0, 4.0]]), "ratio_difference")
    data = ex.encode(s)
    assert data["dc"] == "pyradice_lab.engine.metrics:Smooth"
    old = {**data, "dc": "pyradice_lab.design.metrics:_Smooth"}   # a block file written before the move
    for d in (data, old):
        back = ex.decode(d)
        assert isinstance(back, Smooth) and back.form == s.form
        assert back.fn(s.columns.mean(axis=0)) == s.fn(s.columns.mean(axis=0))


def test_an_unregistered_smooth_form_is_a_clear_error():
    with pytest.raises(ValueError, match="register_smooth"):
        Smooth(np.ones((2, 2)), "no_such_form").fn([1.0, 1.0])


# ------------------------------------------------------------------------------------------------ a new game
_TOY_METRICS = '''
import numpy as np
from pyradice_lab.engine.metrics import Metric, Smooth, column, register_smooth

def _square_fn(s, m):
    return m[0] ** 2

def _square_grad(s, m):
    return np.array([2 * m[0]])

register_smooth("toy_square_of_mean", _square_fn, _square_grad)

def _square(df, out, arg):
    return Smooth(df[["rolls"]].to_numpy(dtype=float), "toy_square_of_mean")

METRICS = {
    "game_length": Metric("turns in a game", column("turns")),
    "rolls_squared": Metric("the square of the mean rolls per game", _square),
}
'''
_TOY_SIM = '''
import pandas as pd

def simulate_games(n_games, *, rng=None, **kw):
    return pd.DataFrame({"game": range(n_games), "players": 2, "turns": [3, 5, 4, 6][:n_games],
                         "rolls": [1.0, 2.0, 3.0, 4.0][:n_games]})

def outcomes(df):
    rows = [(g, s, s, s == 0, "greedy", float(s == g % 2), float(s)) for g in df["game"] for s in (0, 1)]
    return pd.DataFrame(rows, columns=["game", "seat", "position", "start", "policy", "win", "score"])
'''


@pytest.fixture
def toy_game(tmp_path, monkeypatch):
    pkg = tmp_path / "toy_metrics_game"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "metrics.py").write_text(textwrap.dedent(_TOY_METRICS))
    (pkg / "sim.py").write_text(textwrap.dedent(_TOY_SIM))
    (tmp_path / "toy_bare_game").mkdir()
    (tmp_path / "toy_bare_game" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr("pyradice_lab.engine.metrics.SMOOTH_FORMS", dict(SMOOTH_FORMS))
    registry.register(registry.GameSpec(
        name="toymetrics", title="Toy", summary="a toy game with its own metrics", smoke_run=lambda seed: None,
        exact_tables=lambda: {"die": [Fraction(1, 2)] * 2}, bad_calls=lambda: [], package="toy_metrics_game"))
    yield registry.get_game("toymetrics")
    for m in [m for m in sys.modules if m.startswith(("toy_metrics_game", "toy_bare_game"))]:
        del sys.modules[m]


def test_a_new_game_brings_its_metrics_without_an_edit_to_design(toy_game):
    table = D.metrics("toymetrics")
    assert list(table["metric"]) == [*COMMON, "game_length", "rolls_squared"]
    df = toy_game.simulate_games(4)
    num, den = D.metric_values("toymetrics", df, "game_length")
    assert list(num) == [3, 5, 4, 6] and list(den) == [1] * 4
    est = D.metric_estimate(*D.metric_values("toymetrics", df, "rolls_squared"), "rolls_squared", warn=False)
    assert est.value == pytest.approx(2.5 ** 2)
    assert D.metric_estimate(*D.metric_values("toymetrics", df, "start_player_win"), "start_player_win",
                             warn=False).value == 0.5
    assert D.check_metric("toymetrics", " game_length ") == "game_length"
    with pytest.raises(ValueError, match="not a toymetrics metric"):
        D.check_metric("toymetrics", "burst_rate")
    assert D.simulate_options("toymetrics", "rolls_squared") == {}


def test_a_game_without_metrics_has_the_common_ones(toy_game):
    registry.register(registry.GameSpec(
        name="bare", title="Bare", summary="no metrics module", smoke_run=lambda seed: None,
        exact_tables=lambda: {}, bad_calls=lambda: [], package="toy_bare_game"))
    assert list(D.metrics("bare")["metric"]) == list(COMMON)


def test_an_unknown_game_names_the_registered_ones():
    with pytest.raises(ValueError, match="game must be one of .*raft"):
        D.metrics("chess")
    with pytest.raises(TypeError, match="game must be a game name"):
        D.metrics(3)


def test_outcomes_frame_of_the_common_metrics():
    # the common metrics read only the outcomes frame (and the games frame's length and player count)
    df = pd.DataFrame({"players": [2, 2]})
    out = pd.DataFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "position": [0, 1, 1, 0],
                        "start": [True, False, False, True], "policy": ["a"] * 4, "win": [1.0, 0, 0.5, 0.5],
                        "score": [10.0, 4, 7, 7]})
    assert list(COMMON["start_player_win"].fn(df, out, "")[0]) == [1.0, 0.5]
    assert list(COMMON["score_spread"].fn(df, out, "")[0]) == [6.0, 0.0]
    assert list(COMMON["seat_win"].fn(df, out, "2")[0]) == [0.0, 0.5]  # seats numbered from 1
    assert list(COMMON["position_win"].fn(df, out, "1")[0]) == [1.0, 0.5]  # 1 = the start player
    with pytest.raises(ValueError, match="seat 0 is not in this game"):
        COMMON["seat_win"].fn(df, out, "0")


@pytest.mark.parametrize("name", ["pyradice_lab.engine.metrics", "pyradice_lab.design.metrics",
                                  *[f"{spec.package}.metrics" for spec in registry.games().values()]])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
