"""Regenerate the full-size data stored for tests/purramid/test_findings.py (a few minutes on 2 cores).

The numbers are those of the default full report (root seed 0, the Purramid section's seeds): the yarn
values, rule-of-thumb turns and bonus-mode errors (the report's CSV files), and the optimal games of the
strong-play experiments (one row per game, the columns the findings read).

    python tests/purramid/data/make_full_data.py
"""

from pathlib import Path

from pyradice_lab.purramid import analysis as A
from pyradice_lab.report.build import ReportContext

out = Path(__file__).parent
s_games, s_yarn, s_regret, s_bonus, s_strong = ReportContext(seed=0).seed_for("purramid").spawn(5)
A.yarn_value(False, s_yarn).data.to_csv(out / "purramid_yarn_value.csv", index=False)
A.rule_of_thumb_regret(False, s_regret).data.to_csv(out / "purramid_policy_regret.csv", index=False)
A.bonus_mode_accuracy(False, s_bonus).data.to_csv(out / "purramid_bonus_modes.csv", index=False)
games = A.strong_play_games(A.SIZES["full"]["strong"], s_strong, n_jobs=2, progress=True)
for name in ("optimal", "gap"):
    df = games[name]
    df[[c for c in A.GAME_COLUMNS if c in df.columns]].to_csv(out / f"purramid_{name}_games_report.csv", index=False)
print("wrote", sorted(p.name for p in out.glob("*.csv")))
