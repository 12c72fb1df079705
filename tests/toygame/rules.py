"""The toy race's readable engine: state, legal actions, transitions, :func:`play_game` and the golden
:func:`transcript` (the contract part ``transcript``).

Two players race to the target.  On your turn you roll the die: a bust face loses the turn's points and ends the
turn; any other face adds to the turn total.  After a roll that did not bust you may hold: the turn total is banked
and the opponent moves.  Reaching the target (banked score plus turn total) wins at once.

>>> rec = play_game(["hold_at:20", "optimal"], rng=1)
>>> rec.winner in (0, 1), max(rec.scores) >= 50
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from pyradice_lab.engine.rng import as_generator

from .components import Components, coerce_components

__all__ = ["State", "legal_actions", "step", "play_game", "GameRecord", "transcript", "ACTIONS", "PLAYERS"]

ACTIONS = ("roll", "hold")
PLAYERS = 2
MAX_TURNS = 10_000  # a safety cap: every registered player holds or busts in finitely many rolls


@dataclass(frozen=True)
class State:
    """Whose move it is, both banked scores (seat order) and the turn total (hashable, immutable)."""

    scores: tuple[int, int] = (0, 0)
    to_move: int = 0
    turn_total: int = 0

    @property
    def mine(self) -> int:
        return self.scores[self.to_move]

    @property
    def theirs(self) -> int:
        return self.scores[1 - self.to_move]


def legal_actions(state: State) -> tuple[str, ...]:
    """``roll`` always; ``hold`` once the turn has points to bank."""
    return ACTIONS if state.turn_total > 0 else ACTIONS[:1]


def step(state: State, action: str, face: int | None, comp: Components) -> tuple[State, str]:
    """The state after ``action`` (and ``face``, the roll, for ``roll``) and what happened: ``"bust"``,
    ``"add"``, ``"win"`` or ``"bank"``."""
    if action not in legal_actions(state):
        raise ValueError(f"action must be one of {list(legal_actions(state))}, got {action!r}")
    s = state.to_move
    if action == "hold":
        scores = tuple(v + state.turn_total if p == s else v for p, v in enumerate(state.scores))
        return State(scores, 1 - s, 0), "bank"
    if face in comp.bust:
        return State(state.scores, 1 - s, 0), "bust"
    if state.mine + state.turn_total + face >= comp.target:
        scores = tuple(v + state.turn_total + face if p == s else v for p, v in enumerate(state.scores))
        return State(scores, s, 0), "win"
    return replace(state, turn_total=state.turn_total + face), "add"


@dataclass
class GameRecord:
    """One game: final scores, the winner and start seat (0-based), turns, busts per seat, the decisions taken
    (turn number from 1, state, action) and the readable transcript (seats numbered from 1)."""

    scores: tuple[int, int]
    winner: int
    first_player: int
    turns: int
    busts: tuple[int, int]
    decisions: list
    transcript: str


def play_game(policies=None, *, rng=None, components=None, first_player: int | None = None) -> GameRecord:
    """Play one game; ``policies`` as for :func:`.sim.simulate_games`; the start seat is drawn from ``rng``
    unless given."""
    from .policies import names_of, resolve

    comp = coerce_components(components)
    pols = resolve(policies)
    gen = as_generator(rng)
    first = int(gen.integers(PLAYERS)) if first_player is None else first_player
    if first not in (0, 1):
        raise ValueError(f"first_player must be 0 or 1, got {first!r}")
    names = names_of(policies)
    start = tuple(0 if s == first else comp.head_start for s in range(PLAYERS))  # the second player's head start
    state, turns, busts, decisions = State(start, first, 0), 1, [0, 0], []
    bonus = f" (head start {comp.head_start})" if comp.head_start else ""
    lines = [f"Toy race to {comp.target}{bonus}: " + ", ".join(f"seat {s + 1} = {n}" for s, n in enumerate(names))
             + f"; seat {first + 1} starts"]
    rolls: list[str] = []
    while True:
        action = pols[state.to_move](state, comp)
        decisions.append((turns, state, action))
        face = int(np.asarray(comp.faces)[gen.integers(len(comp.faces))]) if action == "roll" else None
        mover, before = state.to_move, state
        state, event = step(state, action, face, comp)
        if face is not None:
            rolls.append(str(face))
        if event == "add":
            continue
        head = f"turn {turns:2d}, seat {mover + 1}: " + (f"rolls {' '.join(rolls)}" if rolls else "")
        if event == "bust":
            busts[mover] += 1
            lines.append(f"{head}: bust, loses {before.turn_total}")
        else:
            verb = "reaches" if event == "win" else f"holds {before.turn_total} ->"
            lines.append(f"{head}; {verb} {state.scores[mover]} (scores {state.scores[0]}-{state.scores[1]})")
        if event == "win":
            lines.append(f"seat {mover + 1} wins after {turns} turn{'s' if turns > 1 else ''}")
            return GameRecord(state.scores, mover, first, turns, tuple(busts), decisions, "\n".join(lines))
        rolls, turns = [], turns + 1
        if turns > MAX_TURNS:
            raise RuntimeError(f"game exceeded {MAX_TURNS} turns")


def transcript(seed: int) -> str:
    """The golden game's transcript: the heuristic against the optimal player, seeded with ``seed``."""
    return play_game(["hold_at:20", "optimal"], rng=seed).transcript
