"""Issue 43 item 1 for Pyradice: a position with every element of the table (the quarry as the player sees it,
every pyramid, the goal tokens, the skill tokens, the objective cards and their discs) dumped by the CLI reloads
identical and gives identical advice (a goal token changing the advice: tests/test_web_recommend.py)."""

from __future__ import annotations

from pyradice_lab.cli import main
from pyradice_lab.pyradice.advisor import load_position


def test_the_cli_round_trip_with_every_element(capsys, tmp_path):
    first_dump, second_dump = tmp_path / "a.toml", tmp_path / "b.toml"
    opts = ["--top", "3", "--samples", "4", "--candidates", "3", "--seed", "5"]
    assert main(["pyradice", "advise", "--game-seed", "3", "--turn", "30", "--policies", "greedy", *opts,
                 "--dump-position", str(first_dump)]) == 0
    capsys.readouterr()
    doc = load_position(first_dump).document()
    assert set(doc["setup"]) == {"skills", "goals", "cards", "discs"} and len(doc["seat"]) == 2
    assert all(len(s["pyramid"]) == 6 for s in doc["seat"]) and set(doc["quarry"]) == {"bottom", "middle", "top"}
    assert main(["pyradice", "advise", "--position", str(first_dump), *opts,
                 "--dump-position", str(second_dump)]) == 0
    once = capsys.readouterr().out
    assert second_dump.read_text() == first_dump.read_text()
    assert main(["pyradice", "advise", "--position", str(second_dump), *opts]) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] == once.split("\n", 1)[1]
