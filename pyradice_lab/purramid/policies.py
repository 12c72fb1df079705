"""Named Purramid turn policies: human-style rules of thumb and the solved optimum.

Human-style policies share one placement rule, ``greedy`` placement: keep this turn's dice one connected
group (the first die anywhere, then only next to the dice already placed); after a roll, among those
spaces some dice can pay for (with the fewest dice that sum to the number) and whose support can still
be completed with the dice left, prefer a placement after which the dice already form a valid group (so
stopping is safe); more tiles first, then fewer dice.  If no placement can still be completed, spend a
yarn token to reroll if one is held, else accept the burst.  They differ in when they stop once the dice
on the board are a valid group:

- :func:`greedy` never stops while dice are left (presses to use all dice -- and win the bonus turn);
- :func:`stop_after` ``(k)`` stops after ``k`` placements;
- :func:`stop_if_burst_risk_above` ``(p)`` stops when the exact chance that the next roll offers no
  completable placement exceeds ``p``.

The decisions are the compiled functions of :mod:`.kernel`, so the readable game engine
(:mod:`.rules`), the batched turn simulator (:mod:`.turns`) and the compiled game simulator
(:mod:`.sim`) play exactly the same policy.

:func:`optimal` is the solved optimum (:mod:`.advisor`): after every roll the placement, reroll or burst
of greatest exact value, after every placement stop or continue, re-solved on the board of every turn and
bonus turn.  In games it is the seat policy ``"optimal"`` (expected tiles, a token worth the documented
``yarn_value``) or ``"optimal:at_least:K"`` (maximise the chance of at least ``K`` tiles this turn; once
reached, the rest of the turn only needs a valid group), or an :func:`optimal` object with other settings.

Every policy answers the readable engine through :meth:`decide` (after a roll: place, reroll or burst)
and :meth:`stop` (after a placement).

Restricted players (restricted play, :func:`pyradice_lab.design.strength.restricted_play`) are spelled
``"<policy>/<restriction>"``, e.g. ``"risk:0.3/no_yarn"``; :data:`RESTRICTIONS` lists them (human-style
policies only).

Examples
--------
>>> parse_policy("stop_after:2").name
'stop_after(2)'
>>> [p.name for p in seat_policies(None, 3)]
['greedy', 'greedy', 'greedy']
>>> [p.name for p in seat_policies(["optimal", "optimal:at_least:4", optimal(bonus="exact")], 3)]
['optimal', 'optimal:at_least:4', 'optimal(bonus=exact)']
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from functools import cache

import numpy as np

from . import kernel as K
from .chance import multisets

__all__ = ["Policy", "OptimalPolicy", "greedy", "stop_after", "stop_if_burst_risk_above", "optimal",
           "parse_policy", "seat_policies", "HUMAN_POLICY_NAMES", "POLICY_NAMES", "PLACE", "REROLL", "BURST",
           "RESTRICTIONS", "restrict"]

HUMAN_POLICY_NAMES = ("greedy", "stop_after:K", "risk:P")
POLICY_NAMES = HUMAN_POLICY_NAMES + ("optimal", "optimal:at_least:K")
BURST, PLACE, REROLL = 0, 1, 2   # decision kinds (as in decision tables)


@cache
def _arrays(layout):
    return K.board_arrays(layout)


@cache
def _risk():
    return K.risk_tables()


@dataclass(frozen=True)
class Policy:
    """A human-style policy: greedy placement plus a stop rule (``kind``/``param`` as in :mod:`.kernel`)."""

    name: str
    kind: int
    param: float
    yarn: bool = True  # spends yarn tokens to reroll a roll with no completable placement (restricted play)

    # ----------------------------------------------------------------- single decisions
    def choose(self, layout, cov: int, placed: int, roll) -> tuple[int, int] | None:
        """``(space index, dice used)`` for this roll, or None if no placement can still be completed."""
        brd, full, n = _arrays(layout)
        vals = np.zeros(8, dtype=np.int64)
        vals[:len(roll)] = roll
        cm = np.zeros(31, dtype=np.int64)
        s, c = K.choose(int(cov), int(placed), len(roll), vals, brd, full, n, cm)
        return None if s < 0 else (int(s), int(c))

    def stops(self, layout, cov: int, placed: int, dice_left: int, placements: int) -> bool:
        """Whether to stop now, given the dice on ``placed`` form a valid group and dice are left."""
        brd, full, n = _arrays(layout)
        rcm, rw, rrows = _risk()
        return bool(K.policy_stops(self.kind, self.param, placements, int(cov), int(placed), dice_left, brd, full,
                                   n, rcm, rw, rrows, np.zeros(2 * n, dtype=np.int64)))

    def risk(self, layout, cov: int, placed: int, dice_left: int) -> float:
        """Chance the next roll of ``dice_left`` dice offers no completable placement."""
        brd, full, n = _arrays(layout)
        rcm, rw, rrows = _risk()
        return float(K.burst_risk(int(cov), int(placed), dice_left, brd, full, n, rcm, rw, rrows,
                                  np.zeros(2 * n, dtype=np.int64)))

    # ----------------------------------------------------------------- readable-engine interface
    def decide(self, layout, cov: int, placed: int, roll, *, turn_dice: int, yarn: int, need: int = 0,
               yarn_tokens: bool = True) -> tuple[int, int, int]:
        """``(kind, space, dice)`` after a roll: PLACE, else REROLL if a token is held, else BURST."""
        ch = self.choose(layout, cov, placed, roll)
        if ch is not None:
            return PLACE, ch[0], ch[1]
        return (REROLL if yarn > 0 and self.yarn else BURST), -1, 0

    def stop(self, layout, cov: int, placed: int, dice_left: int, placements: int, *, turn_dice: int,
             yarn: int, need: int = 0, yarn_tokens: bool = True) -> bool:
        """After a placement: stop once the dice form a valid group and the stop rule says so."""
        from .board import is_valid

        if not is_valid(layout, placed, cov):
            return dice_left == 0
        return dice_left == 0 or self.stops(layout, cov, placed, dice_left, placements)

    # ----------------------------------------------------------------- batched view
    def table(self, layout, cov: int, placed: int, d: int, D: int, y: int, k: int = 0, yarn_tokens: bool = True):
        """``(kind, space, count)`` per sorted roll of ``d`` dice: 0 burst, 1 place, 2 reroll."""
        faces, _ = multisets(d)
        rows = len(faces)
        kind = np.zeros(rows, dtype=np.int64)
        space = np.full(rows, -1, dtype=np.int64)
        count = np.zeros(rows, dtype=np.int64)
        for r in range(rows):
            ch = self.choose(layout, cov, placed, faces[r])
            if ch is None:
                kind[r] = 2 if y > 0 and self.yarn else 0
            else:
                kind[r], space[r], count[r] = 1, ch[0], ch[1]
        return kind, space, count

    def should_stop(self, layout, cov: int, placed: int, d: int, D: int, y: int, k: int = 0,
                    placements: int = 0, yarn_tokens: bool = True) -> bool:
        from .board import is_valid

        if not is_valid(layout, placed, cov):
            return d == 0
        return d == 0 or self.stops(layout, cov, placed, d, placements)


def greedy() -> Policy:
    """Greedy placement; never stops while dice are left.

    Returns
    -------
    Policy
        A seat or turn policy named ``"greedy"`` (for :func:`~.sim.simulate_games`, :func:`~.rules.play_game`,
        :func:`~.turns.simulate_turns`).

    Examples
    --------
    >>> greedy().name
    'greedy'
    """
    return Policy("greedy", K.KIND_GREEDY, 0.0)


def stop_after(k: int) -> Policy:
    """Greedy placement; stops once ``k`` placements form a valid group.

    Parameters
    ----------
    k : int
        Placements before stopping, >= 1.

    Returns
    -------
    Policy
        A seat or turn policy named ``"stop_after(k)"`` (the string ``"stop_after:k"`` names it too).

    Raises
    ------
    ValueError
        If ``k`` is not an integer >= 1.

    Examples
    --------
    >>> stop_after(2).name
    'stop_after(2)'
    """
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise ValueError(f"k must be an integer >= 1 (placements before stopping), got {k!r}")
    return Policy(f"stop_after({int(k)})", K.KIND_STOP_AFTER, float(k))


def stop_if_burst_risk_above(p: float) -> Policy:
    """Greedy placement; stops when the next roll's chance of no completable placement exceeds ``p``.

    Parameters
    ----------
    p : float
        Burst-risk threshold, a probability in [0, 1] (0: stop whenever a roll could burst; 1: never stop).

    Returns
    -------
    Policy
        A seat or turn policy named ``"stop_if_burst_risk_above(p)"`` (the string ``"risk:p"`` names it too).

    Raises
    ------
    ValueError
        If ``p`` is not a number in [0, 1].

    Examples
    --------
    >>> stop_if_burst_risk_above(0.35).name
    'stop_if_burst_risk_above(0.35)'
    """
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not (0 <= p <= 1) or math.isnan(p):
        raise ValueError(f"p must be a probability in [0, 1], got {p!r}")
    return Policy(f"stop_if_burst_risk_above({float(p):g})", K.KIND_RISK, float(p))


@dataclass(frozen=True)
class OptimalPolicy:
    """Follows the exact advisor (re-solved on each new board, e.g. in bonus turns).

    ``engine`` picks the solver for the readable engine and the turn simulator (the compiled game engine
    always uses the compiled one: same decisions).
    """

    objective: object = "tiles"
    yarn_value: float | None = None
    bonus: str = "auto"
    engine: str = "compiled"

    @property
    def name(self) -> str:
        from .advisor import parse_objective

        obj = parse_objective(self.objective)
        out = "optimal" if obj.kind == "tiles" else f"optimal:at_least:{obj.k}"
        extra = []
        if self.bonus != "auto":
            extra.append(f"bonus={self.bonus}")
        if self.yarn_value is not None and obj.kind == "tiles":
            extra.append(f"yarn_value={self.yarn_value:g}")
        return out + (f"({', '.join(extra)})" if extra else "")

    @property
    def need(self) -> int:
        """Tiles aimed at in a turn (``at_least`` objective), 0 for expected tiles."""
        from .advisor import parse_objective

        return parse_objective(self.objective).k

    def with_config(self, config) -> OptimalPolicy:
        """This policy with the components' yarn value when it has none of its own."""
        import dataclasses

        if self.yarn_value is not None or config is None:
            return self
        from .components import default_components

        if config.yarn_value == default_components().config.yarn_value:
            return self
        return dataclasses.replace(self, yarn_value=config.yarn_value)

    def solver(self, layout, yarn_tokens: bool = True):
        from .advisor import solver_for

        return solver_for(layout, self.objective, self.yarn_value, self.bonus, engine=self.engine,
                          yarn_tokens=yarn_tokens)

    def table(self, layout, cov: int, placed: int, d: int, D: int, y: int, k: int = 0, yarn_tokens: bool = True):
        return self.solver(layout, yarn_tokens).decision_table(cov, placed, d, D, y, k)

    def should_stop(self, layout, cov: int, placed: int, d: int, D: int, y: int, k: int = 0,
                    placements: int = 0, yarn_tokens: bool = True) -> bool:
        return self.solver(layout, yarn_tokens).should_stop(cov, placed, d, D, y, k)

    # ----------------------------------------------------------------- readable-engine interface
    def decide(self, layout, cov: int, placed: int, roll, *, turn_dice: int, yarn: int, need: int = 0,
               yarn_tokens: bool = True) -> tuple[int, int, int]:
        """``(kind, space, dice)``: the optimal choice for this roll (PLACE, REROLL or BURST)."""
        s = self.solver(layout, yarn_tokens)
        if s.engine == "python":
            from .chance import multisets

            faces, _ = multisets(len(roll))
            row = [tuple(f) for f in faces.tolist()].index(tuple(sorted(int(v) for v in roll)))
            kind, space, count = (a[row] for a in s.decision_table(cov, placed, len(roll), turn_dice, yarn, need))
            return int(kind), int(space), int(count)
        return s.decide(cov, placed, roll, turn_dice, yarn, need)

    def stop(self, layout, cov: int, placed: int, dice_left: int, placements: int, *, turn_dice: int,
             yarn: int, need: int = 0, yarn_tokens: bool = True) -> bool:
        """After a placement: stop (tiles if the dice form a valid group, else a burst) or continue."""
        return self.solver(layout, yarn_tokens).should_stop(cov, placed, dice_left, turn_dice, yarn, need)

    def turn_value(self, layout, cov: int, turn_dice: int, yarn: int, need: int = 0,
                   yarn_tokens: bool = True) -> float:
        """Exact value of a fresh turn (segment) under this objective."""
        return self.solver(layout, yarn_tokens).fresh(cov, turn_dice, yarn, need)[0]

    def stop_value(self, layout, cov: int, placed: int, dice_left: int, turn_dice: int, yarn: int, need: int = 0,
                   yarn_tokens: bool = True) -> float:
        """Exact value of stopping now (the tiles, tokens and the bonus turn's value, as the solver counts)."""
        return self.solver(layout, yarn_tokens).stop(cov, placed, dice_left, turn_dice, yarn, need)[0]


