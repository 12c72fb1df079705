"""Toy race components as data: the die's faces, its bust faces and the target score (``data/components.toml``).

>>> comp = default_components()
>>> comp.faces, comp.bust, comp.target, comp.head_start
((1, 2, 3, 4, 5, 6), (1,), 50, 0)
>>> comp.replace({"race.target": 20}).target
20
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pyradice_lab.engine.schema import (
    Array,
    ComponentFormat,
    Field,
    Int,
    SchemaComponents,
    SchemaError,
    Table,
    Value,
)

__all__ = ["Components", "FORMAT", "load_components", "default_components", "coerce_components",
           "sample_plausible", "DATA_FILE"]

DATA_FILE = Path(__file__).with_name("data") / "components.toml"


@dataclass(frozen=True, eq=False)
class Components(SchemaComponents):
    """The toy race's components (frozen, validated; equal when their documents are equal)."""

    faces: tuple[int, ...]
    bust: tuple[int, ...]
    target: int
    head_start: int

    def source_table(self):
        """DataFrame (component, value, source)."""
        t = self.table()
        return t.rename(columns={"key": "component"})[["component", "value", "source"]]


def _v(node, doc: str) -> Field:
    return Field(Value(node, doc), doc)


SPEC = Table({
    "die": Field(Table({
        "faces": _v(Array(Int(1, 20), 2, 12, unique=True), "the die's faces (each equally likely)"),
        "bust": _v(Array(Int(1, 20), 1, 11, unique=True), "faces that lose the turn's points and end the turn"),
    }, doc="The die"), "the die"),
    "race": Field(Table({
        "target": _v(Int(5, 100), "banked points that win the race"),
        "head_start": _v(Int(0, 99), "points the second player starts with (the start player starts at 0)"),
    }, doc="The race"), "the race"),
})


def _check(doc: dict) -> None:
    faces, bust = doc["die"]["faces"]["value"], doc["die"]["bust"]["value"]
    if not set(bust) < set(faces):
        raise SchemaError(f"{bust} is not a proper subset of the faces {faces}", ("die", "bust", "value"),
                          allowed="some of the die's faces, not all of them")
    race = doc["race"]
    if race["head_start"]["value"] >= race["target"]["value"]:
        raise SchemaError(f"{race['head_start']['value']} reaches the target", ("race", "head_start", "value"),
                          allowed=f"0..{race['target']['value'] - 1}")


def _build(doc: dict) -> Components:
    return Components(tuple(doc["die"]["faces"]["value"]), tuple(doc["die"]["bust"]["value"]),
                      int(doc["race"]["target"]["value"]), int(doc["race"]["head_start"]["value"]))


FORMAT = ComponentFormat(game="toygame", spec=SPEC, data_dir=DATA_FILE.parent, packaged=(DATA_FILE.name,),
                         check=_check, build=_build, cls=Components,
                         header="Toy race components (tests/toygame); sources: rules, reconstruction, designer.")


def load_components(path=None) -> Components:
    """A components file merged over the packaged one (None: the packaged components)."""
    return FORMAT.load(path)


def coerce_components(components, name: str = "components") -> Components:
    """None, a path or loaded :class:`Components` -> :class:`Components`."""
    return FORMAT.coerce(components, name)


def default_components() -> Components:
    """The packaged components (cached)."""
    return FORMAT.default()


def sample_plausible(rng=None, *, base=None, return_choices: bool = False):
    """A plausible set: the reconstructed target drawn from 40..60 (the die is the rules' and stays)."""
    from pyradice_lab.engine.rng import as_generator
    from pyradice_lab.engine.sampling import finish_sample

    rng = as_generator(rng)
    comp = coerce_components(base, "base")
    target = int(rng.integers(40, 61))
    changes = {} if comp.get("race.target.source") != "reconstruction" else {"race.target.value": target}
    return finish_sample(comp, changes, {"target": target}, return_choices)
