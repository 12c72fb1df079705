"""The conformance check every registered game passes (private; :mod:`.registry` re-exports every name):
:func:`check_game` and its parts (same seed, exact tables, bad calls, the players, the position round trip, the
golden transcript), with restricted play's default player (:func:`strongest_policy`, :func:`restricted_player`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - numpy and pandas load when a check runs, not at registration
    import pandas as pd

    from .registry import GameSpec

#: a value no document holds (the registry's sentinel, here so this module needs no import of the registry)
_MISSING = object()


class ConformanceError(AssertionError):
    """Raised by :func:`check_game` when a game fails a conformance check."""


def _table_total(table) -> tuple[Any, bool]:
    """Sum of a probability table and whether all entries are non-negative."""
    import numpy as np
    import pandas as pd

    if isinstance(table, pd.DataFrame):
        values = table.to_numpy().ravel()
    elif isinstance(table, pd.Series):
        values = table.to_numpy()
    elif isinstance(table, Mapping):
        values = list(table.values())
    else:
        values = table
    values = list(values) if not isinstance(values, np.ndarray) else values
    if len(values) and isinstance(values[0], Fraction):
        return sum(values, Fraction(0)), all(v >= 0 for v in values)
    arr = np.asarray(values, dtype=float)
    return float(arr.sum()), bool(np.all(arr >= 0))


def strongest_policy(spec: GameSpec) -> str:
    """The strongest registered policy that takes restrictions and can sit twice in one game (restricted
    play's default player)."""
    for p in reversed(spec.policies):
        if p not in spec.unrestrictable and (spec.lineup_ok is None or spec.lineup_ok([p, p])):
            return p
    raise ValueError(f"policies: {spec.name} registers no restrictable policy that can play against itself")


def restricted_player(spec: GameSpec) -> str:
    """Restricted play's default player: the game's ``report_player`` when it takes restrictions and can sit twice
    in one game (Meerkat Kingdom's ``mcts_v2``, Rocking Raft's ``exact``), else :func:`strongest_policy` (Purramid's
    ``optimal`` and Pyradice's ``flat_mc`` take no restriction: ``risk:0.7`` and ``lookahead``)."""
    p = spec.report_player
    if p and p in spec.policies and p not in spec.unrestrictable and (spec.lineup_ok is None or spec.lineup_ok([p, p])):
        return p
    return strongest_policy(spec)


def _player_checks(spec: GameSpec, seed: int) -> list[tuple[str, bool, str]]:
    """Every registered policy plays and every registered restriction parses and plays (2 games each)."""
    from .outcomes import check_outcomes

    if spec.lineup_outcomes is None and not spec.policies:
        return []  # a game without players (nothing to check)
    if spec.lineup_outcomes is None or not spec.policies:
        return [("policies registered", False, "policies and lineup_outcomes must both be registered")]
    rows = []
    try:
        strong = strongest_policy(spec)
    except ValueError as exc:
        return [("policies registered", False, str(exc))]
    lineups = [(f"policy {p!r} plays", [p, strong]) for p in spec.policies]
    lineups += [(f"restriction {r!r} parses and plays", [f"{strong}/{r}", strong]) for r in spec.plain_restrictions]
    for label, lineup in lineups:
        if spec.lineup_ok is not None and not spec.lineup_ok(lineup):
            lineup = [lineup[0], next(q for q in spec.policies if spec.lineup_ok([lineup[0], q]))]
        try:
            out = spec.lineup_outcomes(lineup, 2, rng=seed)
            check_outcomes(out)
            ok = sorted(set(out["policy"])) == sorted(set(lineup)) and len(out) == 2 * len(lineup)
            rows.append((label, ok, f"{lineup}: {len(out)} seat rows" if ok else f"{lineup}: policies "
                         f"{sorted(set(out['policy']))}, {len(out)} rows"))
        except Exception as exc:  # noqa: BLE001 - any exception fails the check
            rows.append((label, False, f"{lineup}: {type(exc).__name__}: {exc}"))
    for p in spec.unrestrictable if spec.plain_restrictions else ():
        bad = f"{p}/{spec.plain_restrictions[0]}"
        try:
            spec.lineup_outcomes([bad, strong], 1, rng=seed)
        except ValueError:
            rows.append((f"{bad!r} is rejected (unrestrictable)", True, "ValueError"))
        except Exception as exc:  # noqa: BLE001
            rows.append((f"{bad!r} is rejected (unrestrictable)", False, f"raised {type(exc).__name__}: {exc}"))
        else:
            rows.append((f"{bad!r} is rejected (unrestrictable)", False, "played without error"))
    return rows


def check_game(name: str, *, seed: int = 12345, strict: bool = True, golden_dir=None) -> pd.DataFrame:
    """Run the conformance checks on one registered game.

    Returns a DataFrame (check, passed, detail; a check that does not apply passes with a detail starting
    ``"skipped: "``); with ``strict=True`` raises :class:`ConformanceError` listing every failed check.
    ``golden_dir``: the folder of the golden transcripts (``<game>.txt``; none compared when None).
    """
    import pandas as pd

    from .registry import get_game

    spec = get_game(name)
    rows = []

    a = spec.smoke_run(seed)
    b = spec.smoke_run(seed)
    try:
        pd.testing.assert_frame_equal(a, b, check_exact=True)
        same, detail = True, f"{len(a)} rows identical"
    except AssertionError as exc:
        same, detail = False, str(exc).splitlines()[0]
    if not isinstance(a, pd.DataFrame) or a.empty:
        same, detail = False, "smoke_run must return a non-empty DataFrame"
    rows.append(("same seed -> identical results", same, detail))

    tables = spec.exact_tables()
    if not tables:
        rows.append(("exact tables present", False, "exact_tables() returned nothing"))
    for tname, table in tables.items():
        total, nonneg = _table_total(table)
        ok = (total == 1) if isinstance(total, Fraction) else abs(total - 1) <= 1e-12
        rows.append((f"exact table {tname!r} sums to 1", bool(ok and nonneg),
                     f"sum = {total}" + ("" if nonneg else ", negative entries")))

    calls = spec.bad_calls()
    if not calls:
        rows.append(("bad calls present", False, "bad_calls() returned nothing"))
    for pname, call in calls:
        try:
            call()
        except (ValueError, TypeError) as exc:
            ok = pname in str(exc)
            rows.append((f"bad {pname} -> ValueError", ok, f"{type(exc).__name__}: {exc}" if ok else
                         f"message does not name {pname!r}: {type(exc).__name__}: {exc}"))
        except Exception as exc:  # noqa: BLE001 - any other exception is a failure of the check
            rows.append((f"bad {pname} -> ValueError", False, f"raised {type(exc).__name__}: {exc}"))
        else:
            rows.append((f"bad {pname} -> ValueError", False, "no exception raised"))

    rows.extend(_player_checks(spec, seed))
    rows.extend(_position_checks(spec, seed))
    if golden_dir is not None:
        rows.append(_golden_check(spec, seed, golden_dir))

    result = pd.DataFrame(rows, columns=["check", "passed", "detail"])
    if strict and not result["passed"].all():
        failed = result.loc[~result["passed"]]
        raise ConformanceError(f"{name} fails: " + "; ".join(f"{c} ({d})" for c, d in zip(failed.check, failed.detail)))
    return result


SKIPPED = "skipped: "


def _position_checks(spec: GameSpec, seed: int) -> list[tuple[str, bool, str]]:
    """A position from turn 3 (else 2, 1) of the game seeded ``seed`` survives document, TOML and JSON round trips."""
    import json
    import tempfile
    from pathlib import Path

    label = "position round trip"
    parts = {p: spec.part(p, None) for p in ("position", "load_position", "position_from_game")}
    if parts["position"] is None:
        return [(label, True, f"{SKIPPED}{spec.name} declares no advisor Position (advisor.Position) yet")]
    missing = [p for p, v in parts.items() if v is None]
    if missing:
        return [(label, False, f"advisor.Position is declared without {', '.join(missing)}")]
    load, error = parts["load_position"], ""
    for turn in (3, 2, 1):  # a later turn first: a table with something on it
        try:
            pos = parts["position_from_game"](seed, turn)
            break
        except ValueError as exc:  # e.g. a turn at which no player decides (an automa's)
            error = f"{type(exc).__name__}: {exc}"
    else:
        return [(label, False, f"position_from_game({seed}, turn) failed for turns 3, 2 and 1: {error}")]
    rows = []
    try:
        doc = pos.document()
        with tempfile.TemporaryDirectory() as tmp:
            toml_file, json_file = Path(tmp) / "position.toml", Path(tmp) / "position.json"
            toml_file.write_text(pos.to_toml(), encoding="utf-8")
            json_file.write_text(json.dumps(doc), encoding="utf-8")
            for how, source in (("mapping", doc), ("TOML file", toml_file), ("JSON file", json_file)):
                back = load(source)
                ok = isinstance(back, parts["position"]) and back.document() == doc
                rows.append((f"{label} ({how})", ok, f"turn {turn} of game seed {seed}" if ok else
                             f"turn {turn} of game seed {seed}: read back as {type(back).__name__} "
                             f"{_first_difference(back.document(), doc)}"))
    except Exception as exc:  # noqa: BLE001 - any exception fails the check
        rows.append((label, False, f"turn {turn} of game seed {seed}: {type(exc).__name__}: {exc}"))
    rows.append(_numbering_check(pos, turn, seed))
    return rows


def _numbering_check(pos, turn: int, seed: int) -> tuple[str, bool, str]:
    """The one numbering (docs/guide/defaults.md): the file's ``to_move`` counts seats from 1, as ``pos.to_move``
    does, and ``pos.seat`` is its 0-based index."""
    label = "position numbering"
    doc = pos.document()
    got = (doc.get("to_move"), getattr(pos, "to_move", None), getattr(pos, "seat", None))
    ok = isinstance(got[0], int) and got[0] >= 1 and got[1] == got[0] and got[2] == got[0] - 1
    return (label, ok, f"turn {turn} of game seed {seed}: to_move {got[0]} (from 1), seat index {got[2]}" if ok else
            f"turn {turn} of game seed {seed}: document to_move, Position.to_move, Position.seat = {got}; "
            "expected to_move >= 1 (seats from 1) in both and seat = to_move - 1 (the 0-based index)")


def _first_difference(a: Mapping, b: Mapping) -> str:
    keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k, _MISSING) != b.get(k, _MISSING)]
    return f"differing at {keys[0]!r}: {a.get(keys[0])!r} != {b.get(keys[0])!r}" if keys else "(documents equal)"


