"""The web desk: what a game declares so the table companion page (:mod:`pyradice_lab.web`) can serve it.

A game's ``desk`` module declares ``DESK``, a :class:`Desk` subclass (or any factory returning a desk); the web
server builds one desk per registered game (``spec.part("desk")``) and routes ``GET /api/<game>/layout`` to
``desk.layout(query)`` and ``POST /api/<game>/advise`` to ``desk.advise(body)``.  A game imports this module
(never :mod:`pyradice_lab.web`): the refusals a desk raises are :class:`RequestError` (status 400 unless stated),
and the checks every desk shares (the body's fields, bounded integers, a choice among names) are here.

The protocol (what the server reads from a desk):

``name``, ``title``
    the game (filled in from the registry when left empty);
``layout(query) -> dict``
    what the page draws: the table's geometry and a ``position`` document (the format of the game's position
    files); ``query`` is the URL's query parameters (``desk.query`` lists the allowed ones);
``advise(body, gate=True) -> dict``
    the ranked options for the JSON object ``body`` (``position`` plus the game's options, ``desk.fields``):
    ``{"game", "decision", "objective", "options": [...], "best": {...}}``; ``gate=False`` lets the warm-up's
    own request through while ``warming``;
``warming``, ``warm_started``, ``solved``, ``warm()``
    the warm-up flag (requests answered 503 with ``Retry-After`` meanwhile, and how long the warm-up has run:
    :meth:`Desk.warming_seconds`), whether a request has been answered, and the warm-up itself (by default one
    ``advise(warm_body(), gate=False)``: it compiles the game's kernels);
``max_turn``
    the last turn ``layout`` replays a seeded game to (a bound from the game's length, so a turn the game never
    reaches is refused before any replay); replays are cached (:meth:`Desk.cached`);
``workers``
    how many of the desk's requests the server computes at once (each in its own worker thread, off the event
    loop; further requests wait, a bounded number of them, then are answered 503 "busy");
``player``, ``player_why``
    the player whose judgement ranks the options (named in every answer; empty: the registry's
    ``report_player``) and, when it is not the report player, why;
``settings``
    the names of the server's start-up options the desk takes as keyword arguments (``create_app(layout=...,
    components=...)``): a desk is built as ``DESK(**{k: v for k in settings})``;
``aliases``
    further routes answered by the desk, ``{path: "layout" | "advise"}`` (old URLs kept working);
``state``
    objects the server exposes as ``app.state.<name>``;
``note``
    optional: what ``serve`` prints about the desk at start-up (e.g. the opening board);
``recommend(answer) -> dict``
    the one recommendation the page shows for an answer of ``advise`` (:mod:`pyradice_lab.engine.recommend`:
    the sentence, the merged options with their values); a game words its options through
    :meth:`Desk.describe` (the board's names, numbered from 1) and :meth:`Desk.value_name`;
module-level ``WEB_NAMES``
    names of the desk module that ``pyradice_lab.web`` still offers as attributes (old import paths).

Examples
--------
>>> class Echo(Desk):
...     fields = ("position", "objective")
...     def layout(self, query):
...         return {"position": {"n": 1}}
...     def advise(self, body, gate=True):
...         body = self._body(body, gate)
...         return {"decision": "echo", "objective": self._choice(body, "objective", ("a", "b"), "a"),
...                 "options": [body["position"]], "best": body["position"]}
>>> Echo().advise({"position": {"n": 2}})["objective"]
'a'
>>> Echo().advise({"position": {"n": 2}, "colour": 1})
Traceback (most recent call last):
...
pyradice_lab.engine.desk.RequestError: unknown field(s) 'colour': allowed are position, objective
"""

from __future__ import annotations

import math
import numbers
import threading
import time
from collections import OrderedDict

__all__ = ["Desk", "RequestError", "WARM_RETRY_AFTER", "int_field", "pick", "replayed", "num"]

#: seconds the page waits before asking again while a game warms up (the 503's ``Retry-After``)
WARM_RETRY_AFTER = 2


