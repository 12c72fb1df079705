"""One shape for every game package (docs/architecture.md) and visible lazy names (the layers: test_layers.py)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

import pyradice_lab
from pyradice_lab.engine import registry
from pyradice_lab.engine._lazy import ROLE_MODULES

PACKAGE = Path(pyradice_lab.__file__).parent


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_every_game_has_the_shared_role_modules(game):
    root = PACKAGE / game
    missing = [f"{m}.py" for m in ROLE_MODULES if not (root / f"{m}.py").is_file()]
    assert not missing, f"{game} lacks {missing}"
    assert sorted((root / "data").glob("*.toml")), f"{game} has no data/*.toml components"


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_public_names_are_listed_resolve_and_never_become_a_submodule(game):
    pkg = importlib.import_module(f"pyradice_lab.{game}")
    public = set(pkg.__all__)
    assert {"simulate_games", "play_game"} <= public <= set(dir(pkg))
    submodules = {p.stem for p in (PACKAGE / game).glob("*.py")} - {"__init__"}
    objects = {name for name in public if not isinstance(getattr(pkg, name), ModuleType)}  # every name resolves
    assert not objects & submodules, "a public function or class shares its name with a submodule"
    for m in sorted(submodules):  # importing a submodule binds it on the package: it must not replace a name
        importlib.import_module(f"pyradice_lab.{game}.{m}")
    assert [n for n in sorted(objects) if isinstance(getattr(pkg, n), ModuleType)] == []


def test_raft_calibrate_stays_a_function_after_its_module_is_imported():
    from pyradice_lab import raft
    from pyradice_lab.raft import calibration  # noqa: F401

    assert callable(raft.calibrate) and raft.calibrate.__name__ == "calibrate"


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_sweep_targets_live_in_the_games_sweeps_module(game):
    spec = registry.get_game(game)
    assert spec.sweeps
    for target in spec.sweeps.values():
        assert target.fn.target.startswith(f"pyradice_lab.{game}.sweeps:")
