"""One recommendation a player reads in five seconds, built the same way for every game from its advice.

A game's web desk (:class:`pyradice_lab.engine.desk.Desk`) describes each ranked option in the words of the
table (:meth:`~pyradice_lab.engine.desk.Desk.describe`: what to do, on which piece, numbered from 1 as the board
shows it); :func:`recommendation` merges the options a player cannot tell apart (same move on symmetric spaces,
same sum from other dice, with the same value) and writes the sentence: what to do, its value and why, the
runner-up and the difference.  The page shows the sentence at the top, the next alternatives below it and the
whole ranking folded away; every listed option carries a value or says "not searched".

An option description is a dict:

``label``
    what to do, in the words of the board (``"put 2 on the 2 (bottom row, space 7), then roll on"``);
``group``, ``variant``
    optional: ``group`` is the label with ``{}`` where ``variant`` goes; options with the same ``group`` and the
    same value are merged into one line naming every variant (``"put 1+4+5 or 2+3+5 on the 10 ..."``);
``value``
    the option's value (None or NaN: not searched);
``tie``
    optional: what tells options without a value apart (options of one ``group`` with the same ``tie`` and no
    value are merged, e.g. the same valuation by a quicker player that chose which options to search);
``se``
    optional: its standard error (Monte Carlo values);
``detail``
    optional: why, in a few words (the advisor's ``why``);
``extra``
    optional: a short note for the sentence (``"23% chance of a burst"``).

Examples
--------
>>> rec = recommendation([{"label": "stop", "value": 2.0, "detail": "banks 2 tiles"},
...                       {"label": "roll on", "value": 1.5}], value_name="expected tiles")
>>> rec["headline"]
'Best: stop — 2.00 expected tiles: banks 2 tiles. Runner-up: roll on, 0.50 less (1.50).'
>>> [o["label"] for o in rec["options"]]
['stop', 'roll on']
"""

from __future__ import annotations

import math

__all__ = ["recommendation", "merge", "value_text", "ALTERNATIVES"]

#: alternatives listed under the sentence (the rest of the ranking is folded away)
ALTERNATIVES = 3
#: values closer than this are the same value (merging)
_SAME = 1e-9


def _num(v):
    if v is None:
        return None
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def value_text(v, percent: bool = False, se=None) -> str:
    """``v`` as the page prints it (``"not searched"`` when there is none), with its standard error when one is
    given and not 0 (a value without spread, such as an exact one, prints none); an error smaller than the
    printed precision says so instead of printing 0.

    >>> value_text(0.5, True, 0.02), value_text(3.2, se=0.001), value_text(3.2, se=0.0), value_text(None)
    ('50.0% ± 2.0%', '3.20 ± <0.01', '3.20', 'not searched')
    """
    v = _num(v)
    if v is None:
        return "not searched"
    text = f"{100 * v:.1f}%" if percent else f"{v:.2f}"
    se = _num(se)
    if se is not None and se > 0:
        shown, unit, floor = (100 * se, "%", 0.1) if percent else (se, "", 0.01)
        text += f" ± {shown:.{1 if percent else 2}f}{unit}" if shown >= floor / 2 else f" ± <{floor:g}{unit}"
    return text


def _diff(d: float, percent: bool) -> str:
    """A difference of values: of chances in percentage points."""
    return f"{100 * d:.1f} percentage points" if percent else f"{d:.2f}"


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _variants(items: list) -> str:
    """The merged variants in words: integers as ranges (``1-3 or 5``), anything else listed."""
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in items):
        return _or([str(v) for v in items])
    runs, nums = [], sorted(set(items))
    for v in nums:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return _or([str(a) if a == b else f"{a}–{b}" if b > a + 1 else f"{a}, {b}" for a, b in runs])


