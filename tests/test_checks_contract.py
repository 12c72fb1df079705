"""The contract part ``checks``: every game declares its robustness checks in ``<game>/checks.py`` (``CHECKS``, a
:class:`~pyradice_lab.engine.checkspec.GameChecks`), and :mod:`pyradice_lab.design.checks` runs them through the
registry, with no game's name in its code."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from pyradice_lab.design import checks as C
from pyradice_lab.engine import registry
from pyradice_lab.engine.checkspec import Check, GameChecks, NotChecked, PairedCheck

PACKAGE = Path(C.__file__).resolve().parents[1]


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_every_game_declares_its_checks(game):
    spec = registry.get_game(game)
    declared = spec.part("checks")
    assert isinstance(declared, GameChecks) and declared is spec.module("checks").CHECKS
    assert declared.checks and all(c.game == game for c in declared.checks)
    assert all(c.experiment.startswith(f"{game}_") for c in declared.checks)
    assert declared.what and declared.games > 0
    # the report player's label is a finding's label: one of the report player's checks carries it
    label = C.report_player_label(game)
    assert spec.report_player in label
    mine = [c for c in C.all_checks() if c.game == game]
    assert [c.key for c in mine] == [c.key for c in declared.checks]   # the declared order
    for c in mine:
        if c.key in declared.report_player_games:
            assert (c.policies, c.player, c.games) == (spec.report_player, label, declared.report_player_games[c.key])


def test_design_runs_every_registered_games_checks_in_registry_order():
    games = [c.game for c in C.all_checks()]
    order = [g for g in registry.games() if C.game_checks(g).checks]
    assert list(dict.fromkeys(games)) == order
    ran = C.checks_for(order)
    assert len({c.key for c in ran}) == len(ran) and all(isinstance(c, Check) for c in ran)
    for g in order:   # what the report does not run stays declared
        d = C.game_checks(g)
        assert not {c.key for c in ran} & set(d.not_run)
        assert not {c.experiment for c in ran} & set(d.not_in_report)


def test_a_game_without_checks_has_none(monkeypatch):
    spec = registry.get_game("raft")
    monkeypatch.setattr(type(spec), "part", lambda self, role, default=None: default)
    assert C.game_checks("raft").checks == ()


def test_game_checks_validates_its_fields():
    c = Check("k", "g", "g_e", "q", "m", 0.0, 2, "greedy", "greedy")
    with pytest.raises(ValueError, match="games"):
        GameChecks(checks=(c,), games=0)
    with pytest.raises(ValueError, match="report_player_games"):
        GameChecks(checks=(c,), games=10, report_player_games={"other": 5})
    with pytest.raises(ValueError, match="not_run"):
        GameChecks(checks=(c,), games=10, not_run=("other",))
    with pytest.raises(ValueError, match="player_label"):
        GameChecks(checks=(c,), games=10, player_label="every seat")
    with pytest.raises(TypeError, match="checks"):
        GameChecks(checks=("k",), games=10)
    assert GameChecks(checks=[c, c], games=10).keys == ("k",)


def test_the_old_names_still_import():
    from pyradice_lab.report import checks as old

    assert old is C
    assert (old.Check, old.PairedCheck, old.NotChecked) == (Check, PairedCheck, NotChecked)
    assert dataclasses.is_dataclass(C.GameChecks)


def _code_strings(path: Path) -> list[str]:
    """The string constants of ``path`` outside docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs]


@pytest.mark.parametrize("module", ["design/checks.py", "report/checks.py", "engine/checkspec.py"])
def test_the_generic_check_code_names_no_game(module):
    path = PACKAGE / module
    text = "\n".join(_code_strings(path))
    names = [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, (ast.Name, ast.alias))]
    words = [getattr(n, "id", None) or n.name for n in names]
    for game in registry.BUILTIN_GAMES:
        assert game not in text and not any(game in w for w in words), (module, game)
