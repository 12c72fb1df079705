"""Readable transcripts of traced Meerkat Kingdom games (formatting only; the events come from :mod:`.rules`)."""

from __future__ import annotations

from . import rules as R

__all__ = ["format_log"]

_BURROW = ("move a meerkat", "move the queen", "swap", "move an oasis token", "wandering male")
_PAIR = ("reroll", "move to highest neighbour", "swap on lowest neighbour", "swap on highest neighbour",
         "queen to lowest neighbour", "queen to highest neighbour")


def _code_text(k: int, code: int) -> str:
    if k in (R.BA_MOVE,) or (k == R.BA_MALE and code >= 0):
        return f"{code // 16}->{code % 16}"
    if k == R.BA_SWAP:
        return f"{(code // 8) // 16}<->{(code // 8) % 16} (seat {code % 8 + 1})"  # seats from 1
    if k == R.BA_QUEEN:
        return f"to {code}"
    if k == R.BA_OASIS:
        return f"{code // 16}->{code % 16}"
    return ""


def format_log(log, names) -> str:
    """One line per event of a trace log (rows: turn, seat, event, a, b, c, d, e)."""
    lines = []
    layout = {}
    for row in log:
        turn, s, ev, a, b, c, d, e = (int(x) for x in row)
        who = names[s] if 0 <= s < len(names) else "-"
        p = f"[{turn + 1:3d}] {who:>12}: "  # turns and seats from 1 (the trace's turn is an index)
        if ev == R.EV_LAYOUT:
            layout[a] = b
            if len(layout) == 10:
                lines.append("layout (tile@position): " + " ".join(f"{t}@{layout[t]}" for t in sorted(layout)))
            continue
        if ev == R.EV_START:
            lines.append(p + (f"automa queen set up on tile {b}" if a < 0 else f"starts (rolled {a})"))
        elif ev == R.EV_ROLL:
            lines.append(p + f"rolls {a} {b} {c}")
        elif ev == R.EV_REROLL:
            kept = [x for i, x in enumerate((a, b, c)) if d >> i & 1]
            lines.append(p + f"rerolls (kept {kept or 'none'}) -> {a} {b} {c}")
        elif ev == R.EV_PLACE:
            lines.append(p + f"places {a} meerkat{'s' if a != 1 else ''} on tile {b}")
        elif ev == R.EV_QUEEN:
            lines.append(p + f"places the queen on tile {a}")
        elif ev == R.EV_GUARD:
            lines.append(p + f"assigns a guardian (reserve {a})")
        elif ev == R.EV_MALE:
            lines.append(p + f"activates the wandering male: he moves to tile {a}; pups {b}")
        elif ev == R.EV_DRIVE:
            lines.append(p + "drives a meerkat towards the male:")
        elif ev == R.EV_OASIS:
            lines.append(p + f"activates the {R.TOKEN_NAMES[b]} token on tile {a}")
        elif ev == R.EV_MOVE:
            lines.append(p + f"  moves a meerkat {a} -> {b}")
        elif ev == R.EV_SWAP:
            lines.append(p + f"  swaps a meerkat on {a} with {names[c]}'s on {b}")
        elif ev == R.EV_RECALL:
            lines.append(p + "  recalls a meerkat from " + (f"tile {a}" if a < 100 else f"burrow space {a - 100}"))
        elif ev == R.EV_TOKMOVE:
            lines.append(p + f"  moves the {R.TOKEN_NAMES[c]} token {a} -> {b}")
        elif ev == R.EV_DRAW:
            lines.append(p + f"draws {R.TOKEN_NAMES[b]} for tile {a}")
        elif ev == R.EV_HAZARD:
            lines.append(p + f"  {R.TOKEN_NAMES[a]} strikes around tile {b}")
        elif ev == R.EV_LOSE:
            lines.append(p + f"  loses a meerkat on tile {a}")
        elif ev == R.EV_OUT:
            lines.append(p + "has placed every meerkat: " + (f"bonus token {a} ({b} taken)" if a else
                                                                  "no bonus token left"))
        elif ev == R.EV_FORFEIT:
            lines.append(p + "forfeits the queen (she may not be the last meerkat)")
        elif ev == R.EV_BURROW:
            lines.append(p + f"burrow action: {_BURROW[a]} {_code_text(a, b)}")
        elif ev == R.EV_AUTOMA:
            lines.append(p + f"rolls {a // 100} {a // 10 % 10} {a % 10} with automa die {'LMH'[b]}: count die {c}")
        elif ev == R.EV_AREROLL:
            lines.append(p + "  tile pair 1+1: rerolls the three dice")
        elif ev == R.EV_APAIR:
            lines.append(p + f"  pair action: {_PAIR[a]} (placed on {b})")
        elif ev == R.EV_QMOVE:
            lines.append(p + f"  moves its queen {a} -> {b}")
        elif ev == R.EV_PASS:
            lines.append(p + "passes (no meerkats left)")
        elif ev == R.EV_FINAL:
            lines.append(p + "takes the final turn")
        elif ev == R.EV_UNLOCK:
            lines.append(p + f"reverse-scoring timer back: the token on tile {a} may move again")
        elif ev == R.EV_SCORE:
            pts = [b, c, d, e][:len(names)]
            lines.append(f"score tile {a:2d}: " + ", ".join(f"{names[i]} {pts[i]}" for i in range(len(pts))))
        elif ev == R.EV_GMOVE:
            lines.append(f"        {who}: moves a guardian from the reserve onto tile {b} (after winning {a})")
        else:  # pragma: no cover
            lines.append(p + f"event {ev} {a} {b} {c} {d} {e}")
    return "\n".join(lines)
