"""Meerkat Kingdom experiments: each function answers one designer question with a tidy table.

The report section (:mod:`.pages`) and the scripts in ``experiments/meerkat_*.py`` call these same
functions.  Every Monte Carlo number carries its standard error and 95% CI; seeds are SeedSequences.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine._lazy import lazy_names
from ..engine.rng import spawn_seeds
from ..engine.stats import mean_estimate, nonnegative_estimate, proportion_estimate
from .components import TILES, Components, coerce_components
from .odds import placement_odds
from .sim import READINGS, setup_label, simulate_games

__all__ = ["tile_fairness", "suggest_values", "value_sweep", "values_for_exponent", "seat_advantage", "automa_strength",
           "feature_value", "hazard_impact", "reading_impact", "win_shares", "turn_positions", "shares_by_position", "start_edge",
           "RULES_SETUPS", "tile_pay", "with_params", "head_to_head", "strong_play", "RESTRICTIONS"]
# and the report's experiments (data + findings, no figure): lazy_names, below

#: The setups the rules describe: 2 players + automa (the 2-player game), 3 and 4 players.
RULES_SETUPS = ((2, True), (3, False), (4, False))


def win_shares(df: pd.DataFrame, n: int) -> np.ndarray:
    """(games, seats) win shares: 1 for the winner, shared wins split among the top scores."""
    scores = df[[f"score_{s}" for s in range(n)]].to_numpy()
    out = np.zeros(scores.shape)
    w = df["winner"].to_numpy()
    for s in range(n):
        out[:, s] = w == s
    tied = w == -1
    if tied.any():
        top = scores[tied] == scores[tied].max(axis=1, keepdims=True)
        out[tied] = top / top.sum(axis=1, keepdims=True)
    return out


def turn_positions(df: pd.DataFrame, players: int, automa: bool) -> np.ndarray:
    """(games, seats): the turn-order position of each seat (0 = start player; the automa plays last)."""
    first = df["first_seat"].to_numpy()
    pos = np.zeros((len(df), players + automa), dtype=int)
    for s in range(players):
        pos[:, s] = (s - first) % players
    if automa:
        pos[:, players] = players
    return pos


def shares_by_position(df: pd.DataFrame, players: int, automa: bool) -> np.ndarray:
    """(games, positions) win shares by turn position (column 0 = the start player; the automa last)."""
    n = players + automa
    share, pos = win_shares(df, n), turn_positions(df, players, automa)
    return np.stack([share[pos == k] for k in range(n)], axis=1)


def start_edge(df: pd.DataFrame, players: int, automa: bool):
    """The start player's win share minus the mean share of the other human players, paired per game (an
    :class:`~pyradice_lab.engine.stats.Estimate`): the start-player advantage whatever the automa's share.  A difference
    of two shares lies in -1..1, so the t interval is clipped to that range (it matters only for tiny samples)."""
    from dataclasses import replace as _replace

    by_pos = shares_by_position(df, players, automa)
    e = mean_estimate(by_pos[:, 0] - by_pos[:, 1:players].mean(axis=1))
    return _replace(e, ci_low=max(-1.0, e.ci_low), ci_high=min(1.0, e.ci_high))


def _prop(flags, prefix):
    """Share of True with the Wilson 95% interval (sound for rare events, unlike a t interval)."""
    flags = np.asarray(flags, dtype=bool)
    return proportion_estimate(int(flags.sum()), len(flags)).to_dict(prefix)


def _est(x, prefix):
    """Mean with SE and 95% CI; rates (prefix ending in ``rate``) have the CI clipped to [0, 1]."""
    d = mean_estimate(np.asarray(x, dtype=float)).to_dict(prefix)
    if prefix.endswith("rate"):
        d[f"{prefix}_ci_low"], d[f"{prefix}_ci_high"] = max(0.0, d[f"{prefix}_ci_low"]), min(1.0, d[f"{prefix}_ci_high"])
    return d


def _nonneg(x, prefix):
    """Mean of a non-negative quantity (a count per game) with an interval that never goes below 0
    (:func:`~pyradice_lab.engine.stats.nonnegative_estimate`: log-transformed, exact Poisson for constant counts)."""
    return nonnegative_estimate(np.asarray(x, dtype=float)).to_dict(prefix)


def _ratio_ci(ratio: float, se: float) -> tuple[float, float]:
    """95% interval of a positive ratio on the log scale (never below 0); a zero ratio or SE: zero width."""
    if not ratio > 0 or not se > 0:
        return ratio, ratio
    f = float(np.exp(1.96 * se / ratio))
    return ratio / f, ratio * f


# ----------------------------------------------------------------------------------------- tile fairness
def tile_pay(df: pd.DataFrame, comp=None) -> pd.DataFrame:
    """Per tile, from simulated games: exact placement odds, pieces committed when scored, points paid, the
    share of games in which its high value was taken, and points per piece (a ratio of means, with its
    delta-method SE and a 95% CI on the log scale, which never goes below 0).  ``comp``: the components the
    games were played with (a path or loaded components; default: the packaged ones)."""
    comp = coerce_components(comp, "comp")
    n = int(df["players"].iloc[0]) + bool(df["automa"].iloc[0])
    rows = []
    for t in TILES:
        present, paid = df[f"present_t{t}"].to_numpy(float), df[f"paid_t{t}"].to_numpy(float)
        won = np.zeros(len(df))
        for s in range(n):
            won += df[f"won_{s}"].str.split(",").apply(lambda x, t=t: str(t) in x).to_numpy()
        ratio = paid.mean() / max(present.mean(), 1e-9)
        resid = paid - ratio * present
        se = resid.std(ddof=1) / np.sqrt(len(df)) / max(present.mean(), 1e-9) if len(df) > 1 else 0.0
        lo, hi = _ratio_ci(ratio, se)
        rows.append({"tile": t, "values": "/".join(map(str, comp.tile(t).values)),
                     "p_place_1": placement_odds(t, 1, components=comp), **_est(present, "pieces"),
                     **_est(paid, "paid"), "p_high_taken": won.mean(), "points_per_piece": ratio,
                     "points_per_piece_se": se, "points_per_piece_ci_low": lo, "points_per_piece_ci_high": hi})
    return pd.DataFrame(rows)


def tile_fairness(n_games: int, *, players: int = 3, policies="greedy", rng=None,
                  components=None, engine: str = "auto") -> pd.DataFrame:
    """Per tile: exact placement odds, pieces committed when scored, points paid, points per piece
    (:func:`tile_pay` of ``n_games`` simulated games).  ``components``: a path or loaded components (default:
    the packaged ones)."""
    comp = coerce_components(components)
    df = simulate_games(n_games, players=players, policies=policies, rng=rng, components=comp, engine=engine)
    return tile_pay(df, comp)


def suggest_values(fair: pd.DataFrame, comp: Components | None = None, damping: float = 0.5) -> Components:
    """Scale each tile's values towards paying the same points per piece committed (rounded).

    The factor is (board average / tile's points per piece) ** ``damping`` (0.5 = half-way in log terms), so
    that repeated rounds (players re-target the new values) settle instead of overshooting.
    """
    comp = coerce_components(comp, "comp")
    target = fair["paid"].sum() / fair["pieces"].sum()
    changes = {}
    for t, ppp in zip(fair["tile"], fair["points_per_piece"]):
        old = comp.tile(int(t)).values
        f = (target / ppp) ** damping if ppp > 0 else 1.0
        new = tuple(max(1, int(round(v * f))) for v in old)
        changes[f"tile.{int(t)}"] = {"number": int(t), "values": sorted(new, reverse=True),
                                     "source": "reconstruction"}
    return comp.replace(changes)


def values_for_exponent(b: float, comp: Components | None = None) -> Components:
    """Tile values from the reconstruction rule with exponent ``b``: high = round(6 (p(6) / p(t)) ** b),
    low = high // 2 on tiles 3..8, mid = round(high / 2) and low = max(2, round(high / 4)) on 9..12.

    ``b = 1`` is the packaged reconstruction, ``b = 0`` makes every tile worth what tile 6 is (6/3; 6/3/2),
    and tile 6 stays 6/3 (the rules' value) for every ``b``.
    """
    comp = coerce_components(comp, "comp")
    p6 = placement_odds(6, 1, components=comp)
    changes = {}
    for t in TILES:
        high = int(6 * (p6 / placement_odds(t, 1, components=comp)) ** b + 0.5)  # round half up
        vals = (high, high // 2) if t <= 8 else (high, int(high / 2 + 0.5), max(2, int(high / 4 + 0.5)))
        changes[f"tile.{t}"] = {"number": t, "values": sorted(vals, reverse=True), "source": "reconstruction"}
    return comp.replace(changes)


def value_sweep(n_games: int, exponents=(0.0, 0.5, 1.0, 1.5), *, rng=None, engine: str = "auto",
                components=None, policies="greedy") -> list[tuple[float, Components, pd.DataFrame]]:
    """Sweep the value rule's exponent (:func:`values_for_exponent`), re-simulating each value set (players
    chase the values); returns (exponent, components, fairness table) per grid point.  ``components`` (a path
    or loaded components) is the base whose tile values the rule replaces."""
    base = coerce_components(components)
    out = []
    for b, seq in zip(exponents, spawn_seeds(rng, len(exponents))):
        comp = values_for_exponent(b, base)
        out.append((b, comp, tile_fairness(n_games, rng=seq, components=comp, engine=engine, policies=policies)))
    return out


# ----------------------------------------------------------------------------------------- seat advantage
def seat_advantage(setups, n_games: int, *, policies="greedy", rng=None, engine: str = "auto",
                   components=None) -> pd.DataFrame:
    """Win share by turn-order position (1 = the start player, who is decided by the start roll; the automa
    always plays last) for each ``(players, automa)`` setup (``automa=None``: the rules' setup), with SE and CI.
    The ``setup`` column is :func:`.sim.setup_label` (extensions say "not in the rules").  On the start
    player's row, ``start_edge`` is the paired per-game difference between the start player's win share and
    the mean share of the other human players (with SE and CI): the start-player advantage that does not
    depend on how often the automa wins.  ``components``: a path or loaded components (default packaged)."""
    comp = coerce_components(components)
    rows = []
    for (players, automa), seq in zip(setups, spawn_seeds(rng, len(setups))):
        df = simulate_games(n_games, players=players, automa=automa, policies=policies, rng=seq, engine=engine,
                            components=comp)
        automa = bool(df["automa"].iloc[0])
        n = players + automa
        by_pos = shares_by_position(df, players, automa)
        edge = start_edge(df, players, automa).to_dict("start_edge")
        for k in range(n):
            rows.append({"setup": setup_label(players, automa), "position": k + 1,
                         "seat": "automa" if automa and k == n - 1 else "player", **_est(by_pos[:, k], "win_rate"),
                         "fair_share": 1 / n, **{c: (v if k == 0 else np.nan) for c, v in edge.items()},
                         "games": n_games})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------- automa
def automa_strength(n_games: int, *, setups=((1, "greedy"), (2, "greedy"), (2, "heuristic"), (2, "random_legal")),
                    rng=None, engine: str = "auto", components=None) -> pd.DataFrame:
    """The automa against human policies: its win rate and mean score vs the players' mean score, and
    ``automa_margin``: the automa's score minus the players' mean score, paired per game (SE, 95% CI)."""
    comp = coerce_components(components)
    rows = []
    for (players, pol), seq in zip(setups, spawn_seeds(rng, len(setups))):
        df = simulate_games(n_games, players=players, automa=True, policies=pol, rng=seq, engine=engine,
                            components=comp)
        share = win_shares(df, players + 1)
        human = df[[f"score_{s}" for s in range(players)]].mean(axis=1)
        rows.append({"players": players, "setup": setup_label(players, True), "policy": pol,
                     **_est(share[:, players], "automa_win_rate"),
                     "fair_share": 1 / (players + 1), **_est(df[f"score_{players}"], "automa_score"),
                     **_est(human, "player_score"), **_est(df[f"score_{players}"] - human, "automa_margin"),
                     "games": n_games})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------- feature value
FEATURE_VARIANTS = {
    "baseline heuristic": {},
    "never rerolls": {"reroll": 0.0},
    "never places the queen": {"queen_bonus": -100.0},
    "ignores guardians + pups": {"guardian_value": 0.0, "pup_value": 0.0},
    "chases guardians + pups": {"guardian_value": 4.0, "pup_value": 4.0},
}


def with_params(policy, params: dict):
    """``policy`` (``"heuristic"``, ``"greedy"``, ``"expectimax"`` or ``"mcts[:N]"``) with its decision parameters
    overridden by ``params`` (a weight change or a restriction such as ``{"reroll": 0}``): a search player gets
    them on its own evaluation (candidate ranking and the rest of its turn; its rollouts play unrestricted)."""
    from .policies import GREEDY_PARAMS, P_BUDGET, PARAM_NAMES, policy_row

    if policy == "heuristic" or policy == "expectimax":
        return (policy, dict(params))
    if policy == "greedy":
        return ("heuristic", {**dict(zip(PARAM_NAMES, GREEDY_PARAMS)), **params})
    if isinstance(policy, str) and (policy == "mcts" or policy.startswith("mcts:")):
        return ("mcts", {"budget": int(policy_row(policy)[1][P_BUDGET]), "own": ("expectimax", dict(params))})
    raise ValueError(f"policy must be heuristic, greedy, expectimax or mcts[:N] to take parameters, got {policy!r}")


def feature_value(n_games: int, *, players: int = 3, rng=None, variants=None, engine: str = "auto",
                  policies="heuristic", components=None, policy=None) -> pd.DataFrame:
    """Seat 0 plays a variant of ``policies`` (one policy) against it in every other seat: its win share and score
    edge (the start roll decides who starts, so seat 0 is not always first).  ``components``: a path or loaded
    components (default: the packaged ones).  ``policy=``, the old name of ``policies=``, is accepted for one
    release with a DeprecationWarning."""
    policy = _renamed_policy(policies, policy, "feature_value")
    comp = coerce_components(components)
    variants = FEATURE_VARIANTS if variants is None else variants
    rows = []
    for (name, params), seq in zip(variants.items(), spawn_seeds(rng, len(variants))):
        pols = [with_params(policy, params) if params else policy] + [policy] * (players - 1)
        df = simulate_games(n_games, players=players, policies=pols, rng=seq, engine=engine, components=comp)
        n = players + bool(df["automa"].iloc[0])   # (the automa joins a 2-player game)
        share = win_shares(df, n)[:, 0]
        edge = df["score_0"] - df[[f"score_{s}" for s in range(1, n)]].mean(axis=1)
        rows.append({"variant": name, **_est(share, "win_rate"), "fair_share": 1 / n,
                     **_est(edge, "score_edge"), "games": n_games})
    return pd.DataFrame(rows)


def _renamed_policy(policies, policy, where: str):
    """``policy=`` is the old name of ``policies=`` (one keyword per concept, docs/guide/defaults.md): still
    accepted for one release, with a DeprecationWarning."""
    if policy is None:
        return policies
    import warnings

    warnings.warn(f"{where}: policy= is renamed policies= (the old name is removed in the next release)",
                  DeprecationWarning, stacklevel=3)
    return policy


# ----------------------------------------------------------------------------------------- hazards
def hazard_impact(n_games: int, *, players: int = 3, policies="greedy", rng=None, engine: str = "auto",
                  components=None) -> pd.DataFrame:
    """Hazards fired and meerkats lost with 1, 2 (default) and 3 copies of each blue token: the blue bag
    decides when the brown bag (hazards, tan tokens, reverse scoring) comes into play.  Hazards per game and
    meerkats lost per seat are counts: their intervals never go below 0 (:func:`_nonneg`)."""
    comp = coerce_components(components)
    rows = []
    variants = [(k, comp.replace({f"blue.{e}.copies": k for e, _ in comp.blue})) for k in (1, 2, 3)]
    for (k, c), seq in zip(variants, spawn_seeds(rng, len(variants))):
        df = simulate_games(n_games, players=players, policies=policies, rng=seq, components=c, engine=engine)
        fired = df["hawk"] + df["fire"] + df["jackal"]
        n = players + bool(df["automa"].iloc[0])
        lost = np.concatenate([df[f"lost_to_hazards_{s}"].to_numpy() for s in range(n)])
        score = np.concatenate([df[f"score_{s}"].to_numpy() for s in range(n)])
        hit, spared = score[lost > 0], score[lost == 0]
        ok = len(hit) > 1 and len(spared) > 1
        diff = hit.mean() - spared.mean() if ok else np.nan
        se = np.sqrt(hit.var(ddof=1) / len(hit) + spared.var(ddof=1) / len(spared)) if ok else np.nan
        rows.append({"blue_copies_each": k, "default": c.blue == comp.blue, **_nonneg(fired, "hazards_per_game"),
                     "p_any_hazard": float((fired > 0).mean()), **_nonneg(lost, "lost_per_seat"),
                     "score_hit_minus_spared": diff, "score_hit_minus_spared_se": se,
                     "score_hit_minus_spared_ci_low": diff - 1.96 * se, "score_hit_minus_spared_ci_high": diff + 1.96 * se,
                     "games": n_games})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------- rule readings
READING_OPTIONS = {"reverse_reading": "extended", "jackal_reading": "next_tile"}


def reading_impact(n_games: int, *, setups=RULES_SETUPS, policies="greedy", rng=None, engine: str = "auto",
                   components=None) -> pd.DataFrame:
    """Does the reading of an ambiguous rule matter?  For each setup and each reading option, the same games
    (the same seeds: common random numbers) are played under the literal reading (the default) and under the
    option; paired differences give tight intervals.

    Columns: ``setup``, ``reading`` (the keyword), ``option``; ``applies_rate`` (share of games in which the
    two readings would differ at least once, counted in the literal games: a reverse token on a three-value
    tile paying differently, a jackal hitting a player differently); ``winner_changed_rate``; the start
    player's win share under the literal reading (``start_literal``) and the paired change under the option
    (``start_change`` with SE and CI); the mean total score change of the seats (``score_change``).
    ``components``: a path or loaded components (default packaged).
    """
    comp = coerce_components(components)
    rows = []
    seqs = spawn_seeds(rng, len(setups))
    for (players, automa), seq in zip(setups, seqs):
        base = simulate_games(n_games, players=players, automa=automa, policies=policies, rng=seq, engine=engine,
                              components=comp)
        automa = bool(base["automa"].iloc[0])
        n = players + automa
        for reading, option in READING_OPTIONS.items():
            alt = simulate_games(n_games, players=players, automa=automa, policies=policies, rng=seq,
                                 engine=engine, components=comp, **{reading: option})
            counter = "reverse_readings_differ" if reading == "reverse_reading" else "jackal_readings_differ"
            applies = base[counter].to_numpy() > 0
            d_start = alt["start_player_won"].to_numpy() - base["start_player_won"].to_numpy()
            scores = [f"score_{s}" for s in range(n)]
            d_score = (alt[scores].to_numpy(float) - base[scores].to_numpy(float)).mean(axis=1)
            rows.append({"setup": setup_label(players, automa), "reading": reading, "option": option,
                         "literal": READINGS[reading][0], **_prop(applies, "applies_rate"),
                         **_prop(alt["winner"].to_numpy() != base["winner"].to_numpy(), "winner_changed_rate"),
                         **_est(base["start_player_won"], "start_literal"), **_est(d_start, "start_change"),
                         **_est(d_score, "score_change"), "fair_share": 1 / n, "games": n_games})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------- strong play
#: Restrictions whose cost is measured for the heuristic and for the strong players alike (restricted play: a
#: forbidden option valued at -1e9, so it is taken only when nothing else is legal).
RESTRICTIONS = {"never rerolls": {"reroll": 0.0}, "never places the queen": {"queen_bonus": -1e9},
                "never takes a guardian": {"guardian_value": -1e9}}


def head_to_head(policy, opponent, n_games: int, *, players: int = 3, automa: bool | None = None, rng=None,
                 engine: str = "auto") -> pd.DataFrame:
    """``policy`` in one seat, ``opponent`` in every other seat, the seat rotating (``n_games`` split evenly;
    the start roll decides who starts): one row with ``policy``'s win share (SE, 95% CI), the fair share
    1/``players`` (the automa, which joins 2 players by the rules, takes part of the wins, so this bar is
    conservative), ``beats_fair`` (the CI lies entirely above it), the opponents' mean share, the automa's share,
    and ``policy``'s score edge over the mean of the other players.

    Examples
    --------
    >>> row = head_to_head("greedy", "random_legal", 4, players=2, rng=1, engine="python").iloc[0]
    >>> row["setup"], int(row["games"])
    ('2p + automa', 4)
    """
    from .policies import policy_name

    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 2 * players:
        raise ValueError(f"n_games must be an integer >= 2 x players ({2 * players}), got {n_games!r}")
    per = [n_games // players + (1 if k < n_games % players else 0) for k in range(players)]
    share, opp, auto, edge = [], [], [], []
    label = ""
    for seat, seq in zip(range(players), spawn_seeds(rng, players)):
        pols = [opponent] * players
        pols[seat] = policy
        df = simulate_games(per[seat], players=players, automa=automa, policies=pols, rng=seq, engine=engine)
        label, n = df["setup"].iloc[0], players + bool(df["automa"].iloc[0])
        sh = win_shares(df, n)
        others = [o for o in range(players) if o != seat]
        share.append(sh[:, seat])
        opp.append(sh[:, others].mean(axis=1))
        auto.append(sh[:, players] if n > players else np.zeros(len(df)))
        scores = df[[f"score_{o}" for o in others]].to_numpy(float)
        edge.append(df[f"score_{seat}"].to_numpy(float) - scores.mean(axis=1))
    row = {"policy": policy_name(policy), "opponent": policy_name(opponent), "setup": label,
           **_est(np.concatenate(share), "win_rate"), "fair_share": 1 / players}
    row["beats_fair"] = bool(row["win_rate_ci_low"] > row["fair_share"])
    row.update({"opponent_win_rate": float(np.concatenate(opp).mean()),
                "automa_win_rate": float(np.concatenate(auto).mean()),
                **_est(np.concatenate(edge), "score_edge"), "games": n_games})
    return pd.DataFrame([row])


def _side(low: float, high: float, ref: float) -> str:
    return "above" if low > ref else ("below" if high < ref else "contains")


def strong_play(n_games: int, *, strong="mcts:32", base="heuristic", setups=((2, True), (3, False)),
                feature_games: int | None = None, rng=None, engine: str = "auto") -> pd.DataFrame:
    """Balance findings measured with ``base`` players and again with ``strong`` players in every seat: one row
    per (finding, player) with the estimate, SE, 95% CI, the reference it is judged against, the side of the
    reference the CI lies on, and ``holds`` (the strong player's CI lies on the same side as the base player's).

    Findings: the start player's edge over the other players' mean (paired per game, by turn position; reference
    0) per setup; points per piece of every tile (3 players; reference: the board's mean points per piece);
    the win share of a player forbidden the reroll / the queen / guardians against unrestricted players of the
    same kind (:data:`RESTRICTIONS`, 3 players, ``feature_games`` games each; reference: the fair 1/3).
    """
    from .policies import policy_name

    feature_games = n_games if feature_games is None else feature_games
    rows = []
    seeds = spawn_seeds(rng, 2)
    for policy, seq in zip((base, strong), seeds):
        name = policy_name(policy)
        sub = spawn_seeds(seq, len(setups) + 2)
        three = None
        for (players, automa), ss in zip(setups, sub):
            df = simulate_games(n_games, players=players, automa=automa, policies=policy, rng=ss, engine=engine)
            automa = bool(df["automa"].iloc[0])
            e = start_edge(df, players, automa)
            rows.append({"finding": f"start-player edge, {setup_label(players, automa)}", "player": name,
                         "value": e.value, "se": e.se, "ci_low": e.ci_low, "ci_high": e.ci_high, "reference": 0.0,
                         "games": n_games})
            if players == 3 and not automa:
                three = df
        if three is None:
            three = simulate_games(n_games, players=3, policies=policy, rng=sub[-2], engine=engine)
        pay = tile_pay(three)
        mean_ppp = pay["paid"].sum() / pay["pieces"].sum()
        for r in pay.itertuples():
            rows.append({"finding": f"points per piece, tile {r.tile} ({r.values})", "player": name,
                         "value": r.points_per_piece, "se": r.points_per_piece_se,
                         "ci_low": r.points_per_piece_ci_low, "ci_high": r.points_per_piece_ci_high,
                         "reference": mean_ppp, "games": n_games})
        fv = feature_value(feature_games, players=3, rng=sub[-1], variants=RESTRICTIONS, engine=engine,
                           policy=policy)
        for r in fv.itertuples():
            rows.append({"finding": f"win share of a player who {r.variant}", "player": name, "value": r.win_rate,
                         "se": r.win_rate_se, "ci_low": r.win_rate_ci_low, "ci_high": r.win_rate_ci_high,
                         "reference": r.fair_share, "games": feature_games})
    out = pd.DataFrame(rows)
    out["side"] = [_side(lo, hi, ref) for lo, hi, ref in zip(out.ci_low, out.ci_high, out.reference)]
    side = dict(zip(zip(out.finding, out.player), out.side))
    out["holds"] = [side[(f, policy_name(base))] == sd for f, sd in zip(out.finding, out.side)]
    return out


# the report's experiments (they call the functions above) live in ._analysis_experiments, which imports this
# module: they load on first use (PEP 562), so either module can be imported first
__getattr__, __dir__ = lazy_names(globals(), "_analysis_experiments", (
    "QUICK_BUDGET", "SIZES", "STRONG", "automa_findings", "fairness_findings", "feature_findings", "hazard_findings", "odds_experiment", "odds_findings", "paired", "reading_findings", "report_players", "run_automa", "run_features", "run_hazards", "run_readings", "run_seat_advantage", "run_strong_play", "run_tile_fairness", "seat_findings", "strong_findings", "without_restated"))
