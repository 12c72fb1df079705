"""Did my change make the game better?  Paired comparisons of two component sets with common random numbers.

:func:`compare` plays the same games twice, once with the base components and once with the variant, on
the same per-game random streams (common random numbers), and estimates the difference of a metric from
the per-game differences.  Both runs of game ``i`` get the same seed, so the dice that decide a game are
the same dice in both worlds until the variant changes what is rolled or chosen; the noise the two runs
share cancels in the difference, and the interval of the difference is usually much narrower than the one
two independent runs give.  Not always: once a decision differs, later rolls may differ too, and the two
runs' noise can then add instead of cancel (a factor of 0.70 was measured on a null variant), making the
paired interval *wider*.  The result reports which by the measured variance-reduction factor
``(var_base + var_variant) / var(difference)`` (per-game variances, so: how many times more games two
independent runs would need for the same interval; below 1, the pairing cost precision).

Intervals hold at every number of games: Student-t with ``n - 1`` degrees of freedom for means, ratios and
their paired differences, Wilson for win shares and Agresti-Min for their paired differences (never of zero
width); below 30 games :func:`compare` warns (:class:`~pyradice_lab.engine.stats.SmallSampleWarning`) and the
printed result says so (:mod:`pyradice_lab.design.metrics`).

Seeds: the root seed spawns one child per block of :data:`BLOCK` games (``SeedSequence.spawn``, in order);
base and variant each get a fresh copy of block ``k``'s child, and every game's ``simulate_games``
derives its per-game streams from it (Purramid, Pyradice, Rocking Raft: one spawned child per game;
Meerkat Kingdom: a 64-bit key per game drawn in fixed chunks, from which every turn's dice are hashed by
(turn, purpose, draw), so a decision taken differently leaves every other turn's dice alone).  None of these
depend on the components, so game ``i`` of the base and of the variant start from the same stream.  The blocks make
``until=`` reproducible: a run stops at a block boundary, and its first ``k`` blocks are exactly those of a
run of ``k`` blocks.

The metrics (per-game numbers, ratios of per-game sums and smooth functions of them, with delta-method
standard errors paired game by game) are defined in :mod:`pyradice_lab.design.metrics`.

Examples
--------
>>> from pyradice_lab import compare
>>> from pyradice_lab.meerkat import default_components
>>> base = default_components()
>>> res = compare("meerkat", base, base, "start_player_win", games=50, players=3, policies="greedy", rng=1)
>>> res.difference.value, res.n_games
(0.0, 50)
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine import registry
from ..engine.assumptions import Assumptions, components_label
from ..engine.limits import check_count, count_limit
from ..engine.rng import describe_seed, fresh_copy as _fresh, seed_sequence
from ..engine.stats import Estimate, SmallSampleWarning
from .metrics import (
    _check_game,
    _concat,
    _parse_metric,
    _warn_small,
    check_metric,
    metric_estimate,
    metric_values,
    metrics,
    paired_estimates,
    small_sample_note,
)

__all__ = ["compare", "compare_settings", "Comparison", "metrics", "metric_values", "metric_estimate", "paired_estimates", "check_metric",
           "BLOCK", "SmallSampleWarning"]

def compare_settings(*args, **kwargs):
    """Compare a metric between two settings of a game (``players=3`` against ``players=4``, ...), with the paired
    or independent difference and its CI: :func:`pyradice_lab.design._compare_settings.compare_settings`."""
    from ._compare_settings import compare_settings as run

    return run(*args, **kwargs)


#: Games per seed block (a fixed constant: the numbers never depend on anything but the seed and the count).
BLOCK = 500


def __getattr__(name: str):
    if name == "GAMES":  # the registered games' names (was a fixed tuple)
        return tuple(registry.games())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ------------------------------------------------------------------------------------------------ result
@dataclass(frozen=True)
class Comparison:
    """A paired comparison of a metric between two component sets (see :func:`compare`).

    ``difference`` is variant minus base; ``base`` and ``variant`` are the two estimates; ``independent_se``
    is the standard error the difference would have from two independent runs of ``n_games`` games each
    (estimated from the same games) and ``variance_reduction`` = ``(independent_se / difference.se)**2``
    (``inf`` when every paired difference is 0; below 1 when pairing made the interval wider, not narrower).
    """

    game: str
    metric: str
    description: str
    base: Estimate
    variant: Estimate
    difference: Estimate
    independent_se: float
    variance_reduction: float
    n_games: int
    base_label: str
    variant_label: str
    until: float | None = None
    max_games: int | None = None
    settings: dict = field(default_factory=dict)
    assumptions: Assumptions | None = None
    plain_difference: Estimate | None = None   # with controls: the difference without them (same games)
    controls: tuple = ()                       # with controls: their names

    @property
    def controls_factor(self) -> float | None:
        """With controls: ``(plain SE / controlled SE)^2`` of the difference on the same games (else None)."""
        if self.plain_difference is None:
            return None
        from .controlvariates import variance_factor

        return variance_factor(self.plain_difference, self.difference)

    @property
    def reached(self) -> bool | None:
        """With ``until``: whether the interval of the difference reached that half-width (else None)."""
        return None if self.until is None else bool(self.difference.halfwidth <= self.until)

    def to_frame(self) -> pd.DataFrame:
        """Rows ``base``, ``variant``, ``difference``: ``value``, ``se``, ``ci_low``, ``ci_high``, ``n_games``;
        the settings, the independent SE and the variance-reduction factor in ``attrs``."""
        rows = [(k, e.value, e.se, e.ci_low, e.ci_high, self.n_games)
                for k, e in (("base", self.base), ("variant", self.variant), ("difference", self.difference))]
        df = pd.DataFrame(rows, columns=["estimate", "value", "se", "ci_low", "ci_high", "n_games"])
        df.attrs.update(game=self.game, metric=self.metric, base=self.base_label, variant=self.variant_label,
                        independent_se=self.independent_se, variance_reduction=self.variance_reduction,
                        until=self.until, reached=self.reached, **self.settings)
        if self.plain_difference is not None:
            df.attrs.update(controls=list(self.controls), controls_factor=self.controls_factor,
                            plain_difference=self.plain_difference.to_dict())
        if self.assumptions is not None:
            df.attrs["assumptions"] = self.assumptions
        return df

    def __str__(self) -> str:
        d = self.difference
        lines = [f"{self.game} {self.metric}: {self.description}"]
        if self.assumptions is not None:
            lines.append(self.assumptions.line("  assumptions: "))
        pairing = self.settings.get("pairing")   # compare_settings: sides a and b
        a, b = ("a", "b") if pairing else ("base", "variant")
        lines += [
                 f"  {a:<8} {self.base_label}: {_fmt(self.base)}",
                 f"  {b:<8} {self.variant_label}: {_fmt(self.variant)}",
                 f"  {b} - {a}: {_fmt(d, '+')}, " + (f"{self.n_games} games per setting, independent seeds (Welch t "
                                                     f"interval)" if pairing == "independent" else
                                                     f"{self.n_games} paired games")]
        if pairing == "independent":
            pass
        elif (self.plain_difference or d).se > 0:
            p = self.plain_difference or d
            k = _decimals(p.se)
            gain = "" if self.variance_reduction >= 1 else ": pairing widened the interval here"
            lines.append(f"  common random numbers: SE {p.se:.{k}f} vs {self.independent_se:.{k}f} from independent "
                         f"runs (variance-reduction factor {self.variance_reduction:.1f}{gain})")
        else:
            lines.append("  every paired game gave the same value: the difference is " + (
                "exactly 0" if d.ci_low == d.ci_high else "0 on these games (its interval: how large it could be)"))
        if self.plain_difference is not None:
            from .multifidelity import WORTH_USING

            k = _decimals(d.se)
            label = registry.get_game(self.game).part("controls").label
            lines.append(f"  {label} ({', '.join(self.controls)}): SE {d.se:.{k}f} vs "
                         f"{self.plain_difference.se:.{k}f} without (variance-reduction factor "
                         f"{self.controls_factor:.1f}" + ("" if self.controls_factor >= WORTH_USING else
                                                           f", below {WORTH_USING}: the controls barely help here") + ")")
        if self.until is not None:
            lines.append(f"  until half-width {self.until:g}: " + (
                f"reached (half-width {d.halfwidth:.{_decimals(d.se)}f})" if self.reached else
                f"not reached by max_games={self.max_games} (half-width {d.halfwidth:.{_decimals(d.se)}f})"))
        if d.ci_low < d.ci_high:
            verdict = "0 is inside the interval: no detectable change" if d.contains(0.0) else (
                f"the {b} is higher" if d.ci_low > 0 else f"the {b} is lower")
            if pairing:
                verdict = verdict.replace("the a ", "setting a ").replace("the b ", "setting b ")
            lines.append(f"  {verdict}")
        note = small_sample_note(self.n_games)
        if note:
            lines.append(f"  note: {note}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Comparison\n{self}\n>"


def _decimals(se: float) -> int:
    """Decimals that show two significant digits of ``se``."""
    if not (se > 0 and math.isfinite(se)):
        return 4
    return int(min(max(1 - math.floor(math.log10(se)), 1), 10))


def _fmt(e: Estimate, sign: str = "") -> str:
    k = _decimals(e.se)
    return f"{e.value:{sign}.{k}f} ± {e.se:.{k}f} (95% CI {e.ci_low:{sign}.{k}f}..{e.ci_high:{sign}.{k}f})"


# ------------------------------------------------------------------------------------------------ compare
def _label(x) -> str:
    """The short name of a component set (its content hash is in :attr:`Comparison.assumptions`)."""
    if x is None:
        return "packaged"
    if isinstance(x, (str, bytes)) or hasattr(x, "__fspath__"):
        return str(x)
    h = getattr(x, "content_hash", None)
    return f"components {h()[:12]}" if callable(h) else type(x).__name__


def _check_pos(x, name: str, allow_none: bool = False):
    if x is None and allow_none:
        return None
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < 1:
        raise ValueError(f"{name} must be a positive integer, got {x!r}")
    return int(x)


def compare(game: str, base, variant, metric: str = "start_player_win", *, games: int = 2000,
            players: int | None = None, policies=None, rng=None, until: float | None = None,
            max_games: int | None = None, options: dict | None = None, progress: bool = False, n_jobs: int = 1,
            backend: str = "loky", scheduler=None, cache_dir=None, controls: bool = False) -> Comparison:
    """Compare ``metric`` between the ``base`` and ``variant`` components on common random numbers.

    Parameters
    ----------
    game : str
        A registered game (:func:`pyradice_lab.engine.registry.games`).
    base, variant : None, path or loaded components
        ``None`` = the packaged components; a path to a (partial) components TOML; or components from the
        game's ``load_components`` / ``default_components`` / ``comp.replace(...)``.  Both are validated
        before any game is played.
    metric : str
        A name from :func:`metrics` (``"start_player_win"``, ``"seat_win:1"``, ``"mean_score"``,
        ``"score_spread"``, ``"game_length"``, and per game e.g. ``"burst_rate"``, ``"points_per_meerkat:7"``).
    games : int
        Games played with each component set (default 2000); with ``until``, the minimum.  At most
        ``limits.count_limit("compare_games")`` (10**8; ``PYRADICE_LAB_MAX_COMPARE_GAMES`` raises it), as is
        ``max_games``.
    players : int, optional
        As for the game's ``simulate_games``; default: its default, the registry's ``default_players``.
    policies : str or list, optional
        The players of every game, as for ``simulate_games``; default: the game's report player
        at ``players`` (``registry.get_game(game).report_player_at(players)``, the strongest affordable at report
        scale at that count), as for
        :func:`~pyradice_lab.design.balance.balance` (docs/guide/defaults.md).  Pass ``policies="greedy"`` for
        the fast heuristic.
    rng : int, SeedSequence, Generator or None
        Root seed: same seed -> the same games, the same result.
    until : float, optional
        Keep adding blocks of :data:`BLOCK` games until the 95% interval of the difference has at most this
        half-width (or ``max_games`` is reached; see :attr:`Comparison.reached`).
    max_games : int, optional
        Cap on the games per component set with ``until`` (default: 100 x ``games``, within the limit).
    options : dict, optional
        Further keyword arguments of the game's ``simulate_games`` (e.g. ``{"layout": "B"}`` for Purramid,
        ``{"variant": "sinking"}`` for Rocking Raft), the same for both runs.
    progress : bool
        Progress over the blocks on stderr (:class:`~pyradice_lab.engine.execution.Progress`).
    n_jobs, backend, scheduler : optional
        Blocks of :data:`BLOCK` games run on ``n_jobs`` workers of ``backend`` (``"loky"``, ``"dask"`` with a
        ``scheduler`` address, or ``"threading"``; :mod:`pyradice_lab.engine.execution`); the numbers never
        depend on them.
    cache_dir : path, optional
        Store every finished block there; a killed comparison started again plays only the missing blocks.
    controls : bool
        Estimate with the game's exogenous controls (its contract part ``controls``, e.g. Rocking Raft's deck
        order: variables the seed draws before anyone plays, whose means are known exactly), recomputed for the
        very games played, as control variates (:func:`pyradice_lab.design.controlvariates.controlled_paired`):
        the same games, a narrower interval when the deal explains part of the metric's spread.  The result
        states the variance-reduction factor; for a mean or a ratio (not a win share), with at least 30 games.
        The plain paired difference stays in :attr:`Comparison.plain_difference`.

    Returns
    -------
    Comparison
        ``difference`` (variant - base) with SE and 95% CI, ``base`` and ``variant`` estimates, ``n_games``,
        ``independent_se`` and ``variance_reduction``; ``.to_frame()``; printing it gives a short summary.

    Raises
    ------
    ValueError
        If ``game`` or ``metric`` is unknown (or the metric is undefined in these games), a component set
        fails validation, ``games``/``max_games`` is not a positive integer or is above its limit (stating the
        time it would take; ``max_games`` without ``until``
        or below ``games``), ``until`` is not positive, or ``options`` sets compare's own arguments or
        arguments ``simulate_games`` does not take.
    TypeError
        If ``game`` or ``metric`` is not a string or ``options`` is not a dict.

    Warns
    -----
    SmallSampleWarning
        With fewer than 30 paired games (the intervals still hold their level, but are wide).

    Examples
    --------
    Rocking Raft's cards 1 and 2 worth 4 points: points per lifeboat go up (100 paired games; the README
    shows 1000):

    >>> from pyradice_lab import raft
    >>> v = raft.default_components().replace({"card.1.points": 4, "card.2.points": 4})
    >>> res = compare("raft", None, v, "points_per_boat", games=100, players=2, policies="greedy", rng=1)
    >>> round(res.difference.value, 3), res.difference.ci_low > 0
    (0.109, True)
    """
    game = _check_game(game)
    name, m, arg = _parse_metric(game, metric)
    games = check_count(_check_pos(games, "games"), "compare_games", name="games", factor=2)  # both sides
    if until is not None:
        if isinstance(until, bool) or not isinstance(until, numbers.Real) or not (0 < until < math.inf):
            raise ValueError(f"until must be a positive half-width of the difference's 95% interval, got {until!r}")
        until = float(until)
    from ..engine.sweep import check_progress

    check_progress(progress)
    if max_games is not None and until is None:
        raise ValueError("max_games caps an until= run; without until the run plays exactly games= games")
    max_games = _check_pos(max_games, "max_games", allow_none=True)
    if max_games is not None:
        check_count(max_games, "compare_games", name="max_games", factor=2)
    if until is not None:
        max_games = min(100 * games, count_limit("compare_games")) if max_games is None else max_games
        if max_games < games:
            raise ValueError(f"max_games must be at least games ({games}), got {max_games}")
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"options must be a dict of simulate_games keyword arguments, got {type(options).__name__}")
    options = dict(options or {})
    _check_controls(game, name, controls, games)
    clash = {"n_games", "players", "policies", "rng", "components", "progress"} & set(options)
    if clash:
        raise ValueError(f"options must not set {', '.join(sorted(clash))} (compare's own arguments)")
    spec = registry.get_game(game)
    import inspect

    allowed = [k for k in inspect.signature(spec.simulate_games).parameters
               if k not in {"n_games", "players", "policies", "rng", "components", "progress"}]
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"options: {game}.simulate_games has no {', '.join(map(repr, unknown))} (allowed: "
                         f"{', '.join(allowed)})")
    coerce = spec.components.coerce_components
    comps = {"base": coerce(base, "base"), "variant": coerce(variant, "variant")}
    sim_kw = dict(options)
    if players is not None:
        sim_kw["players"] = players
    if policies is None:  # the report player by default, as balance (docs/guide/defaults.md)
        from ..engine.registry import get_game

        policies = get_game(game).report_player_at(players) or None
    if policies is not None:
        sim_kw["policies"] = policies
    if controls:
        spec.part("controls").check_players(policies)
    from ..engine.execution import Pool, check_execution
    from ..engine.limits import check_result_size

    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    check_result_size(max_games if until is not None else games, _GAME_BYTES, name="max_games" if until else "games")
    root = seed_sequence(rng, name="rng")
    base_child = root.n_children_spawned
    sizes = []   # the blocks of a run that plays every game it may: the first ``games``, then (until=) to max_games
    n = 0
    for target in (games, max_games if until is not None else games):
        while n < target:
            sizes.append(min(BLOCK, target - n))
            n += sizes[-1]
    first = -(-games // BLOCK)  # blocks every run plays

    def seed(k):  # block k's seed: the k-th child of the root, as root.spawn(1) block after block
        return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, base_child + k),
                                      pool_size=root.pool_size)

    def task(k):
        return (game, metric, sizes[k], seed(k), comps["base"], comps["variant"], sim_kw, controls)

    def key(k):
        return {"entry": "compare", "game": game, "metric": metric, "games": sizes[k],
                **describe_seed(seed(k)), "base": comps["base"].content_hash(),
                "variant": comps["variant"].content_hash(), "options": sim_kw, **({"controls": 1} if controls else {})}

    parts: dict[str, list] = {"base": [], "variant": [], "controls": []}
    played = []  # the lineup of each block's first base game (players and policies as played)
    wave = max(1, execution.n_jobs) if execution.parallel else 1
    n = used = 0
    with Pool(execution=execution) as pool:
        todo = list(range(first))
        while todo:
            # the cost said once, before the first wave (both sides' games; with until=, the minimum)
            said = None if used else {"game": game, "policies": policies, "players": players, "factor": 2}
            for b, v, *ctl in pool.imap(_compare_block, [task(k) for k in todo], keys=[key(k) for k in todo],
                                  desc=f"{game} compare", sizes=[sizes[k] for k in todo],
                                  code=[spec.simulate_games, spec.module("sim").outcomes], cost=said):
                b, who = b
                played.append(who)
                parts["base"].append(b)
                parts["variant"].append(v)
                parts["controls"] += ctl
                n += sizes[used]
                used += 1
                if until is not None and n >= games:
                    res = _summarise(parts, name, controls)
                    if res[2].halfwidth <= until or n >= max_games:
                        todo = []
                        break
            else:
                todo = [] if until is None else list(range(used, min(used + wave, len(sizes))))
    root.spawn(used)  # the root's counter moves as if the blocks had been spawned one by one
    b, v, d, ind_se, cv = _summarise(parts, name, controls)
    _warn_small(n, metric.strip(), stacklevel=2)
    plain = d if cv is None else cv.plain   # common random numbers' factor: on the plain difference
    vrf = (ind_se / plain.se) ** 2 if plain.se > 0 else math.inf
    labels = {side: components_label(game, x, comps[side]) for side, x in (("base", base), ("variant", variant))}
    who = played[0] if played else ("-", "-")
    told = Assumptions.build(game, components=f"base {labels['base']}, variant {labels['variant']}",
                             players=who[0], policies=who[1], rng=rng, games=n,
                             **{k: v for k, v in sorted(options.items())})
    return Comparison(game, metric.strip(), m.description, b, v, d, ind_se, vrf, n, _label(base),
                      _label(variant), until, max_games,
                      {"players": players, "policies": policies, "games": games, "block": BLOCK, **options}, told,
                      None if cv is None else cv.plain, () if cv is None else cv.names)


#: Memory of one game's metric values in a comparison (both sides, numerator and denominator), rounded up.
_GAME_BYTES = 64


def _compare_block(game: str, metric: str, size: int, seed, base, variant, sim_kw: dict, controls: bool = False):
    """One block of a comparison: ``size`` games on ``base`` and on ``variant`` from fresh copies of ``seed``;
    with ``controls``, a third item: both sides' exogenous controls of these games (recomputed from the seed)."""
    spec = registry.get_game(game)
    sim = spec.module("sim")
    _, m, arg = _parse_metric(game, metric)
    from ..engine.assumptions import lineup

    out, frames = [], []
    for comp in (base, variant):
        df = sim.simulate_games(size, rng=_fresh(seed), components=comp, **sim_kw)
        frames.append(df)
        played = sim.outcomes(df)
        out.append(m.fn(df, played, arg))
        if not len(out) - 1:
            out[0] = (out[0], lineup(played))  # the base run's players and policies, as played
    if controls:
        players = sim_kw.get("players", spec.default_players)
        c = [spec.part("controls").controls(df, size, players=players, rng=_fresh(seed), components=comp)
             for df, comp in zip(frames, (base, variant))]
        out.append({"names": list(c[0].names), "Xb": c[0].values, "mub": c[0].means, "Xv": c[1].values,
                    "muv": c[1].means})
    return tuple(out)


