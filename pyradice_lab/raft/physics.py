"""The stochastic tilt model: named, physical parameters and the one declaration of a tilt's chance outcomes.

While the raft is tilted every gem moves on its own as a continuous-time Markov chain over the nine
spaces plus "fallen off": it slides one space toward the lowered edge at ``slide_rate`` per second,
drops out through a gap of width ``w`` in the lowered edge at ``drop_rate * w`` per second, and when the
player presses an off-centre finger space (offset ``x`` in -1..1) it also drifts sideways toward that
side at ``finger_skew * |x| * slide_rate``.  A gem against the lowered wall also moves along it to each
neighbouring space at ``wall_spread`` per second (crowding and jostling), so a gem in a corner with a solid
wall can still reach a gap on a long tilt.  On release each gem left on the raft that moved during the tilt
rolls back to the centre with probability ``recentre``; a gem that never left its space stays there (so a
tilt of 0 s changes nothing, and the chance that anything changes grows with the duration).  The executed tilt lasts ``duration * exp(timing_noise * Z)``; ``Z`` is a
standard normal discretised by Gauss-Hermite quadrature (``noise_nodes`` points), and this *discrete*
distribution is the model: the sampler (:mod:`.tilting`), the exact pmfs (:mod:`.odds`) and the likelihood of
:func:`~pyradice_lab.raft.calibration.calibrate` all read :func:`fate_table`, so they cannot drift apart.

Assumption (documented limitation): gems do not jam each other at a gap, so given the executed
duration the gems' fates are independent.  That makes exact likelihoods possible; a designer's data
can show whether jamming matters (see the goodness-of-fit table of ``calibrate``).

Examples
--------
>>> from pyradice_lab.raft.physics import default_params, fate_table
>>> p = default_params()
>>> w, fates = fate_table("north", "centre", 1.0, p)
>>> fates.shape, round(float(w.sum()), 12)
((16, 9, 10), 1.0)
>>> bool((fates.sum(axis=2) - 1 < 1e-12).all())
True
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .components import CENTRE, DATA_DIR, EDGES, RaftGeometry, default_components

__all__ = ["TiltParams", "default_params", "FITTED", "fate_table", "noise_nodes", "generator_matrix",
           "fall_probabilities", "check_edge", "check_duration", "local_to_global", "FALLEN", "expm_batch"]

FALLEN = 9  # outcome index of "fell off the raft" (0..8 are the spaces after release)

#: the parameters :func:`~pyradice_lab.raft.calibration.calibrate` can fit (``spill`` is not seen in tilts)
FITTED = ("slide_rate", "drop_rate", "finger_skew", "wall_spread", "recentre", "timing_noise")

_BOUNDS = {
    "slide_rate": (0.0, 50.0, "per second"),
    "drop_rate": (0.0, 50.0, "per second"),
    "finger_skew": (0.0, 1.0, "fraction of slide_rate"),
    "wall_spread": (0.0, 50.0, "per second"),
    "recentre": (0.0, 1.0, "probability"),
    "timing_noise": (0.0, 2.0, "log-sd"),
    "spill": (0.0, 1.0, "probability"),
}


@dataclass(frozen=True)
class TiltParams:
    """Parameters of the tilt model (see the module docstring for their meaning and units).

    Examples
    --------
    >>> TiltParams(slide_rate=0.8).slide_rate
    0.8
    >>> TiltParams(recentre=1.5)
    Traceback (most recent call last):
    ...
    ValueError: recentre must be in [0.0, 1.0] (probability), got 1.5
    """

    slide_rate: float = 0.5
    drop_rate: float = 1.5
    finger_skew: float = 0.5
    wall_spread: float = 0.1
    recentre: float = 0.5
    timing_noise: float = 0.2
    spill: float = 0.25
    noise_nodes: int = 16
    max_duration: float = 30.0

    def __post_init__(self):
        for name, (lo, hi, unit) in _BOUNDS.items():
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or not lo <= v <= hi:
                raise ValueError(f"{name} must be in [{lo}, {hi}] ({unit}), got {v!r}")
            object.__setattr__(self, name, float(v))
        if isinstance(self.noise_nodes, bool) or not isinstance(self.noise_nodes, numbers.Integral) \
                or not 1 <= self.noise_nodes <= 64:
            raise ValueError(f"noise_nodes must be an integer in 1..64, got {self.noise_nodes!r}")
        if not isinstance(self.max_duration, numbers.Real) or not 0 < self.max_duration <= 600:
            raise ValueError(f"max_duration must be in (0, 600] seconds, got {self.max_duration!r}")

    def replace(self, **changes) -> TiltParams:
        """A copy with some parameters changed (validated)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise ValueError(f"params: unknown tilt parameters {sorted(unknown)}")
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    def key(self) -> tuple:
        return tuple(dataclasses.astuple(self))


