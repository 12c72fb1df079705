"""The Rocking Raft section of the PDF report (the pages): components, the tilt model, calibration and ten experiments.

The experiments (data, findings, reading) are computed in :mod:`.analysis`, :mod:`.readings` and :mod:`.strong_play`;
this module draws them, one function per experiment, ``figure_<experiment>(result)`` (from the result's
``meta["figure_data"]``), attaches the figure (:func:`draw`, :data:`FIGURES` by result name) and lays the section out.

Every experiment states its conclusions as :class:`~pyradice_lab.engine.findings.Finding` objects computed from its
own table (its reading only says how it was run).  Sizes: quick mode plays about 1,700 games in all (most
pages below the minimum sample for a claim: numbers only, stated); the full report about 23,000.  Every
experiment is also saved as CSV + PNG (+ findings CSV) under ``reports/<name>/``.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from ..engine.results import ExperimentResult, ReportContext, Section, Table, Text, save_experiment
from ..engine.stats import Z95
from . import analysis as ex, readings as rd, strong_play as sp
from .analysis import paired
from .components import default_components
from .physics import default_params

__all__ = ["report_section", "components_table", "SIZES", "draw", "FIGURES", "paired", "figure_tilt_model",
           "figure_calibration", "figure_card_fairness", "figure_gem_mix", "figure_flag_depth", "figure_greed_curve",
           "figure_dexterity", "figure_sinking", "figure_start_player", "figure_readings", "figure_strength",
           "figure_strong_play"]

# ----------------------------------------------------------------------------------------- figures
def _fig(ncols=1, w=7.0, h=3.6):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=(w, h), squeeze=False)
    return fig, axes[0]


def _err(ax, x, df, col, label, **kw):
    y = df[col].to_numpy()
    lo, hi = df[f"{col}_ci_low"].to_numpy(), df[f"{col}_ci_high"].to_numpy()
    ax.errorbar(x, y, yerr=[y - lo, hi - y], marker="o", capsize=3, label=label, **kw)


def figure_tilt_model(res: ExperimentResult):
    """Exact expected gems fallen against the intended tilt, one line per edge and finger space."""
    fd = res.meta["figure_data"]
    df, comp = fd["df"], fd["comp"]
    fig, ax = _fig(1, 7.0, 3.2)
    ax = ax[0]
    styles = {"left": "--", "centre": "-", "right": ":"}
    for (edge, f), sub in df.groupby(["edge", "finger"], sort=False):
        ax.plot(sub["duration"], sub["expected_fallen"], ls=styles.get(f, "-."),
                color={"north": "C0", "east": "C1", "south": "C2", "west": "C3"}[edge],
                label=f"{edge} {list(comp.raft.openings[edge])} / {f}")
    ax.set_xlabel("intended tilt (s)")
    ax.set_ylabel("expected gems fallen")
    ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)  # 12 lines: beside
    fig.tight_layout()
    return fig


def figure_calibration(res: ExperimentResult):
    """Fitted over true value of each parameter, with its 95% interval."""
    fd = res.meta["figure_data"]
    t = fd["t"]
    fig, ax = _fig(1, 6.5, 3.2)
    ax = ax[0]
    x = np.arange(len(t))
    rel = t["value"] / t["true"]
    ax.errorbar(x, rel, yerr=[rel - t["ci_low"] / t["true"], t["ci_high"] / t["true"] - rel], fmt="o", capsize=4)
    ax.axhline(1.0, color="0.5", ls="--")
    ax.set_xticks(x, t["parameter"], fontsize=8)
    ax.set_ylabel("fitted / true (95% CI)")
    fig.tight_layout()
    return fig


def figure_card_fairness(res: ExperimentResult):
    """Each card's points against the own turns it is held per completion, with the fair line."""
    fd = res.meta["figure_data"]
    table, k, c = fd["table"], fd["k"], fd["c"]
    fig, ax = _fig(1, 7.0, 3.4)
    ax = ax[0]
    for size, sub in table.groupby("size"):
        ax.errorbar(sub["turns_per_completion"], sub["points"] + (size - 3) * 0.06,
                    xerr=Z95 * sub["turns_per_completion_se"], fmt="o", capsize=2, label=f"{size} slots")
    xs = np.linspace(0, table["turns_per_completion"].max() * 1.05, 10)
    ax.plot(xs, k * xs, color="0.4", ls="--", label=f"fair: {k:.2f} points per turn held")
    for _, r in c.reindex(c["z"].abs().sort_values(ascending=False).index).head(6).iterrows():
        ax.annotate(r["name"], (r["turns_per_completion"], r["points"]), fontsize=7, xytext=(3, 3),
                    textcoords="offset points")
    ax.set_xlabel("own turns a card is held per completion (95% CI)")
    ax.set_ylabel("points (rope knots)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure_gem_mix(res: ExperimentResult):
    """Rounds and points against the number of black gems."""
    fd = res.meta["figure_data"]
    t = fd["t"]
    fig, ax = _fig(2, 9, 2.8)
    _err(ax[0], t["black_gems"], t, "rounds", "rounds")
    ax[0].set_ylabel("rounds per game")
    _err(ax[1], t["black_gems"], t, "winning_score", "winner")
    _err(ax[1], t["black_gems"], t, "mean_score", "average player")
    ax[1].set_ylabel("points")
    ax[1].legend(fontsize=8)
    for a in ax:
        a.set_xlabel("black gems in play")
    fig.tight_layout()
    return fig


def figure_flag_depth(res: ExperimentResult):
    """Rounds and the share of games where the deck ran out, against the flag's depth."""
    fd = res.meta["figure_data"]
    t, comp, players = fd["t"], fd["comp"], fd["players"]
    fig, ax = _fig(2, 9, 2.8)
    _err(ax[0], t["flag_depth"], t, "rounds", "rounds")
    ax[0].set_ylabel("rounds per game")
    _err(ax[1], t["flag_depth"], t, "deck_exhausted", "deck ran out")
    ax[1].set_ylabel("share of games where the deck ran out")
    rule = comp.rules.flag_depth[players]
    for a in ax:
        a.axvline(rule, color="0.6", ls=":")
        a.set_xlabel("cards above the pirate flag")
    fig.tight_layout()
    return fig


def figure_greed_curve(res: ExperimentResult):
    """Seat 1's points, the opponents' and the gifts, and its win rate, against its fixed tilt."""
    fd = res.meta["figure_data"]
    f, base, players = fd["f"], fd["base"], fd["players"]
    fig, ax = _fig(2, 9, 2.8)
    _err(ax[0], f["duration"], f, "seat0_score", "seat 1 (fixed tilt)")
    _err(ax[0], f["duration"], f, "opponent_score", "each opponent (greedy)")
    _err(ax[0], f["duration"], f, "points_gifted", "points seat 1's leftovers complete for others")
    ax[0].axhline(base["seat0_score"], color="0.5", ls="--", label="seat 1 playing greedy")
    ax[0].set_ylabel("points per game")
    ax[0].legend(fontsize=7)
    _err(ax[1], f["duration"], f, "seat0_win", "seat 1 win rate")
    ax[1].axhline(1 / players, color="0.5", ls=":", label="fair share")
    ax[1].set_ylabel("win rate")
    ax[1].legend(fontsize=7)
    for a in ax:
        a.set_xlabel("seat 1's intended tilt (s)")
    fig.tight_layout()
    return fig


def figure_dexterity(res: ExperimentResult):
    """Seat 1's win rate and points margin against its timing noise."""
    fd = res.meta["figure_data"]
    t, players, base = fd["t"], fd["players"], fd["base"]
    fig, ax = _fig(2, 9, 2.8)
    _err(ax[0], t["seat0_timing_noise"], t, "seat0_win", "seat 1")
    ax[0].axhline(1 / players, color="0.5", ls=":", label="fair share")
    ax[0].set_ylabel("win rate")
    ax[0].legend(fontsize=8)
    _err(ax[1], t["seat0_timing_noise"], t, "score_margin", "seat 1 minus the average opponent")
    ax[1].axhline(0, color="0.5", ls=":")
    ax[1].set_ylabel("points")
    for a in ax:
        a.set_xlabel("seat 1 timing noise (log-sd of the executed tilt)")
        a.axvline(base, color="0.7", ls="--")
    fig.tight_layout()
    return fig


def figure_sinking(res: ExperimentResult):
    """Points and rounds per player count, standard against sinking."""
    fd = res.meta["figure_data"]
    t, players = fd["t"], fd["players"]
    fig, ax = _fig(2, 9, 2.8)
    for v, off in (("standard", -0.1), ("sinking", 0.1)):
        sub = t[t.variant == v]
        _err(ax[0], sub["players"] + off, sub, "mean_score", v)
        _err(ax[1], sub["players"] + off, sub, "rounds", v)
    ax[0].set_ylabel("points per player")
    ax[1].set_ylabel("rounds per game")
    for a in ax:
        a.set_xlabel("players")
        a.set_xticks(list(players))
        a.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure_start_player(res: ExperimentResult):
    """Win share by turn position, one panel per player count."""
    fd = res.meta["figure_data"]
    t, players, variants = fd["t"], fd["players"], fd["variants"]
    fig, axes = _fig(len(players), 3.2 * len(players), 2.8)
    for ax, p in zip(axes, players):
        for v, off, ls in zip(variants, (-0.06, 0.06), ("-", "--")):
            sub = t[(t.players == p) & (t.variant == v)]
            y = sub["win_share"].to_numpy()
            ax.errorbar(sub["position"] + off, y, yerr=[y - sub["win_share_ci_low"], sub["win_share_ci_high"] - y],
                        marker="o", capsize=3, ls=ls, label=v)
        ax.axhline(1 / p, color="0.5", ls=":", label="fair share")
        ax.set_xticks(range(1, p + 1))
        ax.set_xlabel(f"turn position ({p} players; 1 = start player)")
        ax.set_title(f"{p} players", fontsize=9)
    axes[0].set_ylabel("share of wins (ties split)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_readings(res: ExperimentResult):
    """Each alternative reading minus the default: winning score and the start player's win share."""
    fd = res.meta["figure_data"]
    t = fd["t"]
    fig, axes = _fig(2, 9, 2.6)
    for ax, metric, unit in zip(axes, ("winning_score", "start_win_share"), ("points", "share of wins")):
        sub = t[t.metric == metric].reset_index(drop=True)
        y = np.arange(len(sub))
        ax.errorbar(sub["difference"], y, xerr=Z95 * sub["se"], fmt="o", capsize=3)
        ax.axvline(0, color="0.5", ls=":")
        ax.set_yticks(y, sub["reading"] if ax is axes[0] else [""] * len(sub), fontsize=7)
        ax.set_xlabel(f"alternative minus default: {metric.replace('_', ' ')} ({unit})", fontsize=8)
    fig.tight_layout()
    return fig


def figure_strength(res: ExperimentResult):
    """The strong player's win share against each field, with the fair share."""
    fd = res.meta["figure_data"]
    t, rivals, players, strong = fd["t"], fd["rivals"], fd["players"], fd["strong"]
    fig, ax = _fig(1, 6.0, 2.6)
    ax = ax[0]
    for k, rival in enumerate(rivals):
        sub = t[t.rival == rival]
        x = np.arange(len(sub)) + (k - (len(rivals) - 1) / 2) * 0.15
        y = sub["win_share"].to_numpy()
        ax.errorbar(x, y, yerr=[y - sub["win_share_ci_low"], sub["win_share_ci_high"] - y], fmt="o", capsize=3,
                    label=f"vs {rival}")
    for j, p in enumerate(players):
        ax.hlines(1 / p, j - 0.4, j + 0.4, color="0.5", ls=":")
    ax.set_xticks(range(len(players)), [f"{p} players" for p in players])
    ax.set_ylabel(f"{strong}'s share of the wins (95% CI)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure_strong_play(res: ExperimentResult):
    """Win share by turn position under each policy, and points per own turn held by card size."""
    fd = res.meta["figure_data"]
    table, start, players, policies, card_players = (fd["table"], fd["start"], fd["players"], fd["policies"],
                                                     fd["card_players"])
    fig, axes = _fig(len(players) + 1, 3.0 * (len(players) + 1), 2.8)
    for ax, p in zip(axes, players):
        for k, pol in enumerate(policies):
            sub = start[(start.players == p) & (start.policy == pol)]
            y = sub["win_share"].to_numpy()
            ax.errorbar(sub["position"] + (k - 0.5) * 0.12, y, yerr=[y - sub["win_share_ci_low"],
                        sub["win_share_ci_high"] - y], marker="o", capsize=3, label=pol)
        ax.axhline(1 / p, color="0.5", ls=":")
        ax.set_xticks(range(1, p + 1), [str(k) for k in range(1, p + 1)])  # 1 = the start player
        ax.set_xlabel(f"turn position ({p} players; 1 = start player)")
    axes[0].set_ylabel("share of the wins (95% CI)")
    axes[0].legend(fontsize=7)
    ax = axes[-1]
    cards = table[table.finding == "card fairness"]
    for k, pol in enumerate(policies):
        sub = cards[cards.policy == pol]
        x = np.array([int(s.split()[0]) for s in sub["item"]]) + (k - 0.5) * 0.1
        y = sub["value"].to_numpy()
        ax.errorbar(x, y, yerr=[y - sub["ci_low"], sub["ci_high"] - y], marker="o", capsize=3, label=pol)
    ax.set_xlabel(f"card size (slots), {card_players} players")
    ax.set_ylabel("points per own turn held")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


#: result name -> its drawing function
FIGURES = {"raft_tilt_model": figure_tilt_model, "raft_calibration": figure_calibration,
           "raft_card_fairness": figure_card_fairness, "raft_gem_mix": figure_gem_mix,
           "raft_flag_depth": figure_flag_depth, "raft_greed_curve": figure_greed_curve,
           "raft_dexterity": figure_dexterity, "raft_sinking": figure_sinking,
           "raft_start_player": figure_start_player, "raft_readings": figure_readings,
           "raft_strength": figure_strength, "raft_strong_play": figure_strong_play}


def draw(res: ExperimentResult) -> ExperimentResult:
    """Attach the figure of an experiment of :mod:`.analysis`, :mod:`.readings` or :mod:`.strong_play` (its
    :data:`FIGURES` entry); returns ``res``."""
    res.figure = FIGURES[res.name](res)
    return res



#: games per configuration (quick, full)
# (2026-12-03, the report's 5-minute budget: the heuristic's card-fairness, start-player and readings runs, now the
# sensitivity column beside the exact player's findings, 2400 -> 1200 and 800 -> 500 games)
SIZES = {
    "card_fairness": (240, 1200),
    "gem_mix": ((0, 6), (0, 1, 2, 3, 4, 5, 6)), "gem_mix_games": (60, 300),
    "flag_depth": ((5, 30), (5, 10, 15, 20, 25, 30)), "flag_depth_games": (60, 300),
    "greed": ((1.0, 4.0), (0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)), "greed_games": (60, 300),
    "dexterity": ((0.0, 0.5, 1.0), (0.0, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0)), "dexterity_games": (80, 400),
    "sinking_players": ((2, 4), (2, 3, 4)), "sinking_games": (50, 300),
    "start_player_players": ((2, 4), (2, 3, 4)), "start_player_games": (60, 500),
    "readings_games": (60, 500),
    # strong play (the exact player: about 30 / 15 / 6 games per second at 2 / 3 / 4 players on a busy machine)
    "strength_players": ((2,), (2, 3)), "strength_games": (16, 200),
    "strong_players": ((2,), (2, 3, 4)), "strong_games": (24, 400), "strong_mix_games": (12, 200),
    # the report player's runs of the component and start-player experiments (the heuristic's are the sizes above)
    # (2026-12-03, the report's 5-minute budget: card fairness 300 -> 200, gem mix and flag depth 150 -> 100 games a
    # setting; their findings were decided with room: lifeboat pay +-0.07 against effects of 0.34 and more, flag
    # depth 4.13 +-0.12 rounds, gem mix -0.21 +-0.12)
    "card_fairness_strong": (24, 200),
    "gem_mix_strong": ((0, 6), (0, 3, 6)), "gem_mix_games_strong": (12, 100),
    "flag_depth_strong": ((5, 30), (5, 15, 30)), "flag_depth_games_strong": (12, 100),
    "start_player_games_strong": ({2: 16, 4: 8}, {2: 200, 3: 150, 4: 100}),
    "readings_games_strong": (12, 100),
}


def _size(key: str, quick: bool):
    return SIZES[key][0 if quick else 1]


def components_table() -> pd.DataFrame:
    """What the game's components are and where each value comes from."""
    comp = default_components()
    p = default_params()
    g = comp.gems
    rows = [
        ("gems", f"{g.total} in {len(g.colours)} colours ({', '.join(g.colours)}; {g.wild} wild)", "rules", ""),
        ("gems per colour", ", ".join(f"{c} {n}" for c, n in zip(g.colours, g.counts)), "reconstruction",
         "ordinary colours symmetric; wild kept scarce"),
        ("gems per player count", "; ".join(f"{k}p: {sum(v)}" for k, v in sorted(g.per_players.items())),
         "reconstruction", "one of each ordinary colour fewer per player fewer"),
        ("lifeboat cards", f"{len(comp.deck)} cards of 2-4 slots, {sum(c.points for c in comp.deck)} points in all",
         "reconstruction", "points = (slots - 1) + (largest same-colour group - 1)"),
        ("raft", "3x3 spaces", "rules", ""),
        ("wall gaps", "; ".join(f"{e} {list(w)}" for e, w in comp.raft.openings.items()), "reconstruction",
         "every edge different so rotating matters"),
        ("finger spaces", "; ".join(f"{e} {len(f)}" for e, f in comp.raft.fingers.items()), "reconstruction", ""),
        ("pirate flag depth", ", ".join(f"{k}p {v}" for k, v in sorted(comp.rules.flag_depth.items())), "rules", ""),
        ("water tokens", f"{comp.rules.water_tokens}; sink at {comp.rules.sink_at}", "rules", ""),
        ("tilt model", f"slide {p.slide_rate}/s, drop {p.drop_rate}/s, finger skew {p.finger_skew}, wall spread "
                       f"{p.wall_spread}/s, recentre {p.recentre}, timing noise {p.timing_noise}, spill {p.spill}",
         "reconstruction",
         "about 3-5 gems per 1 s tilt over a wide gap"),
    ]
    return pd.DataFrame(rows, columns=["component", "value", "source", "reasoning"])


INTRO = """\
Rocking Raft is a dexterity game: the player rotates a 3x3 raft, presses a finger space on the edge
nearest them, keeps it tilted for as long as they dare, and loads the gems that slid out through the
gaps in the walls onto their lifeboat cards (colours must match; black is wild).  Gems they cannot use
are passed to the left - gifts to the opponents - and black gems go back to the raft.  The pirate flag,
shuffled into the deck, ends the game at the end of its round.

The random core is physical, so this section rests on a stochastic tilt model with named parameters
(slide rate, drop rate at a gap, finger skew, recentring on release, timing noise of the player): each
gem moves on its own as a Markov chain over the spaces while the raft is tilted.  Exact outcome
probabilities under the model are computed by dynamic programming; games are simulated by a batch
engine that plays exactly the same games as the readable rules engine (tested game by game).  A
designer can fit the model to real tilts with raft.calibrate (first pages).

Not modelled (see the README and the guide): gems jamming at a gap (the likelihood lets a designer
detect it), a player's finger slipping or the raft being nudged, and table talk.  Readings of the text:
gems dropped into the centre (setup, completed and sunk lifeboats) may roll into one of its four side
neighbours; unused black gems and leftovers nobody places are put in the centre space (they do not roll);
a sunk lifeboat is replaced at the end of the turn like a completed one; players receiving passed gems
place as many as they can (the text says "may"; placing never hurts the receiver); all players of a round
finish it after the flag.  A tilt of 0 s changes nothing (only gems that moved roll back on release), and
gems against the lowered wall spread along it, so a gem in a solid corner is not stuck for ever.  The page
"Do the readings of the rules matter?" measures the alternatives.

Players: the experiments whose findings name a component or the start player (card fairness, gem mix, flag
depth, start player, readings) are played with the report player, "exact" (the exact outcome distribution
of every tilt, each outcome valued by optimal loading and the gems passed on, with a look at the pirate flag
and at sinking lifeboats), every seat; each of those findings gives the greedy heuristic's result beside it
(expected points completed this turn under a Poisson approximation of the gems that fall; a larger sample)
and says so when the two disagree.  The other pages use greedy unless they say otherwise; the last page
measures how much stronger exact is."""



def report_section(ctx: ReportContext) -> Section:
    quick = ctx.quick
    seeds = ctx.seed_for("raft").spawn(12)   # children 0..9 as before (spawn keys are indices)
    jobs = ctx.n_jobs if ctx.n_jobs else 1
    s = functools.partial(_size, quick=quick)
    sp_players = s("start_player_players")
    strong_start = {p: n for p, n in s("start_player_games_strong").items() if p in sp_players}
    # the experiments whose findings name a component or the start player are measured with the report player
    # (exact), the heuristic (greedy, the larger sample) beside each finding; the strong-play page that used to
    # restate them under exact play is therefore not in the report (experiments/raft_strong_play.py still runs it)
    results = [
        ex.tilt_model(durations=(0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0) if quick else None),
        ex.calibration_demo(seeds[0], quick=quick),
        paired(ex.card_fairness, (s("card_fairness_strong"), seeds[1]), (s("card_fairness"), seeds[1]), n_jobs=jobs),
        paired(ex.gem_mix, (s("gem_mix_strong"), s("gem_mix_games_strong"), seeds[2]),
               (s("gem_mix"), s("gem_mix_games"), seeds[2]), n_jobs=jobs),
        paired(ex.flag_depth, (s("flag_depth_strong"), s("flag_depth_games_strong"), seeds[3]),
               (s("flag_depth"), s("flag_depth_games"), seeds[3]), n_jobs=jobs),
        ex.greed_curve(s("greed"), s("greed_games"), seeds[4], n_jobs=jobs),
        ex.dexterity(s("dexterity"), s("dexterity_games"), seeds[5], n_jobs=jobs),
        ex.sinking(s("sinking_games"), seeds[6], players=s("sinking_players"), n_jobs=jobs),
        paired(rd.start_player, (strong_start, seeds[8]), (s("start_player_games"), seeds[8]), players=sp_players,
               n_jobs=jobs),
        paired(rd.readings, (s("readings_games_strong"), seeds[9]), (s("readings_games"), seeds[9]), n_jobs=jobs),
        sp.strength_duels(s("strength_games"), seeds[10], players=s("strength_players"),
                          rivals=("greedy",) if quick else ("greedy", "aim"), n_jobs=jobs),
    ]
    for r in results:
        draw(r)
        save_experiment(r, ctx.out_dir)
    # the calibration check's figure (fitted / true, two parameters) repeats its table: its PNG is beside the PDF
    results[1].pdf_figure = False
    strong = (s("card_fairness_strong") + len(s("gem_mix_strong")) * s("gem_mix_games_strong")
              + len(s("flag_depth_strong")) * s("flag_depth_games_strong") + 2 * sum(strong_start.values())
              + 2 * len(rd.READINGS) * s("readings_games_strong"))
    games = (s("card_fairness") + len(s("gem_mix")) * s("gem_mix_games")
             + len(s("flag_depth")) * s("flag_depth_games")
             + (len(s("greed")) + 1) * s("greed_games")
             + len(s("dexterity")) * s("dexterity_games")
             + 2 * len(s("sinking_players")) * s("sinking_games")
             + 2 * len(sp_players) * s("start_player_games")
             + 2 * len(rd.READINGS) * s("readings_games")
             + sum(s("strength_players")) * (1 if quick else 2) * s("strength_games") + strong)
    mode = ("Quick mode: small samples, so the intervals are wide; the full report plays about ten times more games."
            if quick else "Full mode.")
    items = [Text(INTRO + "\n\n" + mode, heading="Rocking Raft"),
             Table(components_table(), title="Rocking Raft components and where they come from",
                   caption="source = rules: stated in the rules; reconstruction: chosen and documented here "
                           "(pyradice_lab/raft/data/*.toml).")]
    items += results
    return Section("Rocking Raft", items, seed=ctx.seed_label("raft"), trials=f"{games:,} games")
