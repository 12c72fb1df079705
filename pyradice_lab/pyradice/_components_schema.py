"""The schema of Pyradice's component files (private; :mod:`.components` re-exports every name): the kinds of
skill, goal and card entries with their parameters (checked against the registered kinds of :mod:`.skills`,
:mod:`.goals`, :mod:`.cards`) and :data:`SPEC`, the tree the files are validated against.
"""

from __future__ import annotations

from ..engine.schema import Array, Const, Field, Float, Int, Records, SchemaError, Source, Str, Table, suggest

# ----------------------------------------------------------------------------------------- schema
#: parameters of the built-in kinds (a designer's registered kind takes any parameters its validate accepts)
_VALUES = Array(Int(1, 6), 1, 6, unique=True)
_TABLE = Array(Int(0, 999), 1, 64)
_PARAM_NODES = {"values": _VALUES, "table": _TABLE, "size": Int(1, 21), "points": Int(0, 999)}
_PARAM_DOCS = {"values": "die values it reads", "table": "points indexed by the count it reads (past the end: the "
               "last entry)", "size": "dice per group", "points": "points per group / die"}
_KIND_PARAMS = {
    "skill": {},
    "goal": {"values_in": ("values",)},
    "card": {"count_table": ("table",), "level_table": ("table",), "isolated_groups": ("size", "points"),
             "values_in": ("values", "points"), "largest_group": ("table",), "distinct_values": ("table",),
             "levels_spanned": ("table",)},
}


def _registry(what: str) -> dict:
    from . import cards, goals, skills

    return {"skill": skills.SKILL_KINDS, "goal": goals.GOAL_KINDS, "card": cards.CARD_KINDS}[what]


class _Kind(Str):
    """The name of a registered kind of skill, goal or card (checked against the registry at load)."""

    def __init__(self, what: str):
        super().__init__()
        self.what = what

    def allowed(self) -> str:
        return ", ".join(sorted(_registry(self.what)))

    def check(self, value, path):
        if not isinstance(value, str) or value not in _registry(self.what):
            self.fail(f"{value!r} is not a registered {self.what} kind{suggest(value, _registry(self.what))}", path)
        return value


def _params_hook(what: str):
    """Extra keys of a skill/goal/card entry are its kind's parameters: known names, checked values, and the
    kind's own ``validate``."""
    def extra(entry, path):
        kind = entry.get("kind")
        fixed = _ENTRY_FIELDS[what]
        params = {k: v for k, v in entry.items() if k not in fixed}
        builtin = getattr(_registry(what)[kind], "kid", None) is not None   # a compiled kind: its parameters are known
        known = _KIND_PARAMS[what].get(kind, () if builtin else None)
        out = {}
        for k, v in params.items():
            if known is not None and k not in known:
                names = list(fixed) + list(known)
                raise SchemaError(f"unknown key{suggest(k, names)}", path + (k,),
                                  allowed=", ".join(names) + f" (kind {kind!r} takes "
                                  + (", ".join(known) or "no parameters") + ")")
            node = _PARAM_NODES.get(k)
            out[k] = node.check(v, path + (k,)) if node is not None and known is not None else v
        validate_fn = getattr(_registry(what)[kind], "validate", None)
        if validate_fn is not None:
            try:
                validate_fn({k: tuple(v) if isinstance(v, list) else v for k, v in out.items()}, "")
            except ValueError as exc:
                raise SchemaError(str(exc).lstrip(": "), path, allowed=f"the parameters of kind {kind!r}") from None
        return out
    return extra


def _names_hook(what: str):
    return lambda entry: list(_KIND_PARAMS[what].get(entry.get("kind"), ()))


