"""The report's "Strength and restricted play" part: its findings follow from its own tables, and what it plays is
each game's declared report plan (``<game>/plan.py``, the contract part ``plan``)."""

import pandas as pd
import pytest

from pyradice_lab.design.strength_report import (
    SIZES,
    experiment_sizes,
    ladder_experiment,
    plan_of,
    restricted_experiment,
)
from pyradice_lab.engine import registry
from pyradice_lab.engine.findings import MIN_CLAIM_N
from pyradice_lab.engine.plan import ReportPlan, StrengthPlan
from pyradice_lab.report.build import ReportContext, first_wave
from pyradice_lab.report.strength import draw, report_section


def _h2h_score(h2h: pd.DataFrame, a: str, b: str) -> float:
    row = h2h[(h2h["a"] == a) & (h2h["b"] == b)]
    if len(row):
        return float(row["score"].iloc[0])
    return 1 - float(h2h[(h2h["a"] == b) & (h2h["b"] == a)]["score"].iloc[0])


def test_ladder_findings_follow_from_the_head_to_head_table():
    plan = StrengthPlan(policies=("fixed:1.0", "random", "greedy"), setup="2 players")
    exp = ladder_experiment("raft", games=160, rng=5, plan=plan)
    table, h2h = exp.table, exp.meta["head_to_head"]
    assert list(table["policy"]) == sorted(table["policy"], key=lambda p: -table.set_index("policy").at[p, "rating"])
    assert (table["rating_ci_low"] <= table["rating"]).all() and (table["rating"] <= table["rating_ci_high"]).all()
    top = table["policy"].iloc[0]
    assert exp.findings, "the ladder states who beats whom"
    for f in exp.findings:
        a, b = f.player.split(" against ")
        assert a == top
        assert f.estimate == pytest.approx(_h2h_score(h2h, a, b))
        assert f.n == 160 and f.null == 0.5 and f.ci_low <= f.estimate <= f.ci_high
        # a claim only when the interval excludes an even match (160 games is above the minimum sample)
        assert f.is_claim == (f.ci_low > 0.5 or f.ci_high < 0.5)
    # the page shows a rating and a win rate with their intervals in one cell each; the CSV keeps the columns
    first = table.iloc[0]
    assert list(exp.display["policy"]) == list(table["policy"])
    assert exp.display["rating [95% CI]"].iloc[0] == (f"{first['rating']:+.0f} [{first['rating_ci_low']:+.0f}, "
                                                      f"{first['rating_ci_high']:+.0f}]")
    assert exp.display["win rate [95% CI]"].iloc[0].startswith(f"{100 * first['win_rate']:.1f}% [")
    assert exp.name == "raft_strength_ladder" and exp.figure is None  # design computes, the report draws
    assert draw(exp, "raft") is exp and exp.figure is not None


def test_restricted_findings_match_their_rows_and_flags():
    exp = restricted_experiment("raft", games=120, rng=7, plan=plan_of("raft"))
    t = exp.table
    assert list(t["effect"]) == sorted(t["effect"])  # the costliest restriction first
    by = t.set_index("description")
    assert len(exp.findings) >= 2
    for f in exp.findings:
        row = by.loc[f.quantity.removeprefix("win share of a player that ")]
        assert f.estimate == pytest.approx(row["win_rate"]) and f.n == row["games"] == 120
        assert f.null == pytest.approx(0.5)  # 2 players: the fair share
        # the table's flag and the finding agree: no measurable value <=> no claim
        assert (row["flag"] == "no measurable value") == (not f.is_claim)
    # the costliest and the cheapest restriction are always stated
    said = {f.quantity for f in exp.findings}
    for i in (0, -1):
        assert "win share of a player that " + t["description"].iloc[i].rstrip(".") in said
    # the page shows one line a restriction, its rate and interval in one cell; the CSV keeps every column
    shown = exp.display
    assert list(shown["restriction"]) == list(t["restriction"]) and "description" not in shown
    first = t.iloc[0]
    assert shown["win rate [95% CI]"].iloc[0] == (f"{100 * first['win_rate']:.1f}% [{100 * first['win_rate_ci_low']:.1f}%, "
                                                  f"{100 * first['win_rate_ci_high']:.1f}%]")


