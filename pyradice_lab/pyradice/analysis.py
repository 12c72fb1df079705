"""Monte Carlo experiments on whole games, each a tidy DataFrame with standard errors and 95% CIs.

- :func:`available_by_turn` — how many dice are available on each turn, per policy (exact for the first turns of
  ``random_legal`` via :func:`.odds.available_exact`);
- :func:`goal_rates` — P(each level's goal token is met at the end) per policy, beside the exact blind baseline;
- :func:`skill_values` — what each level's skill is worth: the change in mean score and goals when its token is
  removed from every board (same seeds, so the comparison is paired);
- :func:`card_balance` — points per objective card (mean, spread, chance of scoring nothing);
- :func:`first_player_advantage` — win share by turn position (first, second, ...) against the fair share
  (:func:`by_position` does the same for games already simulated; every start-player number is by position).

Examples
--------
>>> df = first_player_advantage(20, players_list=(2,), policies="random_legal", rng=1)
>>> df[["players", "position"]].values.tolist(), df["fair_share"].tolist()
([[2, 1], [2, 2]], [0.5, 0.5])
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as _sps

from ..engine._lazy import lazy_names
from ..engine.findings import Finding
from ..engine.rng import seed_sequence
from ..engine.stats import Z95, mean_estimate, proportion_estimate
from .components import GOAL_LEVELS, SKILL_LEVELS, Setup, coerce_components
from .geometry import check_players
from .odds import MAX_EXACT_TURNS, available_exact, blind_goal_probability
from .policies import POLICIES
from .sim import check_setup, simulate_games

__all__ = ["available_by_turn", "available_distribution", "goal_rates", "skill_values", "card_balance",
           "first_player_advantage", "by_position", "win_shares", "CARD_GROUPS", "reconstructed_components",
           "START_COMPONENT", "available_findings", "goal_findings", "skill_findings", "card_findings",
           "first_player_findings"]  # and the report's experiments (data + findings, no figure): lazy_names, below


def _check_games(n_games) -> int:
    if isinstance(n_games, bool) or not isinstance(n_games, numbers.Integral) or n_games < 2:
        raise ValueError(f"n_games must be an integer >= 2 (standard errors need two games), got {n_games!r}")
    return int(n_games)


def _check_policy(p) -> str:
    from .search import FlatMC

    if p not in POLICIES and not (isinstance(p, str) and FlatMC.parse(p) is not None):
        raise ValueError(f"policy must be one of {sorted(POLICIES)} or the search player 'flat_mc[:N]', got {p!r}")
    return p


def _est_cols(prefix: str, est, lo: float = -np.inf, hi: float = np.inf) -> dict:
    """Estimate columns; the CI is clipped to [lo, hi] (a share cannot leave [0, 1])."""
    return {prefix: est.value, f"{prefix}_se": est.se, f"{prefix}_ci_low": max(lo, est.ci_low),
            f"{prefix}_ci_high": min(hi, est.ci_high)}


def _child(seq, i: int) -> np.random.SeedSequence:
    """Child ``i`` of ``seq`` (independent of how many other children are taken)."""
    return np.random.SeedSequence(seq.entropy, spawn_key=tuple(seq.spawn_key) + (i,))


def available_by_turn(n_games: int, players: int = 2, policies: Sequence[str] = ("random_legal", "greedy"), *,
                      rng=None, setup: Setup | None = None, runs: dict | None = None, components=None) -> pd.DataFrame:
    """Mean number of available dice on each turn, per policy (all seats play it), with SE/CI.

    ``runs`` may hold already simulated ``{policy: (frame, arrays)}`` to reuse.  The column ``exact_mean`` gives
    the exact expectation for ``random_legal`` on the first :data:`.odds.MAX_EXACT_TURNS` turns.
    ``components`` (every experiment here): a path or loaded components, the catalogue of ``setup``.
    """
    n_games = _check_games(n_games)
    players = check_players(players)
    setup = check_setup(setup, components)
    root = seed_sequence(rng)
    exact = available_exact(MAX_EXACT_TURNS, players)
    exact_mean = exact.assign(m=exact.n_available * exact.p).groupby("turn")["m"].sum()
    rows = []
    for i, pol in enumerate(policies):
        _check_policy(pol)
        if runs and pol in runs:
            _, arrays = runs[pol]
        else:
            _, arrays = simulate_games(n_games, players, setup, pol, rng=_child(root, i), return_arrays=True)
        ch = arrays["choices"].astype(float)
        m = ch.mean(axis=0)
        se = ch.std(axis=0, ddof=1) / np.sqrt(len(ch))
        q = float(_sps.t.ppf(0.975, len(ch) - 1))          # the Student-t interval of stats.mean_estimate
        for t in range(ch.shape[1]):
            row = {"policy": pol, "turn": t + 1, "available": m[t], "available_se": se[t],
                   "available_ci_low": m[t] - q * se[t], "available_ci_high": m[t] + q * se[t],
                   "min": int(ch[:, t].min()), "max": int(ch[:, t].max()), "n_games": ch.shape[0]}
            row["exact_mean"] = float(exact_mean.get(t + 1, np.nan)) if pol == "random_legal" else np.nan
            rows.append(row)
    return pd.DataFrame(rows)


def available_distribution(choices: np.ndarray, policy: str = "") -> pd.DataFrame:
    """P(n dice available) on each turn from simulated ``choices`` (games x turns), with Wilson 95% CIs.

    Examples
    --------
    >>> import numpy as np
    >>> d = available_distribution(np.array([[4, 5], [4, 6]]))
    >>> d[d.turn == 2][["n_available", "p"]].values.tolist()
    [[5.0, 0.5], [6.0, 0.5]]
    """
    choices = np.asarray(choices)
    if choices.ndim != 2 or len(choices) < 1:
        raise ValueError(f"choices must be a 2-D array (games x turns), got shape {choices.shape}")
    n = len(choices)
    rows = []
    for t in range(choices.shape[1]):
        vals, counts = np.unique(choices[:, t], return_counts=True)
        for v, c in zip(vals, counts):
            est = proportion_estimate(int(c), n)
            rows.append({"policy": policy, "turn": t + 1, "n_available": int(v), "p": est.value, "p_se": est.se,
                         "p_ci_low": est.ci_low, "p_ci_high": est.ci_high, "n_games": n})
    return pd.DataFrame(rows)


def goal_rates(n_games: int, players: int = 2, policies: Sequence[str] = ("random_legal", "greedy", "lookahead"), *,
               rng=None, setup: Setup | None = None, return_runs: bool = False, components=None):
    """P(the goal token of each level is met at the end) per policy (all seats play it).

    Seats of one game share a quarry, so the per-game share of seats meeting the goal is the sample (SE and
    Student-t CI over games).  ``blind_exact`` is the exact chance for a level filled blind
    (:func:`.odds.blind_goal_probability`); ``attainable`` is False for a token no level of that size can ever
    meet (:meth:`.Setup.dead_goals`: exact; such a row's ``p_met`` is 0 by construction, not by play).  Every column
    holds one kind of value: ``p_met*`` probabilities, ``mean_score*`` the policy's mean score per seat (VP, the
    same on each of its rows; before issue 45 it was a row of its own, level 0, with the score in ``p_met``).
    """
    n_games = _check_games(n_games)
    players = check_players(players)
    setup = check_setup(setup, components)
    root = seed_sequence(rng)
    rows, runs = [], {}
    blind = [float(blind_goal_probability(code, lvl, players=players, components=setup.catalogue))
             for lvl, code in zip(GOAL_LEVELS, setup.goals)]
    dead = {lvl for lvl, _ in setup.dead_goals(players)}
    for i, pol in enumerate(policies):
        _check_policy(pol)
        df, arrays = simulate_games(n_games, players, setup, pol, rng=_child(root, i), return_arrays=True)
        runs[pol] = (df, arrays)
        # the policy's mean score per seat: its own columns (a score is not a probability)
        score = _est_cols("mean_score", mean_estimate(arrays["totals"].mean(axis=1)))
        for k, lvl in enumerate(GOAL_LEVELS):
            share = arrays["met"][:, :, k].mean(axis=1)
            code = setup.goals[k]
            tok = setup.catalogue.goals[code]
            rows.append({"policy": pol, "level": lvl, "goal": code, "goal_name": tok.name,
                         **_est_cols("p_met", mean_estimate(share), 0.0, 1.0),
                         "blind_exact": blind[k], "attainable": lvl not in dead, **score,
                         "n_games": n_games})
    out = pd.DataFrame(rows)
    return (out, runs) if return_runs else out


def skill_values(n_games: int, players: int = 2, policies: str = "greedy", *, rng=None,
                 setup: Setup | None = None, components=None, policy=None) -> pd.DataFrame:
    """Score and goals lost when one level's skill token is removed from every board.

    Every variant replays the same seeds as the full setup, so ``score_drop`` (mean score per seat with the skill
    minus without, paired by game) has a small standard error.  ``policies``: the one policy every seat plays
    (``policy=``, its old name, is accepted for one release with a DeprecationWarning).
    """
    policy = _renamed_policy(policies, policy, "skill_values")
    n_games = _check_games(n_games)
    players = check_players(players)
    setup = check_setup(setup, components)
    _check_policy(policy)
    seq = seed_sequence(rng)
    seed = np.random.SeedSequence(seq.entropy, spawn_key=seq.spawn_key)
    _, base = simulate_games(n_games, players, setup, policy, rng=seed, return_arrays=True)
    base_score = base["totals"].mean(axis=1)
    base_goals = base["met"].sum(axis=2).mean(axis=1)
    rows = []
    for k, lvl in enumerate(SKILL_LEVELS):
        code = setup.skills[k]
        if code is None:
            continue
        skills = list(setup.skills)
        skills[k] = None
        variant = Setup(tuple(skills), setup.goals, setup.cards, setup.discs, setup.components)
        seed = np.random.SeedSequence(seq.entropy, spawn_key=seq.spawn_key)
        _, arr = simulate_games(n_games, players, variant, policy, rng=seed, return_arrays=True)
        drop = base_score - arr["totals"].mean(axis=1)
        gdrop = base_goals - arr["met"].sum(axis=2).mean(axis=1)
        uses = base["skills_used"].mean(axis=1)
        rows.append({"level": lvl, "skill": code, "skill_name": setup.catalogue.skills[code].name, "policy": policy,
                     **_est_cols("score_drop", mean_estimate(drop)), **_est_cols("goals_drop", mean_estimate(gdrop)),
                     "score_with": float(base_score.mean()), "score_without": float(arr["totals"].mean()),
                     "uses_per_game_all_skills": float(uses.mean()), "n_games": n_games})
    return pd.DataFrame(rows)


#: Card line-ups that together put every default card in play (4 cards per game).
CARD_GROUPS = (("Many", "Height", "Pairs", "Big"), ("Small", "Loners", "Cluster", "Variety"),
               ("Spread", "Many", "Pairs", "Small"))


def card_balance(n_games: int, players: int = 2, policies: str = "greedy", *, rng=None,
                 groups: Sequence[Sequence[str]] = CARD_GROUPS, setup: Setup | None = None,
                 components=None, return_points: bool = False, policy=None):
    """Points each objective card gives a seat (mean, SD, P(0)), pooling every line-up it appears in.

    Discs are random per game; goals and skills come from ``setup`` (default setup).  With
    ``return_points`` also ``{card: {line-up index: points per game (seats averaged)}}``, which pairs two
    cards of one line-up game by game (:func:`card_findings`).  ``policies``: the one policy every seat plays
    (``policy=``, its old name, is accepted for one release with a DeprecationWarning).
    """
    policy = _renamed_policy(policies, policy, "card_balance")
    n_games = _check_games(n_games)
    players = check_players(players)
    base = check_setup(setup, components)
    _check_policy(policy)
    root = seed_sequence(rng)
    pts: dict[str, list] = {}
    by_group: dict[str, dict[int, np.ndarray]] = {}
    for i, cards in enumerate(groups):
        s = Setup(base.skills, base.goals, tuple(cards), None, base.components)
        _, arr = simulate_games(n_games, players, s, policy, rng=_child(root, i), return_arrays=True)
        for j, name in enumerate(cards):
            pts.setdefault(name, []).append(arr["cards"][:, :, j].mean(axis=1))   # per game, seats averaged
            by_group.setdefault(name, {})[i] = pts[name][-1]
            pts.setdefault(name + "#seat", []).append(arr["cards"][:, :, j].ravel())
    comps = base.catalogue
    rows = []
    for name in [n for n in pts if not n.endswith("#seat")]:
        per_game = np.concatenate(pts[name])
        per_seat = np.concatenate(pts[name + "#seat"])
        card = comps.cards[name]
        rows.append({"card": name, "source": card.source, **_est_cols("mean_points", mean_estimate(per_game)),
                     "sd_points": float(per_seat.std(ddof=1)), "p_zero": float((per_seat == 0).mean()),
                     "max_points": int(per_seat.max()), "policy": policy, "n_games": len(per_game)})
    out = pd.DataFrame(rows).sort_values("mean_points", ascending=False, ignore_index=True)
    return (out, by_group) if return_points else out


def _renamed_policy(policies, policy, where: str):
    """``policy=`` is the old name of ``policies=`` (one keyword per concept, docs/guide/defaults.md): still
    accepted for one release, with a DeprecationWarning."""
    if policy is None:
        return policies
    import warnings

    warnings.warn(f"{where}: policy= is renamed policies= (the old name is removed in the next release)",
                  DeprecationWarning, stacklevel=3)
    return policy


def win_shares(arrays: dict) -> np.ndarray:
    """(games, seats) share of each game's win: most VP, then most goal tokens; a shared win counts 1/k to each of
    the k winners, so every row sums to 1 (``arrays`` from ``simulate_games(..., return_arrays=True)``)."""
    totals = arrays["totals"]
    goals = arrays["met"].sum(axis=2)
    share = np.zeros_like(totals, dtype=float)
    for g in range(len(totals)):
        tied = totals[g] == totals[g].max()
        win = tied & (goals[g] == goals[g][tied].max())
        share[g, win] = 1.0 / win.sum()
    return share


def by_position(arrays: dict, policy: str = "") -> pd.DataFrame:
    """Win share and mean score by turn position (1 = the start player of each game), with SE and 95% CI.

    The start player is drawn by roll-off, so seat 0 is the start player in only about 1/players of the games:
    start-player advantage is measured by position, never by seat.
    """
    first = np.asarray(arrays["first"])
    players = arrays["totals"].shape[1]
    share = win_shares(arrays)
    idx = np.arange(len(first))
    rows = []
    for pos in range(players):
        seat = (first + pos) % players
        rows.append({"players": players, "position": pos + 1, "policy": policy,
                     **_est_cols("win_share", mean_estimate(share[idx, seat]), 0.0, 1.0),
                     **_est_cols("score", mean_estimate(arrays["totals"][idx, seat].astype(float))),
                     "fair_share": 1.0 / players, "n_games": len(first)})
    return pd.DataFrame(rows)


def first_player_advantage(n_games: int, players_list: Sequence[int] = (2, 3, 4), policies: str = "greedy", *,
                           rng=None, setup: Setup | None = None, components=None, policy=None) -> pd.DataFrame:
    """Win share and mean score by turn position (1 = first player), with CIs, against the fair share.

    A shared win counts 1/k to each of the k winners, so the shares of a game sum to 1 (:func:`by_position`).
    ``policies``: the one policy every seat plays (``policy=``, its old name, is accepted for one release with a
    DeprecationWarning).
    """
    policy = _renamed_policy(policies, policy, "first_player_advantage")
    n_games = _check_games(n_games)
    _check_policy(policy)
    setup = check_setup(setup, components)
    root = seed_sequence(rng)
    parts = []
    for i, players in enumerate(players_list):
        players = check_players(players)
        _, arr = simulate_games(n_games, players, setup, policy, rng=_child(root, i), return_arrays=True)
        parts.append(by_position(arr, policy))
    return pd.concat(parts, ignore_index=True)


def reconstructed_components(components=None) -> pd.DataFrame:
    """Every reconstructed component of the catalogue (component, name, what it does); ``components``: a path or
    loaded components (default: the packaged ones)."""
    return pd.DataFrame(coerce_components(components).reconstructed(), columns=["component", "name", "definition"])


# ----------------------------------------------------------------------------------------- findings
# Each experiment's conclusions, computed from its own table (pyradice_lab.engine.findings renders the sentences and
# claims a difference only when its 95% interval excludes "no difference" on at least 100 games).

#: the component a start-player advantage would change
START_COMPONENT = "start-player compensation (e.g. a bonus for later seats)"


def _finding_from(row, col: str, quantity: str, **kwargs) -> Finding:
    """A finding from the ``col``, ``col_ci_low`` and ``col_ci_high`` columns of a table row."""
    return Finding(kwargs.pop("kind", "difference"), quantity, float(row[col]), float(row[f"{col}_ci_low"]),
                   float(row[f"{col}_ci_high"]), n=int(row["n_games"]), **kwargs)


def available_findings(df: pd.DataFrame, players: int = 2) -> list[Finding]:
    """From :func:`available_by_turn`: the exact number of choices on the first turn, and under greedy play
    (else the first policy) the most and the fewest dice available on a turn (means with 95% CIs)."""
    out = []
    ex = df[(df.turn == 1) & df.exact_mean.notna()]
    if len(ex):
        out.append(Finding("exact", f"dice the first player can choose from on turn 1, {players} players",
                           float(ex.exact_mean.iloc[0]), float(ex.exact_mean.iloc[0]), float(ex.exact_mean.iloc[0]),
                           n=0, unit="dice"))
    pol = "greedy" if "greedy" in set(df.policy) else df.policy.iloc[0]
    d = df[df.policy == pol]
    for word, r in (("most", d.loc[d.available.idxmax()]), ("last", d[d.turn == d.turn.max()].iloc[0])):
        what = f"turn {int(r.turn)}, the turn with the most choices" if word == "most" else f"the last turn ({int(r.turn)})"
        out.append(_finding_from(r, "available", f"dice available on {what}", kind="estimate", unit="dice",
                                 test="t interval", player=pol))
    return out


def goal_findings(df: pd.DataFrame, policy: str = "lookahead") -> list[Finding]:
    """From :func:`goal_rates`: under ``policy``, the hardest and the easiest attainable goal token against
    the exact chance of a level filled blind; the mean score of ``policy`` minus greedy's; and every goal
    token that can never be met (exact)."""
    lv = df[(df.level > 0) & (df.policy == policy) & df.attainable]
    out = []
    for word, r in (("hardest", lv.loc[lv.p_met.idxmin()]), ("easiest", lv.loc[lv.p_met.idxmax()])):
        out.append(_finding_from(r, "p_met", f"share of seats meeting the level-{int(r.level)} goal {r.goal} "
                                 f"{r.goal_name} ({word} token)", null=float(r.blind_exact),
                                 null_label="a level filled blind", unit="%", test="t interval over games",
                                 player=policy, scale=1.0))
    sc = df.drop_duplicates("policy").set_index("policy")
    if policy != "greedy" and {policy, "greedy"} <= set(sc.index):
        a, b = sc.loc[policy], sc.loc["greedy"]
        d = float(a.mean_score - b.mean_score)
        se = float(np.hypot(a.mean_score_se, b.mean_score_se))
        out.append(Finding("difference", f"mean score per seat with {policy} instead of greedy", d, d - Z95 * se,
                           d + Z95 * se, n=int(min(a.n_games, b.n_games)), null=0.0, unit="VP",
                           test="normal interval of a difference", player=f"{policy} vs greedy, every seat",
                           scale=float(b.mean_score)))
    for r in df[(df.level > 0) & ~df.attainable].drop_duplicates("level").itertuples():
        out.append(Finding("exact", f"chance of ever meeting the level-{r.level} goal {r.goal} {r.goal_name}", 0.0,
                           0.0, 0.0, n=0, unit="%", component=f"goal token {r.goal} on level {r.level}"))
    return out


def skill_findings(df: pd.DataFrame) -> list[Finding]:
    """From :func:`skill_values`: each skill token's worth (VP per seat lost without it, paired by seed); the
    most and the least valuable are marked as components a designer would rebalance."""
    hi, lo = df.score_drop.idxmax(), df.score_drop.idxmin()
    out = []
    for i, r in df.iterrows():
        out.append(_finding_from(r, "score_drop", f"points per seat lost without skill token {r.skill} "
                                 f"{r.skill_name}", null=0.0, unit="VP", player=r.policy,
                                 test="paired t interval (same seeds)", scale=float(df.score_with.iloc[0]) or 1.0,
                                 component=f"skill token {r.skill} {r.skill_name}" if i in (hi, lo) else ""))
    return out


def card_findings(df: pd.DataFrame, points: dict | None = None) -> list[Finding]:
    """From :func:`card_balance`: the strongest and the weakest card (points per seat) and their difference.

    With ``points`` (``card_balance(..., return_points=True)``) the difference accounts for games the two
    cards share (same line-up: paired); without it the two means are treated as independent.
    """
    strong, weak = df.iloc[0], df.iloc[-1]
    out = [_finding_from(r, "mean_points", f"points per seat from the {word} card, {r.card}", kind="estimate",
                         unit="VP", test="t interval over games", player=r.policy)
           for word, r in (("strongest", strong), ("weakest", weak))]
    d = float(strong.mean_points - weak.mean_points)
    var = float(strong.mean_points_se ** 2 + weak.mean_points_se ** 2)
    if points is not None:  # covariance of the two pooled means through the games both cards scored in
        a, b = points[strong.card], points[weak.card]
        for g in set(a) & set(b):
            if len(a[g]) > 1:
                var -= 2 * float(np.cov(a[g], b[g], ddof=1)[0, 1]) * len(a[g]) / (strong.n_games * weak.n_games)
    se = float(np.sqrt(max(var, 0.0)))
    out.append(Finding("difference", f"points per seat, strongest card ({strong.card}) against the weakest ({weak.card})",
                       d, d - Z95 * se, d + Z95 * se, n=int(min(strong.n_games, weak.n_games)), null=0.0, unit="VP",
                       test="normal interval of a difference" + (", paired within line-ups" if points else ""),
                       player=strong.policy, scale=float(df.mean_points.mean()) or 1.0,
                       component=f"objective cards {strong.card} and {weak.card} (scoring tables)"))
    return out


def first_player_findings(df: pd.DataFrame) -> list[Finding]:
    """From :func:`first_player_advantage` (one or more policies): the start player's (position 1) win share
    per policy and player count against the fair share, ties split; with greedy and a stronger policy in the
    table, also the change of that share from greedy to the other policy (normal interval of a difference of
    independent estimates: conservative when both played the same deals)."""
    out = []
    first = df[df.position == 1]
    for r in first.itertuples():
        out.append(Finding("difference", f"start player's win share, {r.players} players (ties split)",
                           float(r.win_share), float(r.win_share_ci_low), float(r.win_share_ci_high), n=int(r.n_games),
                           null=float(r.fair_share), null_label="a fair share", unit="%",
                           test="t interval of per-game shares", player=r.policy, component=START_COMPONENT))
    if "greedy" in set(first.policy):
        base = first[first.policy == "greedy"].set_index("players")
        for r in first[first.policy != "greedy"].itertuples():
            if r.players not in base.index:
                continue
            b = base.loc[r.players]
            d = float(r.win_share - b.win_share)
            se = float(np.hypot(r.win_share_se, b.win_share_se))
            out.append(Finding("difference", f"change of the start player's win share from greedy to {r.policy} play, "
                               f"{r.players} players", d, d - Z95 * se, d + Z95 * se,
                               n=int(min(r.n_games, b.n_games)), null=0.0, unit="%",
                               test="normal interval of a difference", player=f"{r.policy} vs greedy, every seat",
                               scale=float(b.fair_share)))
    return out


# the report's experiments (they call the functions above) live in ._analysis_experiments, which imports this
# module: they load on first use (PEP 562), so either module can be imported first
__getattr__, __dir__ = lazy_names(globals(), "_analysis_experiments", (
    "GOAL_POLICIES", "SIZES", "START_POLICIES", "experiment_available", "experiment_cards", "experiment_first_player", "experiment_goals", "experiment_skills", "paired"))