def optimal(objective="tiles", yarn_value: float | None = None, bonus: str = "auto", *,
            engine: str = "compiled") -> OptimalPolicy:
    """The solved optimal turn policy (see :func:`pyradice_lab.purramid.turn_policy`); a seat policy in
    :func:`~.sim.simulate_games` and :func:`~.rules.play_game` too.

    Parameters
    ----------
    objective : "tiles" or ("at_least", k)
        Maximise expected tiles (yarn tokens at ``yarn_value`` each) or the chance of at least ``k`` >= 1
        tiles this turn.
    yarn_value : float, optional
        Tiles per yarn token (default: the components' ``yarn_value``).
    bonus : {"auto", "exact", "approx", "none"}
        How bonus turns are valued (see :func:`~.advisor.advise`).
    engine : {"compiled", "python"}
        The compiled solver or the readable reference (same decisions, much slower).

    Returns
    -------
    OptimalPolicy
        A frozen policy object; it solves each board it meets (memoised) when a game or turn is played.

    Raises
    ------
    ValueError
        If ``objective``, ``bonus``, ``engine`` or ``yarn_value`` is not one of the allowed values.

    Examples
    --------
    >>> optimal().name, optimal(("at_least", 3)).name, optimal(bonus="exact").name
    ('optimal', 'optimal:at_least:3', 'optimal(bonus=exact)')
    """
    from .advisor import BONUS_MODES, ENGINES, _check_yarn_value, parse_objective

    obj = parse_objective(objective)
    if not isinstance(bonus, str) or bonus not in BONUS_MODES:
        raise ValueError(f"bonus must be one of {BONUS_MODES}, got {bonus!r}")
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    yv = None if yarn_value is None else _check_yarn_value(yarn_value)
    return OptimalPolicy(obj if obj.kind == "at_least" else "tiles", yv, bonus, engine)