def test_quick_section_claims_nothing_and_saves_every_experiment(tmp_path):
    sec = report_section(ReportContext(quick=True, seed=1, out_dir=tmp_path), games=["raft"])
    assert sec.title == "Strength and restricted play"
    exps = [it for it in sec.items if hasattr(it, "findings")]
    assert [e.name for e in exps] == ["raft_strength_ladder", "raft_restricted_play"]
    assert SIZES["quick"]["ladder"] < MIN_CLAIM_N
    for e in exps:
        assert not e.claims_allowed() and not any(f.is_claim for f in e.findings)
        assert (tmp_path / e.name / f"{e.name}.csv").exists()
    assert (tmp_path / "raft_strength_ladder" / "raft_strength_ladder_pairs.csv").exists()


def test_purramid_exact_player_joins_the_ladder_on_one_scale():
    plan = StrengthPlan(policies=("greedy", "risk:0.5"), optimal=("risk:0.5", "optimal"), setup="2 players")
    exp = ladder_experiment("purramid", games=40, rng=3, plan=plan, optimal_games=4)
    assert set(exp.table["policy"]) == {"greedy", "risk:0.5", "optimal"}
    games = exp.table.set_index("policy")["games"]
    assert games["optimal"] == 4 and games["greedy"] == 40 and games["risk:0.5"] == 44
    assert exp.meta["games_per_lineup"] == {"": 40, "optimal": 4}


def test_old_import_paths_still_work():
    from pyradice_lab.report import strength

    assert strength.StrengthPlan is StrengthPlan is ReportPlan and strength.SIZES is SIZES
    assert callable(strength.ladder_experiment) and callable(strength.restricted_experiment)


# -- the contract part: every game declares its report plan ---------------------------------------------------------
@pytest.mark.parametrize("game", list(registry.games()))
def test_every_game_declares_a_report_plan_of_its_own_players(game):
    spec = registry.get_game(game)
    assert spec.has_part("plan")
    plan = spec.part("plan")
    assert isinstance(plan, ReportPlan) and plan_of(game) is plan
    assert set(plan.policies or spec.policies) <= set(spec.policies)
    assert set(plan.optimal) <= set(spec.policies)
    if plan.restricted_policy is not None:
        assert plan.restricted_policy in spec.policies and plan.restricted_policy not in spec.unrestrictable
    assert plan.setup and plan.compiles in ("section", "strength") and plan.compile_cpu > 0


#: the report's strength plans and sizes as they were in report/strength.py before issue 42 (the report's numbers
#: must not change): policies, players, restricted player, optimal ladder, full-report scale, setup
BEFORE = {
    "purramid": (("greedy", "stop_after:2", "stop_after:1", "risk:0.3", "risk:0.5", "risk:0.7"), 2, None,
                 ("risk:0.7", "optimal"), 4.0, "2 players, side A"),
    "pyradice": (("random_legal", "greedy", "lookahead"), 2, None, (), 1.0, "2 players, default setup"),
    "raft": (None, 2, None, (), 1.0, "2 players, standard variant"),
    "meerkat": (("random_legal", "automa", "automa:H", "heuristic", "greedy", "expectimax"), 3, "expectimax", (),
                0.3, "3 seats: three players, or two players and the automa (the rules' setups)"),
}