def _tilt_spec():
    from ..engine.schema import Field, Float, Int, Source, Table

    tilt = {name: Field(Float(lo, hi), unit) for name, (lo, hi, unit) in _BOUNDS.items()}
    tilt["source"] = Field(Source(), "where the values come from")
    return Table({
        "tilt": Field(Table(tilt), "the tilt model's physical parameters"),
        "model": Field(Table({
            "noise_nodes": Field(Int(1, 64), "Gauss-Hermite nodes discretising the timing noise"),
            "max_duration": Field(Float(0.0, 600.0, lo_open=True), "longest tilt accepted (seconds)"),
            "source": Field(Source(), "where the values come from"),
        }), "numerical settings"),
    })


def load_params(path) -> TiltParams:
    """Tilt model parameters from a ``tilt.toml``-shaped file, validated at load (errors name file and key)."""
    from ..engine.schema import read_toml, validate

    doc = validate(_tilt_spec(), read_toml(path, what="path"), file=path)
    t, m = doc["tilt"], doc["model"]
    return TiltParams(**{k: v for k, v in t.items() if k != "source"},
                      noise_nodes=m["noise_nodes"], max_duration=m["max_duration"])


@lru_cache(maxsize=1)
def default_params() -> TiltParams:
    """The packaged defaults from ``data/tilt.toml``.

    Returns
    -------
    TiltParams
        The tilt model's parameters (cached: the same object on every call; change it with
        ``.replace(...)``, which returns a new one).

    Examples
    --------
    >>> p = default_params()
    >>> p.drop_rate, p.max_duration, p is default_params()
    (1.5, 30.0, True)
    """
    return load_params(DATA_DIR / "tilt.toml")


def coerce_params(params) -> TiltParams:
    """``None`` -> defaults; a TiltParams as is; a dict -> defaults with those values replaced."""
    if params is None:
        return default_params()
    if isinstance(params, TiltParams):
        return params
    if isinstance(params, dict):
        return default_params().replace(**params)
    raise TypeError(f"params must be None, a TiltParams or a dict, got {type(params).__name__}")


# ----------------------------------------------------------------------------------------- geometry
def check_edge(edge) -> str:
    """Validate an edge name (``north``/``east``/``south``/``west`` or ``n``/``e``/``s``/``w``)."""
    if isinstance(edge, str):
        e = edge.strip().lower()
        for full in EDGES:
            if e in (full, full[0]):
                return full
    raise ValueError(f"edge must be one of {list(EDGES)}, got {edge!r}")


def check_duration(duration, params: TiltParams, name: str = "duration") -> float:
    if isinstance(duration, bool) or not isinstance(duration, numbers.Real) or not np.isfinite(duration):
        raise ValueError(f"{name} must be a number of seconds in [0, {params.max_duration}], got {duration!r}")
    if not 0 <= duration <= params.max_duration:
        raise ValueError(f"{name} must be in [0, {params.max_duration}] seconds, got {duration!r}")
    return float(duration)


def local_to_global(edge: str) -> np.ndarray:
    """``perm[local] = global`` cell index; the local frame has the lowered edge as row 2 (nearest the
    player) and column 0 on the player's left."""
    perm = np.empty(9, dtype=np.int64)
    for r in range(3):
        for c in range(3):
            if edge == "south":
                g = (r, c)
            elif edge == "north":
                g = (2 - r, 2 - c)
            elif edge == "east":
                g = (2 - c, r)
            else:  # west
                g = (c, 2 - r)
            perm[3 * r + c] = 3 * g[0] + g[1]
    return perm


def generator_matrix(openings, offset: float, params: TiltParams) -> np.ndarray:
    """The 10x10 rate matrix in the local frame (states 0..8 spaces, 9 fallen)."""
    q = np.zeros((10, 10))
    side = params.finger_skew * abs(offset)
    step = 1 if offset > 0 else -1
    for r in range(3):
        for c in range(3):
            s = 3 * r + c
            if r < 2:
                q[s, s + 3] += params.slide_rate
            else:
                q[s, FALLEN] += params.drop_rate * openings[c]
                for nb in (c - 1, c + 1):  # along the lowered wall, both ways
                    if 0 <= nb <= 2:
                        q[s, s + nb - c] += params.wall_spread
            if side > 0 and 0 <= c + step <= 2:
                q[s, s + step] += side * params.slide_rate
            q[s, s] = -q[s].sum()
    return q