def _number(x) -> str:
    """A score as a person reads it: integers without a decimal point, other numbers to 6 significant digits."""
    x = float(x)
    return str(int(x)) if x.is_integer() else f"{x:.6g}"


#: games in a generic golden transcript (a game without its own ``rules.transcript``)
GOLDEN_GAMES = 3


def golden_transcript(name: str, seed: int = 12345) -> str:
    """One seeded game's transcript, the text :func:`check_game` compares with ``<golden_dir>/<name>.txt``.

    The game's own ``rules.transcript(seed)`` (the contract part ``transcript``) where it declares one; otherwise a
    small generic one from the outcomes of :data:`GOLDEN_GAMES` seeded games of its heuristic player in every seat
    (``default_players`` seats, else 2; ``lineup_outcomes``): one line per game, every seat's player, turn
    position, score, rank and win share, seats and positions numbered from 1.
    """
    from .registry import get_game

    spec = get_game(name)
    own = spec.part("transcript", None)
    head = f"{spec.title} ({spec.name}), seed {seed}: "
    if own is not None:
        return head + "the game's own transcript (rules.transcript)\n" + own(seed).rstrip("\n") + "\n"
    lineup = [spec.heuristic_player] * (spec.default_players or 2)
    if spec.lineup_ok is not None and not spec.lineup_ok(lineup):
        raise ValueError(f"{spec.name}: {lineup} cannot play; declare rules.transcript(seed)")
    out = spec.lineup_outcomes(lineup, GOLDEN_GAMES, rng=seed)
    lines = [head + f"outcomes of {GOLDEN_GAMES} games, {spec.heuristic_player} in every seat (the game declares no "
             "rules.transcript); seats and turn positions from 1"]
    for g, rows in out.groupby("game", sort=True):
        seats = [f"seat {int(r.seat) + 1} {r.policy} position {int(r.position) + 1} score {_number(r.score)} "
                 f"rank {int(r.rank)}" + (f" win {_number(r.win)}" if r.win else "") for r in rows.itertuples()]
        lines.append(f"game {int(g) + 1}: " + "; ".join(seats))
    return "\n".join(lines) + "\n"


def _golden_check(spec: GameSpec, seed: int, golden_dir) -> tuple[str, bool, str]:
    from pathlib import Path

    label = "golden transcript"
    path = Path(golden_dir) / f"{spec.name}.txt"
    try:
        text = golden_transcript(spec.name, seed)
    except Exception as exc:  # noqa: BLE001 - any exception fails the check
        return label, False, f"{type(exc).__name__}: {exc}"
    if not path.exists():
        return label, False, (f"{path} is missing: write it with golden_transcript({spec.name!r}, {seed}) (tests/"
                              "test_registry.py --regenerate) and review it by eye")
    want = path.read_text(encoding="utf-8")
    if text == want:
        return label, True, f"{path.name}: {text.count(chr(10))} lines identical"
    got_lines, want_lines = text.splitlines(), want.splitlines()
    i = next((i for i, (a, b) in enumerate(zip(got_lines, want_lines)) if a != b), min(len(got_lines), len(want_lines)))
    got = got_lines[i] if i < len(got_lines) else "<end>"
    exp = want_lines[i] if i < len(want_lines) else "<end>"
    return label, False, f"{path.name} differs at line {i + 1}: got {got!r}, expected {exp!r}"