def _summarise(parts, name, controls: bool = False):
    """Base, variant, difference, the independent SE and (with ``controls``) the controlled estimates, whose
    base/variant/difference then replace the plain ones."""
    base, variant = _concat(parts["base"]), _concat(parts["variant"])
    b, v, d, ind = paired_estimates(base, variant, name, warn=False)
    if not controls:
        return b, v, d, ind, None
    from .controlvariates import controlled_paired
    from .metrics import _linear

    (rb, zb), (rv, zv) = _linear(base, name), _linear(variant, name)
    X = {k: np.concatenate([c[k] for c in parts["controls"]]) for k in ("Xb", "Xv")}
    first = parts["controls"][0]
    cv = controlled_paired(rb + zb, rv + zv, X["Xb"], first["mub"], X["Xv"], first["muv"], d, first["names"])
    return cv.base, cv.variant, cv.difference, ind, cv


def _check_controls(game: str, metric: str, controls, games: int) -> None:
    """``controls=`` checked before any game: a bool; the game declares controls; a mean or ratio; 30+ games."""
    if not isinstance(controls, bool):
        raise TypeError(f"controls must be True or False, got {type(controls).__name__}")
    if not controls:
        return
    if not registry.get_game(game).has_part("controls"):
        have = [g for g, s in registry.games().items() if s.has_part("controls")]
        raise ValueError(f"controls: {game} declares no exogenous controls (games that do: {', '.join(have) or 'none'})")
    from .metrics import SHARE_METRICS

    if metric in SHARE_METRICS:
        raise ValueError(f"controls: {metric} is a win share, whose Wilson/Agresti-Min intervals the regression would "
                         "replace; controls apply to means and ratios")
    if games < 30:
        raise ValueError(f"controls: needs games >= 30 (a regression on the controls), got games={games}")
