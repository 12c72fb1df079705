"""The report player and the heuristic beside it (issue 27): pairing a strong player's findings with a
heuristic's, the sensitivity note, which findings are the designer's (re-exported by
:mod:`pyradice_lab.engine.findings`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ._finding import Finding
from ._findings_prose import _is_change, _null, format_value

# ----------------------------------------------------------------------------------------- players (issue 27)
_START = re.compile(r"\bstart[- ]player", re.IGNORECASE)


def is_designer_finding(f: Finding) -> bool:
    """Whether a designer may act on ``f``: it names a component (``component`` set) or the start player (its
    quantity speaks of the start player).  These findings are measured with the game's report player
    (``registry.get_game(g).report_player``), its heuristic beside it (:func:`with_sensitivity`)."""
    return bool(f.component) or _START.search(f.quantity) is not None


def sensitivity_text(f: Finding) -> str:
    """``"greedy: 37% [35%, 39%]"``: the heuristic's result beside the report player's ("" when none)."""
    if not f.sensitivity:
        return ""
    est, lo, hi = f.sensitivity
    spread = (hi - lo) / 2
    pct = "%" if f.unit == "%" else ""
    tail = f" {f.unit}" if f.unit and f.unit != "%" else ""
    return (f"{f.sensitivity_player}: {format_value(est, unit=pct, spread=spread)} "
            f"[{format_value(lo, unit=pct, spread=spread)}, {format_value(hi, unit=pct, spread=spread)}]{tail}")


def _side(est: float, lo: float, hi: float, null: float | None) -> int:
    """+1 / -1: the interval lies above / below ``null``; 0: it covers it (or there is no null)."""
    if null is None:
        return 0
    return 1 if lo > null else -1 if hi < null else 0


def with_sensitivity(strong: Finding, heuristic: Finding, *, heuristic_player: str | None = None) -> Finding:
    """``strong`` (measured with the report player) with ``heuristic``'s result beside it as its sensitivity
    (:func:`sensitivity_text`) and, when the two disagree, a sentence saying how: the intervals point to
    different sides of the null value (or, for a finding without one, do not overlap).

    Examples
    --------
    >>> s = Finding("difference", "start player's win share", 0.52, 0.49, 0.55, n=800, null=0.5, player="optimal",
    ...             unit="%", null_label="a fair share")
    >>> h = Finding("difference", "start player's win share", 0.60, 0.57, 0.63, n=2000, null=0.5, player="greedy",
    ...             unit="%", null_label="a fair share")
    >>> f = with_sensitivity(s, h)
    >>> f.sensitivity_player, sensitivity_text(f)
    ('greedy', 'greedy: 60% [57%, 63%]')
    >>> f.notes[-1]
    'Sensitivity, greedy: 60% [57%, 63%]. The two players disagree: with greedy the result is above a fair share of 50.0%, where optimal leaves it undecided at its sample size.'
    """
    if not isinstance(strong, Finding) or not isinstance(heuristic, Finding):
        raise TypeError("strong and heuristic must be Finding objects")
    who = heuristic_player or heuristic.player or "heuristic"
    out = strong.with_context(sensitivity_player=who,
                              sensitivity=(heuristic.estimate, heuristic.ci_low, heuristic.ci_high))
    # a side counts only on a sample large enough for a claim (below it a finding draws no conclusion)
    a = _side(strong.estimate, strong.ci_low, strong.ci_high, strong.null) if strong.enough_data else 0
    b = _side(heuristic.estimate, heuristic.ci_low, heuristic.ci_high, strong.null) if heuristic.enough_data else 0
    null = _null(strong) if strong.null is not None else ""
    if strong.null is not None and _is_change(strong):  # a change from 0 is said as more / less
        words = {1: "an increase", -1: "a decrease", 0: "undecided"}
    else:
        words = {1: f"above {null}", -1: f"below {null}", 0: "undecided"}
    shown = sensitivity_text(out).split(": ", 1)[1]
    note = f"Sensitivity, {who}: {shown}"
    mine = strong.player or "the report player"
    if strong.null is not None and a != b:
        note += f". The two players disagree: with {who} the result is {words[b]}, "
        if a == 0:
            note += f"where {mine} leaves it undecided at its sample size"
        elif b == 0:
            note += f"where {mine} finds it {words[a]}"
        else:
            note += f"where {mine} finds it {words[a]}: the finding depends on the players"
    elif strong.null is None and (heuristic.ci_low > strong.ci_high or heuristic.ci_high < strong.ci_low):
        note += f". The two players disagree: with {who} the interval does not overlap {mine}'s"
    return out.with_context(notes=(*out.notes, note + "."))


def pair_findings(strong: Sequence[Finding], heuristic: Sequence[Finding], *, key=None,
                  heuristic_player: str | None = None) -> list[Finding]:
    """The findings of ``strong`` (the report player's run of an experiment), each designer finding
    (:func:`is_designer_finding`) with the matching finding of ``heuristic`` (the same experiment with the
    heuristic player) beside it; matched by ``key(f)`` (default: the quantity, its decimal numbers left out: a
    reference such as "the deck's 3.04" depends on the players).  Findings of ``heuristic``
    without a match are left out (the page is the report player's)."""
    key = key or _quantity_key
    by = {}
    for h in heuristic:
        by.setdefault(key(h), h)
    return [with_sensitivity(f, by[key(f)], heuristic_player=heuristic_player)
            if is_designer_finding(f) and key(f) in by else f for f in strong]


def _quantity_key(f: Finding) -> str:
    return re.sub(r"\d+\.\d+", "#", f.quantity)


def heuristic_only(player: str, report_player: str, heuristics: Iterable[str], *, strong: Iterable[str] = ()) -> bool:
    """Whether a finding's ``player`` label names heuristic players only: it mentions neither ``report_player``
    nor any of ``strong`` (players at least as strong, e.g. Meerkat's ``mcts`` beside its report player
    ``mcts_late``) and mentions one of ``heuristics`` (policy names; ``"risk"`` also matches ``"risk:0.35"``).
    A label naming no given policy (an exact computation: ``"exact optimum"``) is not a heuristic.

    >>> heuristic_only("greedy", "mcts", ["greedy", "expectimax"]), heuristic_only("mcts vs greedy", "mcts", ["greedy"])
    (True, False)
    >>> heuristic_only("mcts vs greedy", "mcts_late", ["greedy"], strong=["mcts"])
    False
    >>> heuristic_only("mcts_v2 vs greedy", "mcts_v2", ["greedy", "mcts_v1"])   # names with digits are whole words
    False
    """
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", player or ""))
    base = {h.split(":")[0] for h in heuristics}
    top = {p.split(":")[0] for p in (report_player, *strong)}
    return not (words & top) and bool(words & base)


def game_heuristics(spec) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(heuristics, strong)`` of a registered game (:class:`~pyradice_lab.engine.registry.GameSpec`), from the
    registry explicitly: the heuristics are its ``heuristic_player`` and the policies registered weaker than its
    ``report_player`` (``policies`` are in strength order, weakest first); ``strong`` the policies registered
    after the report player (stronger, unaffordable at report scale: not heuristics) and the report players the
    game declares for other player counts (``spec.report_players()``: never heuristics)."""
    pols = tuple(spec.policies)
    rp = spec.report_player
    per_count = tuple(e.name for e in spec.report_players().values()) if hasattr(spec, "report_players") else ()
    k = pols.index(rp) if rp in pols else len(pols)
    weaker = tuple(p for p in pols[:k] if p != rp and p not in per_count)
    heuristics = tuple(dict.fromkeys((spec.heuristic_player, *weaker))) if spec.heuristic_player else weaker
    strong = tuple(dict.fromkeys(p for p in (*pols[k + 1:], *per_count) if p not in heuristics and p != rp))
    return heuristics, strong


def merge_players(findings: Sequence[Finding], report_player: str, heuristic_player: str) -> list[Finding]:
    """An experiment that measured each finding under both players (one finding per player, the same quantity):
    the designer findings of ``heuristic_player`` become the sensitivity of the ``report_player``'s finding of the
    same quantity (:func:`with_sensitivity`) and leave the list; every other finding stays, in order.  Players
    are matched on the label's first word (``"exact"``, ``"greedy, every seat"``).

    >>> f = [Finding("difference", "start player's win share", 0.55, 0.5, 0.6, n=300, null=0.5, player=p)
    ...      for p in ("greedy", "exact")]
    >>> [(g.player, g.sensitivity_player) for g in merge_players(f, "exact", "greedy")]
    [('exact', 'greedy')]
    """
    def first(label: str) -> str:
        return re.split(r"[ ,]", label.strip(), maxsplit=1)[0] if label else ""

    strong = {f.quantity: i for i, f in enumerate(findings) if first(f.player) == report_player}
    base = {f.quantity: f for f in findings if first(f.player) == heuristic_player and is_designer_finding(f)
            and f.quantity in strong}
    out = []
    for f in findings:
        if first(f.player) == heuristic_player and f.quantity in base and base[f.quantity] is f:
            continue
        out.append(with_sensitivity(f, base[f.quantity]) if first(f.player) == report_player and f.quantity in base
                   else f)
    return out
