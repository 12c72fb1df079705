"""How strong is each player, and what is each option worth?  A Bradley-Terry ladder and restricted play.

:func:`ladder` plays registered policies of one game against each other, in seatings that rotate every policy
through every seat, and fits a Bradley-Terry model to the pairwise results within each game (who finished
above whom; ties count half).  Ratings are on the Elo scale (a difference of 400 points = 10:1 odds of
finishing above the other player) with confidence intervals.

:func:`restricted_play` (Jaffe et al. 2012) seats a player forbidden one option (``"<policy>/<restriction>"``,
the restrictions each game registers) against unrestricted copies of itself: an option whose loss costs
nothing has no measurable value; one without which the player almost never wins is dominant.

The model
---------
Policy ``i`` has strength ``theta_i`` (logits); ``P(i above j) = 1 / (1 + exp(theta_j - theta_i))``.  Every pair
of seats with different policies in a game is one comparison (a 3-player game gives 3, a 4-player game 6);
a tie on rank counts half to each.  The fit maximises the log-likelihood plus a weak Gaussian prior
``theta_i ~ N(0, prior_sd)`` (default :data:`DEFAULT_PRIOR_SD` = 1000 Elo): it changes well-measured ratings
by a negligible amount and keeps the rating of a policy that wins (or loses) every game finite.  The
variance of the difference of two strengths is the larger of the model-based one (inverse Hessian of the
penalised log-likelihood) and a sandwich estimate clustered by game (comparisons from one multi-player game
are not independent); intervals are rating +- 1.96 SE.

Anchor: by default the ratings average 0 over the policies in the ladder, and each policy's SE is its
*quasi-standard error* (Firth & de Menezes 2004): chosen so that the SE of the difference of any two ratings
is close to ``sqrt(se_i**2 + se_j**2)`` (the largest relative error is ``attrs["quasi_se_error"]``; the exact
SEs of all differences are ``attrs["diff_se"]``).  So ratings can be compared pair by pair: intervals that
do not overlap mean a significant difference, and a policy whose rating is poorly determined (one that
loses every game) does not widen the others' intervals.  ``anchor="greedy"`` instead puts that policy at 0;
the intervals are then exactly those of each policy's difference from it (the anchor's is [0, 0]).

Win rates are win shares (a k-way shared win counts 1/k) over every seat the policy took, with Wilson
intervals (fractional successes allowed); the fair share is 1/players.

Examples
--------
>>> table = ladder("raft", ["random", "greedy"], games=20, rng=1)
>>> list(table.columns[:4]), list(table["policy"])
(['policy', 'rating', 'rating_ci_low', 'rating_ci_high'], ['greedy', 'random'])
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from itertools import combinations, combinations_with_replacement

import pandas as pd

from ..engine.rng import seed_sequence

__all__ = ["ladder", "restricted_play", "fit_bradley_terry", "pairwise_results", "head_to_head", "lineups",
           "nontransitive_pairs",
           "wilson_interval", "quasi_variances", "ELO_PER_LOGIT", "DEFAULT_PRIOR_SD", "DOMINANT_FRACTION"]

from ._bradley_terry import (  # noqa: E402 - the ladder's statistics, re-exported
    DEFAULT_PRIOR_SD,
    ELO_PER_LOGIT,
    fit_bradley_terry,
    head_to_head,
    nontransitive_pairs,
    pairwise_results,
    quasi_variances,
    wilson_interval,
)

#: A restriction is "dominant" when the restricted player's win-rate CI lies below this fraction of the fair
#: share (1/players): without the option it almost never wins.
DOMINANT_FRACTION = 0.2


# ----------------------------------------------------------------------------------------- validation
def _spec(game):
    from ..engine import registry

    if isinstance(game, registry.GameSpec):
        return game
    if not isinstance(game, str):
        raise TypeError(f"game must be a registered game name, got {type(game).__name__}")
    return registry.get_game(game)


def _pos_int(v, name: str, low: int = 1, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low or (high is not None and v > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be an integer {span}, got {v!r}")
    return int(v)


def _execution(n_jobs, backend, scheduler, progress, cache_dir):
    from ..engine.execution import check_execution

    return check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)


def _names(policies, name: str, spec) -> list[str]:
    if policies is None:
        policies = spec.policies
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        raise TypeError(f"{name} must be a list of policy names, got {policies!r}")
    out = list(policies)
    if not all(isinstance(p, str) and p for p in out):
        raise ValueError(f"{name} must be non-empty policy names (str), got {out!r}")
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must be distinct, got {out!r}")
    return out


# ----------------------------------------------------------------------------------------- playing
def lineups(policies: Sequence[str], players: int, *, ok=None) -> list[list[tuple[str, ...]]]:
    """The games of a ladder: per lineup of policies, its seatings (every cyclic rotation).

    Two players: every pair, in both seatings.  3-4 players: every combination of ``players`` distinct
    policies (with fewer policies than seats: every multiset holding at least two different ones), each in
    its ``players`` rotations, so every policy sits in every seat equally often.  ``ok(lineup) -> bool``
    drops lineups a game cannot seat (e.g. two Meerkat Kingdom automata).

    Examples
    --------
    >>> lineups(["a", "b", "c"], 2)[0]
    [('a', 'b'), ('b', 'a')]
    >>> lineups(["a", "b", "c"], 3)
    [[('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')]]
    """
    names = list(policies)
    if len(names) >= players:
        combos = list(combinations(names, players))
    else:
        combos = [c for c in combinations_with_replacement(names, players) if len(set(c)) > 1]
    out = []
    for c in combos:
        if ok is not None and not ok(list(c)):
            continue
        out.append([tuple(c[(k + r) % players] for k in range(players)) for r in range(players)])
    return out


def _play_block(game: str, seating: tuple[str, ...], n_games: int, seed, game_kwargs: Mapping) -> pd.DataFrame:
    return _spec(game).lineup_outcomes(list(seating), n_games, rng=seed, **dict(game_kwargs))


def _run_blocks(spec, blocks, n_games: int, seeds, execution, game_kwargs, entry: str) -> pd.DataFrame:
    from ..engine.execution import Pool
    from ..engine.limits import check_result_size
    from ..engine.rng import describe_seed

    players = len(blocks[0]) if blocks else 1
    check_result_size(len(blocks) * n_games * players, _SEAT_ROW_BYTES, name="games", item="seat result")
    args = [(spec.name, seating, n_games, seed, game_kwargs) for seating, seed in zip(blocks, seeds)]
    keys = [{"entry": entry, "game": spec.name, "seating": list(seating), "games": n_games,
             **describe_seed(seed), "kwargs": game_kwargs} for seating, seed in zip(blocks, seeds)]
    with Pool(execution=execution) as pool:
        parts = pool.map(_play_block, args, keys=keys, desc=f"{spec.name} {entry}", sizes=[n_games] * len(args),
                         code=[spec.lineup_outcomes],
                         cost={"game": spec.name, "policies": [p for s in blocks for p in s], "players": players})
    frames = [out.assign(block=i, game=i * n_games + out["game"].to_numpy()) for i, out in enumerate(parts)]
    return pd.concat(frames, ignore_index=True)


#: Memory of one (game, seat) row of the outcomes frame a ladder holds (rounded up).
_SEAT_ROW_BYTES = 200


def _game_kwargs(game_kwargs) -> dict:
    if game_kwargs is None:
        return {}
    if not isinstance(game_kwargs, Mapping):
        raise TypeError(f"game_kwargs must be a dict of simulate_games keyword arguments, got {game_kwargs!r}")
    return dict(game_kwargs)


def ladder(game, policies, *, players: int | None = None, games: int = 1000, rng=None, n_jobs: int = 1,
           progress: bool = False, anchor: str | None = None, prior_sd: float = DEFAULT_PRIOR_SD,
           game_kwargs: Mapping | None = None, return_outcomes: bool = False, backend: str = "loky",
           scheduler=None, cache_dir=None):
    """Rate ``policies`` of ``game`` against each other: a Bradley-Terry ladder with confidence intervals.

    Parameters
    ----------
    game : str or GameSpec
        A registered game (``"purramid"``, ``"pyradice"``, ``"raft"``, ``"meerkat"``).
    policies : sequence of str or None
        At least two distinct policy names the game's simulator accepts (restricted players
        ``"<policy>/<restriction>"`` included); None: the game's registered policies.
    players : int, optional
        Seats per game, 2..4; None: the game's ``default_players`` (registry; 2 where a game states none).
    games : int
        Games per lineup (two players: per pair of policies), split evenly over its seatings and rounded
        up to a multiple of them.
    rng : seed, SeedSequence or Generator
        Root seed; block ``i`` (one seating of one lineup) plays with the ``i``-th spawned child, so the
        result is the same for any ``n_jobs``.
    n_jobs : int
        Parallel workers over blocks (-1: all cores).
    progress : bool
        Progress over blocks on stderr (:class:`~pyradice_lab.engine.execution.Progress`).
    anchor : str, optional
        Policy rated 0 (default: ratings average 0).
    prior_sd : float
        Prior standard deviation of every strength, Elo points (see the module docstring).
    game_kwargs : dict, optional
        Extra keyword arguments of the game's ``simulate_games`` (e.g. ``{"layout": "B"}`` for Purramid,
        ``{"variant": "sinking"}`` for Rocking Raft, ``{"components": ...}`` for Meerkat Kingdom).
    return_outcomes : bool
        Also return the outcomes frame of every game played (:mod:`pyradice_lab.engine.outcomes`, plus ``block``).
    backend, scheduler : str, optional
        Where the blocks run: ``"loky"`` (default), ``"dask"`` (``scheduler``: a cluster's address) or
        ``"threading"`` (:mod:`pyradice_lab.engine.execution`); the numbers never depend on it.
    cache_dir : path, optional
        Store every finished block there; a killed run started again computes only the missing blocks.

    Returns
    -------
    DataFrame
        One row per policy, strongest first: ``policy, rating, rating_ci_low, rating_ci_high, win_rate,
        win_rate_ci_low, win_rate_ci_high, games`` (games the policy played) and ``rating_se``, ``wins`` (win
        shares), ``players``.  ``attrs``: ``head_to_head`` (see :func:`head_to_head`; its ``predicted`` column is
        the model's score of ``a`` against ``b``: far from ``score``, one rating cannot summarise the pair),
        ``nontransitive`` (:func:`nontransitive_pairs`: the pairs whose head to head contradicts the ratings
        beyond their CIs; empty: none), ``diff_se``, ``quasi_se_error`` and ``separation`` (see
        :func:`fit_bradley_terry`: not None when a policy finished above another in every game they met, whose
        ratings then rest on the prior), ``game``,
        ``players``,
        ``games_per_seating``, ``anchor``, ``prior_sd``, ``seed_entropy``.

    Examples
    --------
    >>> t = ladder("purramid", ["greedy", "stop_after:2"], players=2, games=40, rng=3)
    >>> t["policy"].tolist(), int(t["games"].iloc[0])
    (['stop_after:2', 'greedy'], 40)
    """
    spec = _spec(game)
    names = _names(policies, "policies", spec)
    if len(names) < 2:
        raise ValueError(f"policies must name at least two policies, got {names!r}")
    players = _pos_int((spec.default_players or 2) if players is None else players, "players", 2, 4)
    games = _pos_int(games, "games")
    execution = _execution(n_jobs, backend, scheduler, progress, cache_dir)
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor must be one of the policies {names}, got {anchor!r}")
    kwargs = _game_kwargs(game_kwargs)
    lineup_list = lineups(names, players, ok=spec.lineup_ok)
    if not lineup_list:
        raise ValueError(f"policies: no lineup of {players} seats can be played with {names}")
    per_seating = -(-games // len(lineup_list[0]))
    blocks = [s for lineup in lineup_list for s in lineup]
    root = seed_sequence(rng, name="rng")
    out = _run_blocks(spec, blocks, per_seating, root.spawn(len(blocks)), execution, kwargs, "ladder")
    fit = fit_bradley_terry(pairwise_results(out), names, anchor=anchor, prior_sd=prior_sd)
    by = out.groupby("policy")["win"]
    played, wins = by.size().reindex(names).to_numpy(), by.sum().reindex(names).to_numpy()
    low, high = wilson_interval(wins, played)
    table = fit.drop(columns="comparisons").assign(win_rate=wins / played, win_rate_ci_low=low,
                                                   win_rate_ci_high=high, games=played, wins=wins, players=players)
    cols = ["policy", "rating", "rating_ci_low", "rating_ci_high", "win_rate", "win_rate_ci_low", "win_rate_ci_high",
            "games", "rating_se", "wins", "players"]
    table = table[cols].sort_values("rating", ascending=False, kind="stable", ignore_index=True)
    h2h = head_to_head(out)
    r = dict(zip(fit["policy"], fit["rating"]))
    h2h["predicted"] = 1 / (1 + 10 ** ((h2h["b"].map(r) - h2h["a"].map(r)) / 400))
    flagged = nontransitive_pairs(h2h, r)
    table.attrs.update({"game": spec.name, "players": players, "games_per_seating": per_seating, "anchor": anchor,
                        "prior_sd": prior_sd, "seed_entropy": root.entropy, "head_to_head": h2h,
                        "diff_se": fit.attrs["diff_se"], "quasi_se_error": fit.attrs["quasi_se_error"],
                        "separation": fit.attrs["separation"], "nontransitive": flagged,
                        "assumptions": _assumptions(spec.name, kwargs, rng, f"{len(names)} rated: {', '.join(names)}",
                                                    players, f"{per_seating:,} per seating, {per_seating * len(blocks):,} in all")})
    return (table, out) if return_outcomes else table


def _assumptions(game: str, kwargs: dict, rng, policies: str, players: int, games: str):
    """The :class:`~pyradice_lab.engine.assumptions.Assumptions` of a ladder or a restricted-play table."""
    from ..engine.assumptions import Assumptions, components_label

    extra = {k: v for k, v in sorted(kwargs.items()) if k != "components"}
    return Assumptions.build(game, components=components_label(game, kwargs.get("components")), players=players,
                             policies=policies, rng=rng, games=games, **extra)


def restricted_play(game, policy, restrictions, *, players: int | None = None, games: int = 1000, rng=None,
                    n_jobs: int = 1, progress: bool = False, dominant_fraction: float = DOMINANT_FRACTION,
                    game_kwargs: Mapping | None = None, backend: str = "loky", scheduler=None,
                    cache_dir=None) -> pd.DataFrame:
    """The win rate of ``policy`` forbidden one option against unrestricted copies of itself, per restriction.

    Parameters
    ----------
    game : str or GameSpec
    policy : str or None
        The player (None: :func:`~pyradice_lab.engine.registry.restricted_player`, the game's report player when
        it takes restrictions, e.g. Meerkat Kingdom's ``mcts_v2``, else its strongest registered policy that
        can sit twice in a game).
    restrictions : sequence of str or None
        Names the game registers (``registry.get_game(game).restrictions``; one with an argument, ``name:<X>``, given
        with its value, e.g. ``"no_tile:7"``); None: all of them without an argument.
    players : int, optional
        Seats, 2..4 (None: the game's ``default_players``, 2 where a game states none): one restricted player, ``players - 1`` unrestricted ones; the restricted player sits in
        every seat equally often.
    games : int
        Games per restriction (rounded up to a multiple of ``players``).
    rng : seed, SeedSequence or Generator
        Block ``i`` (one restriction, one seat) plays with the ``i``-th spawned child.
    n_jobs, progress, game_kwargs, backend, scheduler, cache_dir
        As in :func:`ladder`.
    dominant_fraction : float
        A restriction is "dominant" when the CI's upper end is below ``dominant_fraction / players``.

    Returns
    -------
    DataFrame
        One row per restriction, the most costly first (by ``effect`` = win rate - fair share):
        ``restriction, description, player, opponent, players, games, win_rate, win_rate_ci_low,
        win_rate_ci_high, fair_share, effect, flag``.  ``flag``: ``"no measurable value"`` (the CI contains the
        fair share), ``"dominant"`` (see ``dominant_fraction``), ``"valuable"`` (CI below the fair share),
        ``"harmful"`` (CI above it: the player does better without the option).

    Examples
    --------
    >>> t = restricted_play("raft", "greedy", ["fixed_duration"], games=20, rng=2)
    >>> t[["restriction", "player", "games"]].values.tolist()
    [['fixed_duration', 'greedy/fixed_duration', 21]]
    """
    spec = _spec(game)
    if policy is None:
        from ..engine.registry import restricted_player

        policy = restricted_player(spec)
    if not isinstance(policy, str) or not policy:
        raise ValueError(f"policy must be a policy name, got {policy!r}")
    names = _names(restrictions if restrictions is not None else spec.plain_restrictions, "restrictions", spec)
    if not names:
        raise ValueError("restrictions must name at least one restriction")
    unknown = [r for r in names if spec.restriction_description(r) is None]
    if unknown:
        raise ValueError(f"restrictions must be among {sorted(spec.restrictions)} ({spec.name}; a name:<X> with a "
                         f"value, e.g. name:7), got {unknown}")
    players = _pos_int((spec.default_players or 2) if players is None else players, "players", 2, 4)
    games = _pos_int(games, "games")
    execution = _execution(n_jobs, backend, scheduler, progress, cache_dir)
    if isinstance(dominant_fraction, bool) or not isinstance(dominant_fraction, numbers.Real) or \
            not 0 < dominant_fraction < 1:
        raise ValueError(f"dominant_fraction must be in (0, 1), got {dominant_fraction!r}")
    kwargs = _game_kwargs(game_kwargs)
    per_seat = -(-games // players)
    blocks = [tuple(f"{policy}/{r}" if k == seat else policy for k in range(players))
              for r in names for seat in range(players)]
    root = seed_sequence(rng, name="rng")
    out = _run_blocks(spec, blocks, per_seat, root.spawn(len(blocks)), execution, kwargs, "restricted_play")
    fair = 1 / players
    rows = []
    for r in names:
        mine = out[out["policy"] == f"{policy}/{r}"]
        n, w = len(mine), float(mine["win"].sum())
        low, high = (float(x) for x in wilson_interval(w, n))
        if low <= fair <= high:
            flag = "no measurable value"
        elif high < dominant_fraction * fair:
            flag = "dominant"
        else:
            flag = "valuable" if high < fair else "harmful"
        rows.append({"restriction": r, "description": spec.restriction_description(r), "player": f"{policy}/{r}",
                     "opponent": policy, "players": players, "games": n, "win_rate": w / n, "win_rate_ci_low": low,
                     "win_rate_ci_high": high, "fair_share": fair, "effect": w / n - fair, "flag": flag})
    table = pd.DataFrame(rows).sort_values("effect", kind="stable", ignore_index=True)
    table.attrs.update({"game": spec.name, "policy": policy, "players": players, "games_per_seat": per_seat,
                        "dominant_below": dominant_fraction * fair, "seed_entropy": root.entropy,
                        "assumptions": _assumptions(spec.name, kwargs, rng, f"{policy} with one option forbidden "
                                                    f"vs {players - 1} unrestricted {policy}", players,
                                                    f"{per_seat:,} per seat, {per_seat * players:,} per restriction")})
    return table