def noise_nodes(sigma: float, nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """``(factors, weights)``: the executed/intended duration ratios ``exp(sigma * z_j)`` and their
    probabilities (Gauss-Hermite discretisation of a standard normal ``z``; weights sum to 1)."""
    z, w = np.polynomial.hermite_e.hermegauss(int(nodes))
    w = w / w.sum()
    return np.exp(sigma * z), w


def expm_batch(a: np.ndarray) -> np.ndarray:
    """Matrix exponentials of a stack ``a`` (B, n, n): scaling and squaring with a degree-12 Taylor
    polynomial (scaled 1-norm <= 1/4, truncation error < 1e-17), vectorised over the stack.  Each matrix
    gets the same arithmetic whatever the size of the stack."""
    a = np.asarray(a, dtype=float)
    norms = np.abs(a).sum(axis=-2).max(axis=-1)
    s = np.zeros(len(a), dtype=np.int64)
    big = norms > 0.25
    s[big] = np.ceil(np.log2(norms[big] / 0.25)).astype(np.int64)
    x = a / np.ldexp(1.0, s)[:, None, None]
    eye = np.eye(a.shape[-1])
    r = eye + x / 12.0
    for k in range(11, 0, -1):
        r = eye + (x @ r) / k
    for k in range(int(s.max(initial=0))):
        m = s > k
        r[m] = r[m] @ r[m]
    return r


@lru_cache(maxsize=8192)
def _fate_table_cached(edge: str, openings: tuple, offset: float, duration: float, pkey: tuple):
    params = TiltParams(*pkey)
    factors, w = noise_nodes(params.timing_noise, params.noise_nodes)
    t = np.minimum(duration * factors, params.max_duration)
    q = generator_matrix(openings, offset, params)
    trans = expm_batch(q[None, :, :] * t[:, None, None])  # (J, 10, 10)
    rel = np.eye(10)
    for s in range(9):
        if s != CENTRE:
            rel[s, s] = 1.0 - params.recentre
            rel[s, CENTRE] = params.recentre
    local = trans @ rel
    # a gem that never left its space during the tilt (probability exp(q_ss t)) does not roll back on
    # release: only gems that moved may recentre, so a 0 s tilt changes nothing
    still = np.exp(np.diag(q)[None, :9] * t[:, None])  # (J, 9)
    for s in range(9):
        if s != CENTRE:
            local[:, s, s] += params.recentre * still[:, s]
            local[:, s, CENTRE] -= params.recentre * still[:, s]
    local = np.clip(local, 0.0, None)
    perm = local_to_global(edge)
    fates = np.empty((len(t), 9, 10))
    cols = np.append(perm, FALLEN)
    fates[:, perm[:, None], cols[None, :]] = local[:, :9, :]
    fates /= fates.sum(axis=2, keepdims=True)
    fates.setflags(write=False)
    w.setflags(write=False)
    return w, fates


def fate_table(edge, finger, duration, params: TiltParams | None = None, geometry: RaftGeometry | None = None):
    """The chance outcomes of one tilt, declared once.

    Returns ``(weights, fates)``: ``weights[j]`` is the probability of timing node ``j`` and
    ``fates[j, s, y]`` the probability that a gem starting on space ``s`` ends on space ``y`` (0..8)
    after release, or has fallen off (``y = 9``), given node ``j``.  Gems are independent given ``j``.
    """
    params = coerce_params(params)
    geometry = geometry if geometry is not None else default_components().raft
    edge = check_edge(edge)
    fi = geometry.finger_index(edge, finger)
    duration = check_duration(duration, params)
    return _fate_table_cached(edge, tuple(geometry.openings[edge]), float(geometry.finger_offsets[edge][fi]),
                              duration, params.key())


def fall_probabilities(edge, finger, duration, params: TiltParams | None = None,
                       geometry: RaftGeometry | None = None) -> np.ndarray:
    """Probability (averaged over the timing noise) that a gem on each of the 9 spaces falls off.

    >>> p = fall_probabilities("north", "centre", 1.0)   # the north wall has one gap, in its middle (cell 1)
    >>> bool(p[1] > p[4] > p[7] > 0), bool(p[1] > p[0] == p[2] > 0)   # corners reach it along the wall
    (True, True)
    """
    w, fates = fate_table(edge, finger, duration, params, geometry)
    return w @ fates[:, :, FALLEN]
