"""Fit the tilt model to a designer's measured tilts: maximum likelihood with honest uncertainty.

Measure real tilts: set the raft up in a known layout, lower an edge with a finger space for a timed
duration, count the gems that fell off (and, if you can, the gems in the centre space after the raft
springs back).  :func:`calibrate` fits the tilt parameters to those counts.

The likelihood is exact under the model: given the timing node the gems' fates are independent, so the
joint pmf of (gems fallen, gems in the centre after release) is a dynamic programme over the gems,
mixed over the timing nodes (:mod:`.physics`).  Aggregated data (a mean count over several tilts) enter
through the normal approximation of the sample mean with the model's exact mean and variance.  The
optimum is found with ``scipy.optimize.minimize`` on transformed parameters (log for rates and the
timing noise, logit for probabilities); uncertainty comes from the observed information (the inverse
numerical Hessian, transformed back by the delta method, CIs transformed back from the fitted scale) or,
with ``bootstrap=B``, from a parametric bootstrap (refits to ``B`` synthetic data sets from the fitted
model with the same design, drawn with spawned generators).  A goodness-of-fit table compares the
observed and fitted mean count per condition (jamming at the gaps, which the model leaves out, would
show as misfit on the long tilts).

Examples
--------
>>> from pyradice_lab.raft.calibration import simulate_observations, calibrate, default_design
>>> obs = simulate_observations(default_design(), tilts=8, rng=1)
>>> sorted(obs.columns)
['centre_after', 'duration', 'edge', 'fallen', 'finger', 'start']
>>> res = calibrate(obs, fit=["slide_rate", "drop_rate"])
>>> res.table["parameter"].tolist()[:2], bool(res.converged)
(['slide_rate', 'drop_rate'], True)
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize
from scipy.special import gammaln, ndtri

from ..engine.rng import as_generator, spawn
from .components import RaftGeometry, coerce_components, default_components
from .physics import FALLEN, FITTED, TiltParams, _fate_table_cached, check_duration, check_edge, coerce_params

__all__ = ["calibrate", "Calibration", "simulate_observations", "default_design", "standard_start", "loglik"]

_LOG = ("slide_rate", "drop_rate", "wall_spread", "timing_noise")
_LOGIT = ("finger_skew", "recentre")
_EPS = 1e-6


def _whole(v, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (numbers.Integral, np.integer, float, np.floating)) or \
            not float(v).is_integer():
        raise ValueError(f"{name} must hold whole gem counts, got {v!r}")
    return int(v)


def standard_start(gems: int = 27) -> tuple[int, ...]:
    """A measurable layout: one gem on each outer space, the rest in the centre."""
    from .components import MAX_GEMS

    if isinstance(gems, bool) or not isinstance(gems, numbers.Integral) or not 8 <= gems <= MAX_GEMS:
        raise ValueError(f"gems must be an integer in 8..{MAX_GEMS}, got {gems!r}")
    return (1, 1, 1, 1, int(gems) - 8, 1, 1, 1, 1)


def default_design(durations=(0.5, 1.0, 2.0, 3.0), edges=("north", "east")) -> pd.DataFrame:
    """A calibration design: every finger space of ``edges`` at each duration, from :func:`standard_start`."""
    geom = default_components().raft
    rows = [{"edge": e, "finger": f, "duration": float(d), "start": standard_start()}
            for e in edges for f in geom.fingers[check_edge(e)] for d in durations]
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Calibration:
    """Fitted tilt parameters with their uncertainty.

    ``params`` is the fitted :class:`TiltParams`; ``table`` one row per parameter (value, se, 95% CI,
    whether it was fitted, the method); ``goodness`` observed vs fitted mean count per condition.
    ``converged`` is True only for a usable fit: the optimiser converged, the data have at least as many
    distinct tilt conditions as fitted parameters, and every fitted parameter is identified (finite standard
    error); ``message`` says which of these failed.
    """

    params: TiltParams
    table: pd.DataFrame
    goodness: pd.DataFrame
    loglik: float
    n_obs: int
    converged: bool
    message: str
    cov: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()


# ----------------------------------------------------------------------------------------- data
def _prepare(observations, geometry: RaftGeometry, comp=None) -> pd.DataFrame:
    comp = comp if comp is not None else default_components()
    if isinstance(observations, pd.DataFrame):
        df = observations.copy()
    else:
        try:
            df = pd.DataFrame(list(observations))
        except Exception as exc:  # noqa: BLE001
            raise ValueError("observations must be a DataFrame or a list of dicts") from exc
    if df.empty:
        raise ValueError("observations must not be empty")
    for col in ("edge", "duration"):
        if col not in df:
            raise ValueError(f"observations must have a column {col!r}")
    colours = [c for c in comp.gems.colours if c in df]
    if "fallen" not in df and colours:
        df["fallen"] = df[colours].sum(axis=1)
    if "fallen" not in df and "mean_fallen" not in df:
        raise ValueError("observations must give 'fallen' per tilt (or per-colour counts), or 'mean_fallen' with "
                         "'tilts'")
    df["edge"] = [check_edge(e) for e in df["edge"]]
    for col in ("fallen", "mean_fallen", "tilts", "centre_after"):
        if col in df:
            ok = df[col].map(lambda v: v is None or (isinstance(v, numbers.Real) and not isinstance(v, bool)))
            if not ok.all():
                raise ValueError(f"observations.{col} must be numbers, got {df[col][~ok].tolist()[:3]!r}")
            df[col] = df[col].astype(float)
    usable = df["fallen"].notna() if "fallen" in df else pd.Series(False, index=df.index)
    if "mean_fallen" in df:
        usable |= df["mean_fallen"].notna()
    if not usable.any():
        raise ValueError("observations: every fallen / mean_fallen value is missing (NaN); nothing to fit")
    if "finger" not in df:
        df["finger"] = "centre"
    df["finger"] = [geometry.finger_index(e, f) for e, f in zip(df["edge"], df["finger"])]
    lim = TiltParams(max_duration=600.0)
    df["duration"] = [check_duration(d, lim, "observations.duration") for d in df["duration"]]
    if "start" not in df:
        gems = df["gems"] if "gems" in df else pd.Series(comp.gems.total, index=df.index)
        df["start"] = [standard_start(_whole(g, "observations.gems")) for g in gems]
    starts = []
    for s in df["start"]:
        arr = np.asarray(s)
        if arr.shape != (9,) or not np.issubdtype(arr.dtype, np.integer) or (arr < 0).any():
            raise ValueError(f"observations.start must be 9 non-negative gem counts (one per space), got {s!r}")
        starts.append(tuple(int(x) for x in arr))
    df["start"] = starts
    total = np.array([sum(s) for s in starts])
    if (total > comp.gems.total).any():
        raise ValueError(f"observations.start (or gems) holds {int(total.max())} gems, more than the {comp.gems.total} of "
                         f"the components' gem set (gems.total; pass components= for a larger set)")
    if "fallen" in df:
        per = df["fallen"].notna()
        f = df.loc[per, "fallen"].to_numpy()
        if (f < 0).any() or (f != np.round(f)).any() or (f > total[per.to_numpy()]).any():
            raise ValueError("observations.fallen must be whole counts between 0 and the gems on the raft")
    if "centre_after" in df:
        c = df["centre_after"]
        ok = c.isna() | ((c >= 0) & (c == c.round()))
        if not ok.all() or ((df.get("fallen", 0) + c.fillna(0)) > total).any():
            raise ValueError("observations.centre_after must be whole counts, fallen + centre_after <= gems")
    if "mean_fallen" in df:
        agg = df["mean_fallen"].notna()
        if "tilts" not in df or (df.loc[agg, "tilts"] < 1).any():
            raise ValueError("observations with 'mean_fallen' need 'tilts' >= 1 (how many tilts were averaged)")
    return df


def _identifiable(df: pd.DataFrame, geometry: RaftGeometry) -> list[str]:
    names = ["slide_rate", "drop_rate", "timing_noise"]
    off = [geometry.finger_offsets[e][f] != 0 for e, f in zip(df["edge"], df["finger"])]
    if any(off):
        names.insert(2, "finger_skew")
    # spreading along the lowered wall shows when that wall has both a gap and a solid segment
    if any(0 in geometry.openings[e] and max(geometry.openings[e]) > 0 for e in set(df["edge"])):
        names.insert(-1, "wall_spread")
    if "centre_after" in df and df["centre_after"].notna().any():
        names.insert(-1, "recentre")
    return names


# ----------------------------------------------------------------------------------------- likelihood
def _to_params(theta, names, base: TiltParams) -> TiltParams:
    vals = {}
    for n, t in zip(names, theta):
        if n in _LOG:
            vals[n] = float(np.clip(np.exp(min(max(t, -50.0), 50.0)), _EPS, 49.0 if n != "timing_noise" else 1.99))
        else:
            vals[n] = float(np.clip(1.0 / (1.0 + np.exp(-min(max(t, -50.0), 50.0))), 0.0, 1.0))
    return base.replace(**vals)


def _to_theta(params: TiltParams, names) -> np.ndarray:
    out = []
    for n in names:
        v = getattr(params, n)
        if n in _LOG:
            out.append(np.log(max(v, 1e-3)))
        else:
            v = min(max(v, 1e-3), 1 - 1e-3)
            out.append(np.log(v / (1 - v)))
    return np.array(out)


def _joint_pmf(start, fates, with_centre: bool) -> np.ndarray:
    """(J, G+1[, G+1]) pmf of fallen (and centre-after) counts given each timing node."""
    pf = fates[:, :, FALLEN]
    pc = fates[:, :, 4]
    g = int(sum(start))
    j = fates.shape[0]
    # the fullest space (the centre of a standard start) in closed form: its gems are i.i.d., so their
    # counts are multinomial (binomial without the centre); the other spaces gem by gem
    big = int(np.argmax(start))
    m = int(start[big])
    a, c = pf[:, big], pc[:, big]
    i = np.arange(m + 1)
    if with_centre:
        o = np.clip(1.0 - a - c, 0.0, None)
        k = i[:, None] + i[None, :]
        coef = np.where(k <= m, np.exp(gammaln(m + 1) - gammaln(i[:, None] + 1) - gammaln(i[None, :] + 1)
                                       - gammaln(np.maximum(m - k, 0) + 1)), 0.0)
        dp = np.zeros((j, g + 1, g + 1))
        dp[:, :m + 1, :m + 1] = (coef * a[:, None, None] ** i[:, None] * c[:, None, None] ** i[None, :]
                                 * o[:, None, None] ** np.maximum(m - k, 0))
    else:
        coef = np.exp(gammaln(m + 1) - gammaln(i + 1) - gammaln(m - i + 1))
        dp = np.zeros((j, g + 1))
        dp[:, :m + 1] = coef * a[:, None] ** i * (1.0 - a[:, None]) ** (m - i)
    for s, m in enumerate(start):
        if s == big:
            continue
        a, c = pf[:, s], pc[:, s]
        o = 1.0 - a - (c if with_centre else 0.0)
        for _ in range(int(m)):
            if with_centre:
                new = dp * o[:, None, None]
                new[:, 1:, :] += dp[:, :-1, :] * a[:, None, None]
                new[:, :, 1:] += dp[:, :, :-1] * c[:, None, None]
            else:
                new = dp * o[:, None]
                new[:, 1:] += dp[:, :-1] * a[:, None]
            dp = new
    return np.clip(dp, 0.0, None)


def _negloglik(params: TiltParams, groups, geometry: RaftGeometry) -> float:
    pkey = params.key()
    total = 0.0
    for (start, edge, finger, duration), data in groups:
        offset = float(geometry.finger_offsets[edge][finger])
        w, fates = _fate_table_cached.__wrapped__(edge, tuple(geometry.openings[edge]), offset, duration, pkey)
        g = int(sum(start))
        per, cen, agg = data
        if len(per):
            if cen is not None:
                pmf = np.tensordot(w, _joint_pmf(start, fates, True), axes=1)
                both = ~np.isnan(cen)
                if both.any():
                    total -= np.log(np.maximum(pmf[per[both].astype(int), cen[both].astype(int)], 1e-300)).sum()
                if (~both).any():
                    marg = pmf.sum(axis=1)
                    total -= np.log(np.maximum(marg[per[~both].astype(int)], 1e-300)).sum()
            else:
                pmf = np.tensordot(w, _joint_pmf(start, fates, False), axes=1)
                total -= np.log(np.maximum(pmf[per.astype(int)], 1e-300)).sum()
        if len(agg):
            pmf = np.tensordot(w, _joint_pmf(start, fates, False), axes=1)
            k = np.arange(g + 1)
            mean = pmf @ k
            var = max(pmf @ k**2 - mean**2, 1e-9)
            means, tilts = agg[:, 0], agg[:, 1]
            sd = np.sqrt(var / tilts)
            total -= (-0.5 * ((means - mean) / sd) ** 2 - np.log(sd) - 0.5 * np.log(2 * np.pi)).sum()
    return float(total)


def _groups(df: pd.DataFrame):
    out = []
    for key, sub in df.groupby(["start", "edge", "finger", "duration"], sort=True):
        per_rows = sub[sub["fallen"].notna()] if "fallen" in sub else sub.iloc[0:0]
        per = per_rows["fallen"].to_numpy(dtype=float) if len(per_rows) else np.zeros(0)
        cen = per_rows["centre_after"].to_numpy(dtype=float) if "centre_after" in per_rows and len(per_rows) else None
        if cen is not None and np.isnan(cen).all():
            cen = None
        agg = np.zeros((0, 2))
        if "mean_fallen" in sub:
            a = sub[sub["mean_fallen"].notna()]
            agg = a[["mean_fallen", "tilts"]].to_numpy(dtype=float)
        out.append((key, (per, cen, agg)))
    return out


def _hessian(f, x, h=1e-3) -> np.ndarray:
    n = len(x)
    hm = np.zeros((n, n))
    f0 = f(x)
    for i in range(n):
        ei = np.zeros(n)
        ei[i] = h
        hm[i, i] = (f(x + ei) - 2 * f0 + f(x - ei)) / h**2
        for j in range(i):
            ej = np.zeros(n)
            ej[j] = h
            v = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej) + f(x - ei - ej)) / (4 * h * h)
            hm[i, j] = hm[j, i] = v
    return hm


def _fit(groups, names, base, geometry, x0):
    def obj(theta):
        return _negloglik(_to_params(theta, names, base), groups, geometry)

    bounds = [(np.log(1e-3), np.log(49.0)) if n in _LOG else (-9.0, 9.0) for n in names]
    res = optimize.minimize(obj, x0, method="L-BFGS-B", bounds=bounds,
                            options={"maxiter": 500, "ftol": 1e-12, "gtol": 1e-7})
    return res, obj


# ----------------------------------------------------------------------------------------- public
def calibrate(observations, *, rng=None, fit: Sequence[str] | None = None, start=None, bootstrap: int = 0,
              geometry: RaftGeometry | None = None, components=None) -> Calibration:
    """Fit the tilt model's parameters to measured tilts.

    Parameters
    ----------
    observations : DataFrame or list of dicts
        One row per tilt: ``edge``, ``finger`` (default ``"centre"``), ``duration`` (seconds),
        ``fallen`` (gems that fell; or per-colour columns ``red``..``black`` that are summed), optional
        ``centre_after`` (gems in the centre space after release) and ``start`` (9 gem counts, one per
        space; default one gem on each outer space and the rest - ``gems``, default 27 - in the centre).
        Or aggregated rows: ``mean_fallen`` with ``tilts`` (the number of tilts averaged).
    rng : seed or Generator, optional
        Used only by the parametric bootstrap.
    fit : list of str, optional
        Parameters to fit (default: those the data can identify: the rates and the timing noise;
        ``finger_skew`` if off-centre finger spaces were used; ``wall_spread`` if a lowered edge has both
        a gap and a solid wall segment; ``recentre`` if ``centre_after`` was counted).  The others keep their values from ``start``.
    start : TiltParams or dict, optional
        Starting values (default: the packaged defaults).
    bootstrap : int
        Number of parametric-bootstrap refits (0: observed information only).
    geometry, components : optional
        The raft measured: its geometry, and the components (a path or loaded components) whose gem set bounds
        the gems on the raft (default: the packaged components, 27 gems).

    Returns
    -------
    Calibration

    Raises
    ------
    ValueError
        If ``observations`` lacks the needed columns or holds an unknown edge/finger or an impossible count,
        ``fit`` is not distinct names of fitted parameters, or ``bootstrap`` is not a non-negative integer.

    Examples
    --------
    >>> obs = [{"edge": "north", "duration": d, "fallen": f} for d, f in [(0.5, 2), (1.0, 5), (2.0, 9), (3.0, 13)]]
    >>> res = calibrate(obs, fit=["drop_rate"])
    >>> 0 < res.params.drop_rate < 50
    True
    """
    comp = coerce_components(components)
    geometry = geometry if geometry is not None else comp.raft
    base = coerce_params(start)
    df = _prepare(observations, geometry, comp)
    names = list(fit) if fit is not None else _identifiable(df, geometry)
    unknown = set(names) - set(FITTED)
    if unknown or not names or len(set(names)) != len(names):
        raise ValueError(f"fit must be distinct names among {list(FITTED)}, got {fit!r}")
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, numbers.Integral) or bootstrap < 0:
        raise ValueError(f"bootstrap must be a non-negative integer, got {bootstrap!r}")
    groups = _groups(df)
    res, obj = _fit(groups, names, base, geometry, _to_theta(base, names))
    theta = res.x
    fitted = _to_params(theta, names, base)
    hess = _hessian(obj, theta)
    try:
        cov = np.linalg.inv(hess)
        if np.any(np.diag(cov) <= 0):
            raise np.linalg.LinAlgError
    except np.linalg.LinAlgError:
        cov = np.full((len(names), len(names)), np.nan)
    z = float(ndtri(0.975))
    rows = []
    boot = None
    if bootstrap:
        boot = _bootstrap(df, names, fitted, geometry, theta, bootstrap, rng, comp)
    for i, n in enumerate(names):
        se_t = float(np.sqrt(cov[i, i])) if np.isfinite(cov[i, i]) else np.nan
        v = getattr(fitted, n)
        deriv = v if n in _LOG else v * (1 - v)
        lo_p = _to_params(theta - z * np.nan_to_num(se_t, nan=np.inf) * np.eye(len(names))[i], names, base)
        hi_p = _to_params(theta + z * np.nan_to_num(se_t, nan=np.inf) * np.eye(len(names))[i], names, base)
        row = {"parameter": n, "value": v, "se": deriv * se_t, "ci_low": getattr(lo_p, n) if np.isfinite(se_t) else np.nan,
               "ci_high": getattr(hi_p, n) if np.isfinite(se_t) else np.nan, "fitted": True,
               "method": "observed information"}
        if boot is not None:
            vals = boot[:, i]
            row.update({"se": float(np.std(vals, ddof=1)), "ci_low": float(np.quantile(vals, 0.025)),
                        "ci_high": float(np.quantile(vals, 0.975)), "method": f"parametric bootstrap (B={bootstrap})"})
        rows.append(row)
    for n in FITTED + ("spill",):
        if n not in names:
            rows.append({"parameter": n, "value": getattr(fitted, n), "se": np.nan, "ci_low": np.nan,
                         "ci_high": np.nan, "fitted": False, "method": "fixed"})
    table = pd.DataFrame(rows)
    converged, message = _verdict(res, cov, names, len(groups))
    return Calibration(fitted, table, _goodness(groups, fitted, geometry), -float(res.fun), len(df),
                       converged, message, cov)


def _verdict(res, cov: np.ndarray, names, n_conditions: int) -> tuple[bool, str]:
    """Whether a fit is usable, and why not: the optimiser must succeed, the data must have at least as many
    distinct tilt conditions (start, edge, finger, duration) as fitted parameters, and the observed information
    must be invertible (otherwise a parameter is not identified by these data and its value is arbitrary)."""
    if not res.success:
        return False, f"optimiser did not converge: {res.message}"
    if n_conditions < len(names):
        return False, (f"not identifiable: {len(names)} parameters ({', '.join(names)}) from {n_conditions} distinct "
                       f"tilt condition(s); measure more durations/edges or fit fewer (fit=[...])")
    if not np.all(np.isfinite(np.diag(cov))):
        return False, ("not identifiable: the observed information is singular (a fitted parameter does not "
                       "change the likelihood of these data); fit fewer parameters (fit=[...])")
    return True, str(res.message)


def loglik(observations, params=None, *, geometry: RaftGeometry | None = None, components=None) -> float:
    """The log-likelihood of measured tilts under the tilt model with ``params`` (the function
    :func:`calibrate` maximises), e.g. to test given parameters against a fit: twice the difference to
    ``Calibration.loglik`` is a likelihood-ratio statistic (chi-square with as many degrees of freedom as
    parameters fitted, for large samples)."""
    comp = coerce_components(components)
    geometry = geometry if geometry is not None else comp.raft
    return -_negloglik(coerce_params(params), _groups(_prepare(observations, geometry, comp)), geometry)


def _goodness(groups, params: TiltParams, geometry: RaftGeometry) -> pd.DataFrame:
    rows = []
    for (start, edge, finger, duration), (per, _cen, agg) in groups:
        w, fates = _fate_table_cached.__wrapped__(edge, tuple(geometry.openings[edge]),
                                                  float(geometry.finger_offsets[edge][finger]), duration, params.key())
        pmf = np.tensordot(w, _joint_pmf(start, fates, False), axes=1)
        k = np.arange(len(pmf))
        mean, sd = pmf @ k, np.sqrt(max(pmf @ k**2 - (pmf @ k) ** 2, 0))
        n = len(per) + (agg[:, 1].sum() if len(agg) else 0)
        obs_sum = per.sum() + ((agg[:, 0] * agg[:, 1]).sum() if len(agg) else 0)
        obs = obs_sum / n if n else np.nan
        se = sd / np.sqrt(n) if n else np.nan
        rows.append({"edge": edge, "finger": geometry.fingers[edge][finger], "duration": duration, "tilts": int(n),
                     "observed_mean": obs, "model_mean": mean, "model_se": se,
                     "z": (obs - mean) / se if se and se > 0 else np.nan})
    return pd.DataFrame(rows)


def _bootstrap(df, names, fitted, geometry, theta, b, rng, comp=None) -> np.ndarray:
    gens = spawn(as_generator(rng), b)
    out = np.empty((b, len(names)))
    design = df.drop(columns=[c for c in ("fallen", "centre_after", "mean_fallen") if c in df])
    for i, g in enumerate(gens):
        synth = _simulate_rows(design, df, fitted, geometry, g, comp)
        groups = _groups(synth)
        res, _ = _fit(groups, names, fitted, geometry, theta)
        p = _to_params(res.x, names, fitted)
        out[i] = [getattr(p, n) for n in names]
    return out


def _state(start, comp=None) -> np.ndarray:
    """A (9, colours) raft with ``start[s]`` gems on space ``s``; colours (irrelevant to the physics) are
    filled in order within the component counts."""
    caps = np.array((comp if comp is not None else default_components()).gems.counts, dtype=np.int64)
    if sum(start) > caps.sum():
        raise ValueError(f"start holds {sum(start)} gems, more than the {caps.sum()} of the gem set")
    state = np.zeros((9, len(caps)), dtype=np.int64)
    c = 0
    for s, m in enumerate(start):
        for _ in range(int(m)):
            while caps[c] == 0:
                c += 1
            state[s, c] += 1
            caps[c] -= 1
    return state


def _simulate_rows(design, original, params, geometry, gen, comp=None) -> pd.DataFrame:
    from .tilting import tilt

    rows = []
    for idx, r in design.iterrows():
        state = _state(r["start"], comp)
        finger = int(r["finger"]) if not isinstance(r["finger"], str) else r["finger"]
        agg = "mean_fallen" in original and pd.notna(original.loc[idx, "mean_fallen"])
        n = int(original.loc[idx, "tilts"]) if agg else 1
        res = tilt(state, r["edge"], finger, float(r["duration"]), n=n, rng=gen, params=params, geometry=geometry,
                   components=comp)
        row = {k: r[k] for k in ("edge", "finger", "duration", "start")}
        if agg:
            row.update({"mean_fallen": float(res.fallen.sum(axis=1).mean()), "tilts": n})
        else:
            row["fallen"] = int(res.fallen[0].sum())
            if "centre_after" in original and pd.notna(original.loc[idx, "centre_after"]):
                row["centre_after"] = int(res.states[0, 4].sum())
        rows.append(row)
    return pd.DataFrame(rows)


def simulate_observations(design, params=None, *, tilts: int = 30, rng=None, centre: bool = True,
                          geometry: RaftGeometry | None = None) -> pd.DataFrame:
    """Synthetic measured tilts from the model: ``tilts`` tilts per row of ``design``.

    Used to test :func:`calibrate` and to plan how many real tilts a designer needs (numpy sampler, no
    compilation).

    Parameters
    ----------
    design : DataFrame or list of dict
        One row per tilt setting: ``edge``, ``finger``, ``duration`` (seconds) and optionally ``start`` (gems
        per space, default :func:`standard_start`).
    params : TiltParams or dict, optional
        The model's parameters (default ``data/tilt.toml``).
    tilts : int
        Tilts per row of ``design``, >= 1.
    rng : seed or Generator, optional
        Row ``i`` draws from the ``i``-th spawned child.
    centre : bool
        Add ``centre_after`` (gems left in the centre space).
    geometry : RaftGeometry, optional
        The raft (default: the packaged one).

    Returns
    -------
    pandas.DataFrame
        One row per tilt: ``edge``, ``finger``, ``duration``, ``start``, ``fallen`` (gems that fell) and, with
        ``centre=True``, ``centre_after``.

    Raises
    ------
    ValueError
        If ``tilts`` is not a positive integer, or ``design`` is empty, not a table, or lacks ``edge``,
        ``finger`` or ``duration`` (or holds an unknown edge, finger or a duration out of range).

    Examples
    --------
    >>> obs = simulate_observations([{"edge": "north", "finger": "centre", "duration": 1.0}], tilts=50, rng=1)
    >>> obs.shape, list(obs.columns)
    ((50, 6), ['edge', 'finger', 'duration', 'start', 'fallen', 'centre_after'])
    """
    from .physics import fate_table
    from .sampling import cumulative_tables, sample_batch

    geometry = geometry if geometry is not None else default_components().raft
    params = coerce_params(params)
    if isinstance(tilts, bool) or not isinstance(tilts, numbers.Integral) or tilts < 1:
        raise ValueError(f"tilts must be a positive integer, got {tilts!r}")
    try:
        design = pd.DataFrame(design)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"design must be a DataFrame or a list of dicts (edge, finger, duration), got {exc}") from None
    missing = [c for c in ("edge", "finger", "duration") if c not in design]
    if missing or design.empty:
        raise ValueError(f"design must have rows with columns edge, finger, duration (start optional); "
                         f"missing {missing}" if missing else "design must have at least one row")
    gens = spawn(as_generator(rng), len(design))
    rows = []
    for (_, r), g in zip(design.iterrows(), gens):
        start = tuple(r["start"]) if "start" in r and r["start"] is not None else standard_start()
        state = _state(start)
        cumw, cumf = cumulative_tables(*fate_table(r["edge"], r["finger"], float(r["duration"]), params, geometry))
        fallen, after = sample_batch(g.random(tilts), g.random((tilts, int(state.sum()))),
                                     np.broadcast_to(state, (tilts,) + state.shape),
                                     np.broadcast_to(cumw, (tilts,) + cumw.shape),
                                     np.broadcast_to(cumf, (tilts,) + cumf.shape))
        for f, c in zip(fallen.sum(axis=1), after[:, 4].sum(axis=1)):
            row = {"edge": r["edge"], "finger": r["finger"], "duration": float(r["duration"]), "start": start,
                   "fallen": int(f)}
            if centre:
                row["centre_after"] = int(c)
            rows.append(row)
    return pd.DataFrame(rows)
