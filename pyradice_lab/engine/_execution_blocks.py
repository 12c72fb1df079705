"""Stored blocks of :mod:`pyradice_lab.engine.execution`: the plain encoding of a block's result (numbers,
strings, arrays, frames; never a pickle) and the finished blocks in a cache directory (re-exported by
:mod:`pyradice_lab.engine.execution`).
"""

from __future__ import annotations

import base64
import dataclasses
import importlib.util
import json
import numbers
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

_BLOCK_FORMAT = "pyradice_lab.engine.execution/1"


_MAX_BLOCK_FILE = 256 << 20  # bytes: a block file holds at most a few thousand games' rows


# --------------------------------------------------------------------------------------------- stored blocks
def encode(obj):
    """A JSON-able, exact description of a block's result: numbers, strings, lists, tuples, dicts, numpy
    arrays (their bytes), pandas frames and series (their columns and attrs); :func:`decode` rebuilds it.

    Examples
    --------
    >>> import numpy as np
    >>> x = {"a": np.arange(3.0) / 3, "b": ("x", 1)}
    >>> y = decode(encode(x))
    >>> bool((y["a"] == x["a"]).all()), y["b"]
    (True, ('x', 1))
    """
    import pandas as pd

    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, numbers.Integral) and not isinstance(obj, np.generic):
        return int(obj)
    if isinstance(obj, float):
        return {"f": obj.hex()}
    if isinstance(obj, np.generic):
        return {"s": encode(np.asarray(obj))}
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "biufcmM":
            # the memory order is kept (a sum over an axis adds in memory order: its last bits depend on it)
            order = "F" if obj.ndim > 1 and obj.flags.f_contiguous and not obj.flags.c_contiguous else "C"
            out = {"nd": obj.dtype.str, "shape": list(obj.shape), "b": base64.b64encode(obj.tobytes(order)).decode()}
            if order == "F":
                out["order"] = "F"
            return out
        if obj.dtype.kind == "U":
            return {"ndU": obj.tolist(), "dtype": obj.dtype.str}
        return {"ndO": [encode(v) for v in obj.ravel().tolist()], "shape": list(obj.shape)}
    if isinstance(obj, pd.DataFrame):
        if not isinstance(obj.index, pd.RangeIndex) or obj.index.start != 0 or obj.index.step != 1:
            raise TypeError("only frames with a default index are stored")
        return {"df": [[encode(c), _encode_column(obj[c])] for c in obj.columns], "n": len(obj),
                "attrs": encode(dict(obj.attrs))}
    if isinstance(obj, pd.Series):
        return {"series": _encode_column(obj), "name": encode(obj.name)}
    if isinstance(obj, tuple):
        return {"t": [encode(v) for v in obj]}
    if isinstance(obj, list):
        return [encode(v) for v in obj]
    if isinstance(obj, dict):
        return {"d": [[encode(k), encode(v)] for k, v in obj.items()]}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type) and type(obj).__module__.startswith("pyradice_lab"):
        return {"dc": f"{type(obj).__module__}:{type(obj).__qualname__}",
                "f": [[f.name, encode(getattr(obj, f.name))] for f in dataclasses.fields(obj) if f.init]}
    raise TypeError(f"cannot store a {type(obj).__name__} in a block file")


def _encode_column(s):
    import pandas as pd

    if isinstance(s.dtype, pd.CategoricalDtype):
        return {"cat": encode(np.asarray(s.cat.categories)), "codes": encode(s.cat.codes.to_numpy()),
                "ordered": bool(s.cat.ordered)}
    if isinstance(s.dtype, np.dtype) and s.dtype.kind in "biufcmM":
        return {"a": encode(s.to_numpy())}
    return {"o": [encode(v) for v in s.tolist()], "dtype": str(s.dtype)}


