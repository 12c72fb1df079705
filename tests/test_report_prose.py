"""The report reads as a person wrote it (issue 30 part 5): finding sentences say what a designer would say, the
method goes to a footnote-sized line, table columns are labelled in words.  The quick report's own sentences
and headers are checked in tests/test_report.py (check_the_findings_and_headers_read_as_words)."""

import sys
from pathlib import Path

import pandas as pd
import pytest

from pyradice_lab.engine.findings import Finding, difference_of, render
from pyradice_lab.report.build import ExperimentResult, Section, write_pdf
from pyradice_lab.report.tables import column_label

sys.path.insert(0, str(Path(__file__).parent))
from pdf_layout import page_texts  # noqa: E402
from test_report import MACHINE_PROSE  # noqa: E402


@pytest.mark.parametrize("name, label", [
    ("applies_rate_ci_low", "applies rate, 95% CI low"), ("win_rate_ci_high", "win rate, 95% CI high"),
    ("mean_score_se", "mean score, SE"), ("n_games", "games"), ("p_holm", "p, Holm-adjusted"),
    ("policy", "policy"), ("p_win_ci_low", "P(win), 95% CI low"), ("ci_high", "95% CI high"),
    ("approx_cpu_seconds", "approximate CPU seconds"), ("win share, % (95% CI)", "win share, % (95% CI)"), ("score_l1", "score L1")])
def test_column_labels_are_words(name, label):
    assert column_label(name) == label


def test_findings_read_as_sentences_and_the_pdf_shows_words_and_a_method_footnote(tmp_path):
    from pyradice_lab.engine.stats import mean_estimate

    a, b = mean_estimate([4.0, 5.0, 6.0, 5.0] * 100), mean_estimate([0.5, 0.4, 0.6, 0.5] * 100)
    rounds = difference_of("rounds with the flag at depth 30 instead of 5 cards, 3 players", a, b, unit="rounds",
                           player="greedy")
    gems = Finding("difference", "gems per game, the variant against the base", 3.31, 3.0, 3.6, n=300, null=0.0,
                   null_label="no difference", unit="gems", test="paired t interval")
    share = Finding("difference", "start-player win share, 2 players", 0.537, 0.512, 0.561, n=1500, null=0.5,
                    null_label="a fair share", test="Wilson interval", player="greedy", unit="%")
    none = Finding("difference", "score edge", 0.01, -0.2, 0.22, n=400, null=0.0, unit="points")
    texts = [render(f) for f in (rounds, gems, share, none)]
    assert texts[0] == ("Rounds with the flag at depth 30 instead of 5 cards, 3 players: 4.50 rounds more (95% CI "
                        "4.43 to 4.57 rounds; 400 games, greedy players).")
    assert texts[1].startswith("Gems per game, the variant against the base: 3.3 gems more (95% CI 3.0 to 3.6 gems; 300 games")
    assert "no difference detected at this sample size" in texts[3]
    assert not [t for t in texts if MACHINE_PROSE.search(t)]
    exp = ExperimentResult("demo_prose", "Demo", "A reading.",
                           pd.DataFrame({"applies_rate": [0.5], "applies_rate_ci_low": [0.4]}), None,
                           findings=[rounds, gems, share, none])
    path = write_pdf(tmp_path / "r.pdf", [Section("Demo", [exp])], meta={"seed": 0})
    text = " ".join(" ".join(page_texts(path)).split())
    assert "applies_rate" not in text and "applies rate, 95% CI low" in text
    assert "more findings" in text and "Method: finding 1, normal interval of a difference; finding 2, paired t interval." in text
    assert "p- and q-values: the findings CSV" in text  # said once, on the title page, not in every footnote
    assert "4.50 rounds more" in text and not MACHINE_PROSE.search(text.split("Summary of findings")[-1])
