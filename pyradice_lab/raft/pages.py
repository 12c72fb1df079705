"""The Rocking Raft section of the PDF report: components, the tilt model, calibration and ten experiments.

Every experiment states its conclusions as :class:`~pyradice_lab.engine.findings.Finding` objects computed from its
own table (its reading only says how it was run).  Sizes: quick mode plays about 1,700 games in all (most
pages below the minimum sample for a claim: numbers only, stated); the full report about 23,000.  Every
experiment is also saved as CSV + PNG (+ findings CSV) under ``reports/<name>/``.
"""

from __future__ import annotations

import functools

import pandas as pd

from ..engine.results import ReportContext, Section, Table, Text, save_experiment
from . import analysis as ex, readings as rd, strong_play as sp
from .components import default_components
from .physics import default_params

__all__ = ["report_section", "components_table", "SIZES"]

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


def paired(make, strong_args: tuple, heuristic_args: tuple, **kwargs):
    """``make(*strong_args, policies=<report player>, **kwargs)``, the experiment's page, with the start-player and
    component findings of ``make(*heuristic_args, policies=<heuristic player>, **kwargs)`` beside its own (the
    sensitivity; players from the registry: ``report_player``, ``heuristic_player``)."""
    import matplotlib.pyplot as plt

    from ..engine import registry
    from ..engine.findings import pair_findings

    spec = registry.get_game("raft")
    res = make(*strong_args, policies=spec.report_player, **kwargs)
    base = make(*heuristic_args, policies=spec.heuristic_player, **kwargs)
    plt.close(base.figure)
    res.findings = tuple(pair_findings(res.findings, base.findings))
    res.meta["sensitivity_player"] = spec.heuristic_player
    return res


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