#: Restrictions of restricted play: name -> one-line description (see :func:`restrict`).
RESTRICTIONS = {
    "no_yarn": "never spends yarn tokens (a roll with no completable placement bursts)",
    "no_stop": "never stops while dice are left (presses on until the dice run out or burst)",
}


def restrict(policy: Policy, restriction: str) -> Policy:
    """``policy`` forbidden one option (a name of :data:`RESTRICTIONS`); named ``"<policy>/<restriction>"``.

    >>> restrict(stop_after(2), "no_stop").kind == greedy().kind
    True
    """
    if not isinstance(policy, Policy):
        raise ValueError(f"policy: restrictions apply to the human-style policies, got {getattr(policy, 'name', policy)!r}")
    if restriction not in RESTRICTIONS:
        raise ValueError(f"policy: restriction must be one of {sorted(RESTRICTIONS)}, got {restriction!r}")
    name = f"{policy.name}/{restriction}"
    if restriction == "no_yarn":
        return Policy(name, policy.kind, policy.param, yarn=False)
    return Policy(name, K.KIND_GREEDY, 0.0, yarn=policy.yarn)


def parse_policy(spec, *, allow_optimal: bool = True):
    """A policy from a Policy or OptimalPolicy, or a name: ``greedy``, ``stop_after:K``, ``risk:P``,
    ``optimal`` or ``optimal:at_least:K``; a human-style one optionally restricted: ``"risk:0.3/no_yarn"``
    (see :data:`RESTRICTIONS`)."""
    if isinstance(spec, Policy) or (allow_optimal and isinstance(spec, OptimalPolicy)):
        return spec
    if allow_optimal and callable(getattr(spec, "for_turn", None)):   # a per-turn policy (race.RacePolicy)
        return spec
    if isinstance(spec, str) and "/" in spec:
        base, *restrictions = spec.split("/")
        pol = parse_policy(base, allow_optimal=allow_optimal)
        for r in restrictions:
            pol = restrict(pol, r.strip())
        return pol
    if isinstance(spec, str):
        name, _, arg = spec.strip().partition(":")
        try:
            if name == "greedy" and not arg:
                return greedy()
            if name in ("stop_after", "stop-after") and arg:
                return stop_after(int(arg))
            if name in ("risk", "stop_if_burst_risk_above") and arg:
                return stop_if_burst_risk_above(float(arg))
            if name == "optimal" and allow_optimal:
                if not arg:
                    return optimal()
                kind, _, k = arg.partition(":")
                if kind in ("at_least", "at-least") and k:
                    return optimal(("at_least", int(k)))
        except ValueError as exc:
            raise ValueError(f"policy {spec!r}: {exc}") from None
    allowed = POLICY_NAMES if allow_optimal else HUMAN_POLICY_NAMES
    raise ValueError(f"policy must be a Policy, an optimal() policy or one of {allowed}, got {spec!r}")


def seat_policies(policies, players: int) -> list:
    """One policy per seat: None (all greedy), one policy for every seat, or a list of ``players``."""
    if policies is None:
        return [greedy()] * players
    if isinstance(policies, (str, Policy, OptimalPolicy)):
        return [parse_policy(policies)] * players
    try:
        pols = list(policies)
    except TypeError:
        raise ValueError(f"policies must be a policy name, a policy object or a list of one per seat, "
                         f"got {policies!r}") from None
    if len(pols) != players:
        raise ValueError(f"policies must list one policy per seat ({players}), got {len(pols)}")
    return [parse_policy(p) for p in pols]