@pytest.mark.parametrize("game", list(BEFORE))
def test_declared_plans_play_what_the_report_played(game):
    p = plan_of(game)
    assert (p.policies, p.players, p.restricted_policy, p.optimal, p.full_scale, p.setup) == BEFORE[game]
    full = {"purramid": 2400, "pyradice": 600, "raft": 600, "meerkat": 180}[game]
    assert experiment_sizes(p, quick=False) == {"ladder": full, "restricted": full, "optimal": 100}
    assert experiment_sizes(p, quick=True) == {"ladder": 40, "restricted": 40, "optimal": 12}
    assert SIZES == {"quick": {"ladder": 40, "restricted": 40, "optimal": 12},
                     "full": {"ladder": 600, "restricted": 600, "optimal": 100}}


def test_first_wave_comes_from_the_plans():
    assert first_wave(list(BEFORE)) == ("strength:meerkat", "purramid", "raft", "pyradice", "overview")
    assert first_wave(["pyradice", "raft"]) == ("raft", "pyradice", "overview")  # longest first, whatever the order


def test_the_strength_part_reads_the_plan_through_the_registry(monkeypatch):
    mine = ReportPlan(policies=("greedy", "aim"), players=3, full_scale=2.0, setup="mine", compiles="strength",
                      compile_cpu=99.0)
    real = registry.GameSpec.part

    def part(self, role, *default):
        return mine if (self.name, role) == ("raft", "plan") else real(self, role, *default)

    monkeypatch.setattr(registry.GameSpec, "part", part)
    assert plan_of("raft") is mine
    assert experiment_sizes(mine, quick=False) == {"ladder": 1200, "restricted": 1200, "optimal": 100}
    assert first_wave(["purramid", "raft"]) == ("strength:raft", "purramid", "overview")


@pytest.mark.parametrize(("kwargs", "name"), [({"players": 1}, "players"), ({"optimal": ("a",)}, "optimal"),
                                              ({"full_scale": 0}, "full_scale"), ({"compiles": "x"}, "compiles"),
                                              ({"cli_ladder": "all"}, "cli_ladder"), ({"policies": "greedy"}, "policies"),
                                              ({"compile_cpu": -1}, "compile_cpu")])
def test_report_plan_refuses_bad_values_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=name):
        ReportPlan(**kwargs)


def test_the_strength_figures_repeat_their_tables_and_stay_beside_the_pdf(tmp_path):
    """Each ladder and restricted-play figure shows its table's rows (a rating or a win share with its interval):
    drawn and saved beside the PDF, not laid out in it (the full report was 44 pages for a budget of 40)."""
    from pyradice_lab.report.strength import game_part

    part = game_part(ReportContext(quick=True, seed=1, out_dir=tmp_path), "raft")
    assert [e.name for e in part.items] == ["raft_strength_ladder", "raft_restricted_play"]
    for exp in part.items:
        assert exp.figure is not None and exp.pdf_figure is False
        assert (tmp_path / exp.name / f"{exp.name}.png").is_file()


def test_the_ladder_names_the_three_pairs_furthest_from_the_ratings_and_counts_the_rest():
    from pyradice_lab.design.strength_report import NONTRANSITIVE_SHOWN, _nontransitive_note

    flagged = pd.DataFrame({"a": list("abcde"), "b": list("vwxyz"), "score": [0.1, 0.5, 0.3, 0.9, 0.2],
                            "score_ci_low": [0.05] * 5, "score_ci_high": [0.95] * 5,
                            "predicted": [0.2, 0.1, 0.35, 0.5, 0.21]})
    note = _nontransitive_note(flagged)
    assert NONTRANSITIVE_SHOWN == 3
    named = [p for p in ("b against w", "d against y", "a against v", "c against x", "e against z") if p in note]
    assert named == ["b against w", "d against y", "a against v"]  # gaps 0.40, 0.40, 0.10: the furthest first
    assert note.index("b against w") < note.index("d against y") < note.index("a against v")
    assert "and 2 more pairs (the pairs CSV)" in note
    assert "more pair" not in _nontransitive_note(flagged.head(2)) and _nontransitive_note(flagged.head(0)) == ""