_ENTRY_FIELDS = {
    "skill": {
        "code": Field(Str(max_len=2, pattern=r"[AB][2-6]", pattern_doc="A2..A6 or B2..B6"), "token side code"),
        "level": Field(Int(2, 6), "pyramid level whose placement triggers it (the code's digit)"),
        "kind": Field(_Kind("skill"), "registered effect (pyradice_lab/pyradice/skills.py)"),
        "name": Field(Str(max_len=60), "display name", default=""),
        "description": Field(Str(max_len=500), "what it does", default=""),
        "source": Field(Source(), "where the token comes from"),
    },
    "goal": {
        "code": Field(Str(max_len=2, pattern=r"[CD][1-7]", pattern_doc="C1..C7 or D1..D7"), "token side code"),
        "kind": Field(_Kind("goal"), "registered requirement (pyradice_lab/pyradice/goals.py)"),
        "name": Field(Str(max_len=60), "display name", default=""),
        "description": Field(Str(max_len=500), "what it asks", default=""),
        "source": Field(Source(), "where the token comes from"),
        "fit": Field(Float(0.0, 1.0), "lookahead policy's chance that one more empty space can still fit the goal "
                                      "(not a rule)", default=0.7),
    },
    "card": {
        "name": Field(Str(max_len=40, pattern=r"\S.*", pattern_doc="a non-empty name"), "card name"),
        "kind": Field(_Kind("card"), "registered scoring (pyradice_lab/pyradice/cards.py)"),
        "description": Field(Str(max_len=500), "what it scores", default=""),
        "source": Field(Source(), "where the card comes from"),
    },
}


def _entry(what: str) -> Table:
    return Table(dict(_ENTRY_FIELDS[what]), extra=_params_hook(what), extra_names=_names_hook(what),
                 extra_doc=lambda key: f"kind parameter: {_PARAM_DOCS.get(key, key)}")


SPEC = Table({
    "dice": Field(Table({
        "source": Field(Source(), "where the dice set comes from"),
        "faces": Field(Table({
            "values": Field(Const([1, 2, 3, 4, 5, 6], "the engines roll fair six-sided dice"), "die faces"),
            "source": Field(Source(), "where the faces come from"),
        }), "the dice's faces"),
        "colour": Field(Records(Table({
            "name": Field(Str(max_len=20, pattern=r"[a-z][a-z0-9_]*", pattern_doc="a lower-case name"),
                          "colour name"),
            "letter": Field(Str(max_len=1, pattern=r"[a-z0-9]", pattern_doc="one lower-case letter or digit"),
                            "one-letter code in drawings (default: the name's first letter)", default=None),
            "count": Field(Int(0, 200), "dice of this colour in one copy of the game"),
            "source": Field(Source(), "where the count comes from"),
        }), key="name", min_len=4, max_len=26), "dice colours (one copy; 3-4 players use two copies)"),
        "discs": Field(Table({
            "per_colour": Field(Const(1, "one disc per colour, 4 drawn without replacement"), "discs per colour"),
            "source": Field(Source(), "where the discs come from"),
        }), "the coloured discs put on the objective cards"),
    }, doc="Dice and discs"), "dice and discs"),
    "skill": Field(Records(_entry("skill"), key="code", min_len=5, max_len=10),
                   "skill token sides (one token per level 2..6, sides A and B)"),
    "goal": Field(Records(_entry("goal"), key="code", min_len=5, max_len=14),
                  "goal token sides (tokens 1..7, sides C and D)"),
    "card": Field(Records(_entry("card"), key="name", min_len=4, max_len=100), "objective cards"),
    "setup": Field(Table({
        "skills": Field(Array(Str(max_len=2), 5, 5), "skill token per level 2..6"),
        "goals": Field(Array(Str(max_len=2), 5, 5, unique=True), "goal token per level 1..5"),
        "cards": Field(Array(Str(max_len=40), 4, 4, unique=True), "the four objective cards"),
        "discs": Field(Array(Str(max_len=20), 4, 4, unique=True), "fixed disc colours, one per card "
                       "(default: drawn every game)", default=None),
        "source": Field(Source(), "where the setup comes from"),
    }, doc="The default setup (Setup.default)"), "the default setup"),
})
