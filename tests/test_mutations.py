"""The mutation list of ``make mutate`` stays applicable, and the harness catches a mutation end to end."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import mutate  # noqa: E402


@pytest.mark.parametrize("m", mutate.MUTATIONS, ids=lambda m: m.name)
def test_every_mutation_still_applies_to_the_sources(m):
    """If this fails, the code a mutation names has changed: update tests/mutate.py to the new code."""
    text = (mutate.ROOT / m.path).read_text()
    assert text.count(m.old) == m.count, f"{m.path}: the text of mutation {m.name!r} occurs {text.count(m.old)} times"
    assert m.old != m.new
    for prev, t in zip(("",) + m.tests, m.tests):
        if t.startswith("-") or prev == "-k":  # an option, or a -k expression
            continue
        assert (mutate.ROOT / t.split("::")[0]).exists(), t  # a test file or a node id in one


def test_mutations_cover_the_gaps_named_in_issue_18():
    names = {m.name for m in mutate.MUTATIONS}
    assert {"sweep-seeding", "report-drops-raft", "meerkat-queen-2", "raft-east-west", "purramid-supported"} <= names


def test_mutations_cover_the_survivors_named_in_issue_32():
    names = {m.name for m in mutate.MUTATIONS}
    assert {"robustness-tolerates-one", "robustness-share-packaged", "findings-min-claim-n", "compare-until-base",
            "balance-verify-search-seed", "balance-rounds-replay-first", "ladder-no-sandwich",
            "meerkat-automa-swap-queen", "meerkat-automa-triple-once"} <= names



@pytest.mark.slow
def test_the_harness_catches_a_mutation_in_a_copy(tmp_path, capsys):
    assert mutate.main(["--only", "wilson-interval"]) == 0
    out = capsys.readouterr().out
    assert "1/1 mutations caught" in out
    # the working tree itself was never touched
    assert mutate.MUTATIONS[[m.name for m in mutate.MUTATIONS].index("wilson-interval")].old in (
        mutate.ROOT / "pyradice_lab" / "engine" / "stats.py").read_text()