class RequestError(ValueError):
    """A request the API refuses (status 400; 413 for a body over the size limit, 429 for a board's variant cap,
    503 while warming up), with extra response ``headers`` if any."""

    def __init__(self, message: str, status: int = 400, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.headers = dict(headers or {})


def num(v):
    """``v`` as a float, None for None or NaN (JSON has no NaN)."""
    if v is None:
        return None
    v = float(v)
    return None if math.isnan(v) else v


def int_field(query, name: str, default: int, lo: int, hi: int) -> int:
    """``query[name]`` (a JSON integer or a string of digits) as an int in ``lo..hi``; ``default`` when absent."""
    raw = query.get(name)
    if raw is None:
        return default
    if isinstance(raw, bool) or not (isinstance(raw, numbers.Integral) or (isinstance(raw, str) and raw.isdigit())):
        raise RequestError(f"{name} must be an integer in {lo}..{hi}, got {raw!r:.60}")
    if isinstance(raw, str) and len(raw) > 18:  # before int(): thousands of digits fail with Python's own message
        raise RequestError(f"{name} must be an integer in {lo}..{hi}, got a number of {len(raw):,} digits")
    v = int(raw)
    if not lo <= v <= hi:
        from .positions import shown_int

        raise RequestError(f"{name} must be an integer in {lo}..{hi}, got {shown_int(v)}")
    return v


def pick(query, name: str, allowed, default: str) -> str:
    """``query[name]`` if it is one of ``allowed`` (``default`` when absent)."""
    raw = query.get(name, default)
    if raw not in allowed:
        raise RequestError(f"{name} must be one of {', '.join(allowed)}, got {raw!r}")
    return raw


def replayed(fn):
    """``fn()`` (a game's ``position_from_game``); its ValueError (a turn the game does not have, naming
    ``turn``) is answered 400 with the message."""
    try:
        return fn()
    except ValueError as exc:
        raise RequestError(" ".join(str(exc).split())) from None


class Desk:
    """One game's endpoints: the allowed fields and query parameters, a lock, the warm-up flag."""

    name = ""
    title = ""
    fields: tuple = ("position",)
    query: tuple = ("seed", "players")
    settings: tuple = ()
    aliases: dict = {}
    #: the last turn ``layout`` replays to (0: the desk takes no turn)
    max_turn: int = 0
    #: requests computed at once (the server's worker threads for this desk)
    workers: int = 1
    #: the player ranking the options ("": the registry's report player) and why, when it is not that one
    player: str = ""
    player_why: str = ""
    #: replays (and other pure answers) remembered per desk
    cache_size: int = 64

    def __init__(self):
        self.lock = threading.Lock()
        self.warming = False
        self.warm_started = None
        self.solved = False
        self._cache: OrderedDict = OrderedDict()
        self._cache_lock = threading.Lock()

    def warming_seconds(self) -> float:
        """Seconds since the warm-up began (0 when none is running)."""
        started = getattr(self, "warm_started", None)
        return max(0.0, time.monotonic() - started) if self.warming and started is not None else 0.0

    def cached(self, key, fn):
        """``fn()``, remembered under ``key`` (a bounded LRU of :attr:`cache_size` answers, refusals included:
        a :class:`RequestError` is raised again from the cache)."""
        with self._cache_lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                ok, value = self._cache[key]
                if ok:
                    return value
                raise RequestError(*value)
        try:
            value, ok = fn(), True
        except RequestError as exc:
            value, ok = (str(exc), exc.status, exc.headers), False
        with self._cache_lock:
            self._cache[key] = (ok, value)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        if ok:
            return value
        raise RequestError(*value)

    @property
    def state(self) -> dict:
        """Objects the server exposes as ``app.state.<name>`` (none by default)."""
        return {}

    # -------------------------------------------------------------------------------------- shared checks
    def _body(self, body, gate: bool = True) -> dict:
        if not isinstance(body, dict):
            raise RequestError(f"the request body must be a JSON object with the fields {', '.join(self.fields)}")
        unknown = sorted(set(body) - set(self.fields))
        if unknown:
            raise RequestError(f"unknown field(s) {', '.join(map(repr, unknown))}: allowed are "
                               f"{', '.join(self.fields)}")
        if not isinstance(body.get("position"), dict):
            raise RequestError("position must be a JSON object: the game's position document (see its guide)")
        if gate and self.warming:
            raise RequestError(f"the advisor is warming up: {self.title}'s engine is being compiled once; ask "
                               f"again in a few seconds", 503, {"Retry-After": str(WARM_RETRY_AFTER)})
        return body

    def _choice(self, body, name, allowed, default):
        v = body.get(name, default)
        if v not in allowed:
            raise RequestError(f"{name} must be one of {list(allowed)}, got {v!r}")
        return v

    def check_query(self, query) -> dict:
        extra = sorted(set(query) - set(self.query))
        if extra:
            raise RequestError(f"unknown query parameter(s) {', '.join(extra)}: allowed are {', '.join(self.query)}")
        return query

    def run(self, fn):
        with self.lock:
            out = fn()
            self.solved = True
            return out

    # -------------------------------------------------------------------------------------- the protocol
    def layout(self, query) -> dict:  # pragma: no cover - every desk answers it
        raise NotImplementedError

    def advise(self, body, gate: bool = True) -> dict:  # pragma: no cover - every desk answers it
        raise NotImplementedError

    # -------------------------------------------------------------------------------------- the recommendation
    def describe(self, option: dict, answer: dict) -> dict:
        """One ranked option in the words of the table (see :mod:`pyradice_lab.engine.recommend`); by default
        its ``option`` text, ``value``, ``se`` and ``why``."""
        return {"label": str(option.get("option", "")), "value": option.get("value"), "se": option.get("se"),
                "detail": option.get("why") or ""}

    def value_name(self, answer: dict) -> tuple[str, bool]:
        """What the values of ``answer`` are, in plain words, and whether they are chances (percentages)."""
        return str(answer.get("objective") or "value"), False

    def recommend(self, answer: dict) -> dict:
        """The recommendation of ``answer`` (:func:`pyradice_lab.engine.recommend.recommendation`)."""
        from .recommend import recommendation

        name, percent = self.value_name(answer)
        return recommendation([self.describe(o, answer) for o in answer.get("options", ())], value_name=name,
                              percent=percent)

    def warm_body(self) -> dict:
        """The request the warm-up sends (the layout's own position)."""
        return {"position": self.layout({})["position"]}

    def warm(self) -> None:
        """Compile the game's engine once (one request past the warming gate)."""
        self.advise(self.warm_body(), gate=False)