def merge(rows: list[dict]) -> list[dict]:
    """The described options with those of one ``group`` and one value merged (in rank order; the merged line
    keeps its first option's place and says how many it stands for in ``count``)."""
    out, seen = [], {}
    for rank, r in enumerate(rows, 1):
        value = _num(r.get("value"))
        group = r.get("group")
        key = None
        if group is not None:
            key = (group, ("tie", r.get("tie")) if value is None else round(value / _SAME) if abs(value) < 1e6
                   else value)
            if value is None and r.get("tie") is None:
                key = None
        if key is not None and key in seen:
            line = seen[key]
            line["count"] += 1
            if r.get("variant") not in line["variants"]:
                line["variants"].append(r.get("variant"))
                line["label"] = group.format(_variants(line["variants"]))
            continue
        line = {"rank": rank, "label": r["label"], "value": value, "se": _num(r.get("se")),
                "detail": r.get("detail") or "", "extra": r.get("extra") or "", "count": 1,
                "variants": [r.get("variant")] if group is not None else []}
        if key is not None:
            seen[key] = line
        out.append(line)
    return out


def recommendation(rows: list[dict], *, value_name: str, percent: bool = False, higher: str = "more",
                   lower: str = "less", alternatives: int = ALTERNATIVES) -> dict:
    """The recommendation of one answer: the sentence and the merged options.

    Parameters
    ----------
    rows : list of dict
        The described options, best first (see the module docstring).
    value_name : str
        What the value is, in plain words (``"expected tiles"``, ``"chance of at least 3 tiles"``).
    percent : bool
        Values are chances (printed as percentages).
    higher, lower : str
        How a difference reads (``"less"``: the runner-up is worth that much less).
    alternatives : int
        How many options the page lists under the sentence.

    Returns
    -------
    dict
        ``headline`` (one sentence), ``parts`` (the sentence in pieces the page styles: ``kind`` ``"do"``,
        ``"value"``, ``"why"``, ``"runner"`` or ``"text"``, and its ``text``), ``options`` (merged, each ``rank``, ``label``, ``value``, ``value_text``,
        ``diff_text`` against the best, ``detail``, ``count``), ``alternatives`` (how many to list),
        ``value_name``, ``percent``, ``merged`` (options merged away), ``not_searched`` (options without a
        value).
    """
    if not isinstance(value_name, str) or not value_name:
        raise ValueError(f"value_name must be a non-empty string, got {value_name!r}")
    lines = merge(rows)
    for line in lines:
        line["value_text"] = value_text(line["value"], percent, line["se"])
    best = lines[0] if lines else None
    for line in lines:
        if best is None or best["value"] is None or line["value"] is None:
            line["diff_text"] = "" if line["value"] is not None else "not searched"
            continue
        d = best["value"] - line["value"]
        line["diff_text"] = "best" if line is best else (
            f"{_diff(abs(d), percent)} {lower if d >= 0 else higher}" if abs(d) > _SAME else "the same")
    parts = [("best", "No option to rank.")] if best is None else _sentence(lines, value_name, percent, lower, higher)
    return {"headline": "".join(text for _, text in parts), "parts": [{"kind": k, "text": t} for k, t in parts], "options": lines, "alternatives": int(alternatives), "value_name": value_name,
            "percent": bool(percent), "merged": len(rows) - len(lines),
            "not_searched": sum(1 for line in lines if line["value"] is None)}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentence(lines, value_name, percent, lower, higher) -> list[tuple[str, str]]:
    """The sentence as (kind, text) pieces: what to do, its value, why, the runner-up."""
    best = lines[0]
    why = "; ".join(x for x in (best["detail"], best["extra"]) if x)
    parts = [("text", "Best: "), ("do", best["label"])]
    if best["value"] is not None:
        parts.append(("value", f" — {best['value_text']} {value_name}"))
    parts += [("why", f": {why}.")] if why else [("text", ".")]
    if len(lines) == 1:
        return parts + [("runner", " It is the only option.")]
    second = lines[1]
    if second["value"] is None or best["value"] is None:
        return parts + [("runner", f" Runner-up: {second['label']} (not searched).")]
    d = best["value"] - second["value"]
    if abs(d) <= _SAME:
        return parts + [("runner", f" {_cap(second['label'])} is worth the same.")]
    return parts + [("runner", f" Runner-up: {second['label']}, {_diff(abs(d), percent)} "
                               f"{lower if d >= 0 else higher} ({second['value_text']}).")]
