"""The toy race's table companion: :class:`Position`, :func:`load_position`, :func:`position_from_game` and
:func:`advise` (roll or hold, ranked by the optimal player's win probability).

>>> pos = load_position({"to_move": 1, "scores": [20, 35], "turn_total": 12})
>>> advise(pos)["option"].tolist()
['roll', 'hold']
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from pyradice_lab.engine.positions import check_choice, exact_columns, read_position
from pyradice_lab.engine.schema import Array, Field, Int, SchemaError, Table

from .components import Components, coerce_components
from .odds import solve
from .rules import PLAYERS, State, legal_actions, play_game

__all__ = ["Position", "load_position", "position_from_game", "advise", "position_spec"]


def position_spec() -> Table:
    """The position file's schema (seats numbered from 1, as at the table)."""
    return Table({
        "to_move": Field(Int(1, PLAYERS), "the seat about to roll or hold (1 or 2)"),
        "scores": Field(Array(Int(0, 10_000), PLAYERS, PLAYERS), "banked points of seats 1 and 2"),
        "turn_total": Field(Int(0, 10_000), "points of the turn so far (lost on a bust)"),
    }, doc="a toy race position")


@dataclass(frozen=True)
class Position:
    """A validated position: banked ``scores`` (seat order), ``seat`` (the 0-based index of the seat to move;
    ``to_move`` is its number from 1, as in the file), the ``turn_total``; ``played`` is what the seat did when
    the position comes from a game."""

    scores: tuple[int, int]
    seat: int
    turn_total: int
    comp: Components = field(repr=False, compare=False)
    played: str | None = field(default=None, compare=False)

    @property
    def to_move(self) -> int:
        return self.seat + 1

    @property
    def state(self) -> State:
        return State(self.scores, self.seat, self.turn_total)

    def document(self) -> dict:
        """The position as a plain document (the file format)."""
        return {"to_move": self.to_move, "scores": list(self.scores), "turn_total": self.turn_total}

    def to_toml(self) -> str:
        d = self.document()
        return (f"# Toy race position: seat {d['to_move']} to roll or hold\nto_move = {d['to_move']}\n"
                f"scores = {d['scores']}\nturn_total = {d['turn_total']}\n")


def _build(doc: dict, comp: Components, file=None) -> Position:
    scores, s, k = tuple(doc["scores"]), doc["to_move"] - 1, doc["turn_total"]
    for seat, v in enumerate(scores):
        if v >= comp.target:
            raise SchemaError(f"{v} has already won", ("scores", seat), allowed=f"0..{comp.target - 1}", file=file)
    if scores[s] + k >= comp.target:
        raise SchemaError(f"{k} would already have won", ("turn_total",),
                          allowed=f"0..{comp.target - 1 - scores[s]}", file=file)
    return Position(scores, s, k, comp)


def load_position(source, *, components=None) -> Position:
    """A position from a ``.toml``/``.json`` file, a mapping or a :class:`Position`; errors name the key."""
    return read_position(source, Position, position_spec(), _build, coerce_components(components))


def position_from_game(seed, turn: int, *, decision: int = 1, policies="optimal", components=None) -> Position:
    """The ``decision``-th decision (from 1) of turn ``turn`` (from 1, as the transcript numbers them) of the
    game ``play_game(policies, rng=seed)``; ``played`` is what the seat did."""
    comp = coerce_components(components)
    found = [(st, a) for t, st, a in play_game(policies, rng=seed, components=comp).decisions if t == turn]
    if isinstance(turn, bool) or not isinstance(turn, int) or not found:
        raise ValueError(f"turn must be a turn of this game, got {turn!r}")
    if isinstance(decision, bool) or not isinstance(decision, int) or not 1 <= decision <= len(found):
        raise ValueError(f"decision must be in 1..{len(found)} (decisions of turn {turn}), got {decision!r}")
    st, action = found[decision - 1]
    return Position(st.scores, st.to_move, st.turn_total, comp, played=action)


def advise(position, *, policy: str = "optimal", components=None) -> pd.DataFrame:
    """Roll or hold, ranked by the win probability of the seat to move when both seats then play optimally.

    Columns ``option``, ``value`` (win probability), ``se``/``ci_low``/``ci_high`` (NaN: exact), ``regret`` and
    ``reason`` (plain words); best first.
    """
    check_choice(policy, "policy", ("optimal",))
    pos = load_position(position, components=components)
    comp, st = pos.comp, pos.state
    sol = solve(comp)
    mine, theirs, k = st.mine, st.theirs, st.turn_total
    good = [f for f in comp.faces if f not in comp.bust]
    rows = [("roll", sol.roll[mine, theirs, k],
             f"{len(good)} of {len(comp.faces)} faces add to the turn ({sum(good) / len(good):.1f} on average); "
             + (f"a bust loses the {k} points of this turn" if k else "there is nothing to lose yet"))]
    if "hold" in legal_actions(st):
        rows.append(("hold", sol.hold[mine, theirs, k],
                     f"banks {k} points ({mine + k} of {comp.target}); the opponent then rolls at {theirs}"))
    df = pd.DataFrame(rows, columns=["option", "value", "reason"]).sort_values("value", ascending=False,
                                                                              kind="stable", ignore_index=True)
    return exact_columns(df, 2)