def _decode_column(c, n=None):
    import pandas as pd

    if "cat" in c:
        return pd.Categorical.from_codes(decode(c["codes"]), categories=decode(c["cat"]), ordered=c["ordered"])
    if "a" in c:
        return decode(c["a"])
    values = [decode(v) for v in c["o"]]
    if c["dtype"] == "object":
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return pd.array(values, dtype=c["dtype"])


def decode(data):
    """The object :func:`encode` described."""
    import pandas as pd

    if data is None or isinstance(data, (bool, str, int)):
        return data
    if isinstance(data, list):
        return [decode(v) for v in data]
    if "f" in data and len(data) == 1:
        return float.fromhex(data["f"])
    if "s" in data:
        return decode(data["s"])[()]
    if "nd" in data:
        raw = base64.b64decode(data["b"].encode(), validate=True)
        order = data.get("order", "C")
        return np.frombuffer(raw, dtype=np.dtype(data["nd"])).reshape(data["shape"], order=order).copy(order=order)
    if "ndU" in data:
        return np.array(data["ndU"], dtype=np.dtype(data["dtype"]))
    if "ndO" in data:
        out = np.empty(len(data["ndO"]), dtype=object)
        out[:] = [decode(v) for v in data["ndO"]]
        return out.reshape(data["shape"])
    if "df" in data:
        df = pd.DataFrame({decode(k): _decode_column(c) for k, c in data["df"]}, index=pd.RangeIndex(data["n"]))
        df.attrs.update(decode(data["attrs"]))
        return df
    if "series" in data:
        return pd.Series(_decode_column(data["series"]), name=decode(data["name"]))
    if "t" in data:
        return tuple(decode(v) for v in data["t"])
    if "d" in data:
        return {decode(k): decode(v) for k, v in data["d"]}
    if "dc" in data:
        module, name = data["dc"].split(":")
        if not module.startswith("pyradice_lab."):
            raise ValueError(f"not a pyradice_lab type: {module}")
        cls = importlib.import_module(module)
        for part in name.split("."):
            cls = getattr(cls, part)
        if not dataclasses.is_dataclass(cls):
            raise ValueError(f"{data['dc']} is not a dataclass")
        return cls(**{k: decode(v) for k, v in data["f"]})
    raise ValueError("not a stored block")


class _Blocks:
    """Finished blocks in a cache directory (the sweep cache's signed atomic files)."""

    def __init__(self, folder: Path, fn, keys: Sequence, code: Sequence = ()):
        from ._version import __version__
        from .sweep import _Cache, _canonical, _code_fingerprint, _fn_id, _sha, _source_hash

        self.cache = _Cache(folder)
        self.cache.max_bytes = _MAX_BLOCK_FILE
        fn_id = _fn_id(fn)
        # the block function's code and the code it reaches by name (a game's simulation through the registry)
        self.provenance = {"version": __version__, "source": _source_hash(fn),
                           "code": [_code_fingerprint(f) for f in (fn, *code)]}
        self.names = [_sha(json.dumps({"format": _BLOCK_FORMAT, "fn": fn_id, "key": _canonical(k)}, sort_keys=True))
                      for k in keys]

    def read(self, i: int):
        got = self.cache.read(self.names[i], self.provenance)
        if got is None:
            return False, None
        try:
            return True, decode(json.loads(zlib.decompress(base64.b64decode(got["block"].encode(), validate=True))))
        except Exception as exc:  # noqa: BLE001 - an undecodable block is recomputed
            self.cache.note(f"could not be decoded ({type(exc).__name__})", self.names[i])
            return False, None

    def write(self, i: int, result) -> None:
        try:
            text = json.dumps(encode(result), separators=(",", ":"))
        except TypeError:
            return  # a result this format cannot hold is simply not stored
        data = base64.b64encode(zlib.compress(text.encode(), 6)).decode()
        self.cache.write(self.names[i], self.provenance, {"block": data})

    def close(self) -> None:
        self.cache.warn()
