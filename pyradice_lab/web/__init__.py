"""The table companion as a local web page for the four games (``pyradice-lab serve``).

A small Starlette application (needs the ``web`` extra: ``pip install 'pyradice-lab[web]'``):

``GET /``                      the page (HTML, JavaScript and CSS from this package: works offline): a game
                               picker, an SVG of the game's table on which the position is set by clicking,
                               and the ranked options
``GET /api/<game>/layout``     what the page draws for ``purramid``, ``meerkat``, ``raft`` or ``pyradice``: the
                               table's geometry and a starting position (Purramid: ``?name=A``; the others
                               ``?seed=S&players=P``, a position of that seeded game)
``POST /api/<game>/advise``    a JSON object: Purramid's the fields of its ``advise``; the others' a ``position``
                               document (the format of the game's position files, validated by its
                               ``load_position``) and the game's options (:mod:`.games`); answers the ranked
                               options and the recommended one
``GET /api/layout?name=A``     Purramid's board geometry (as ``/api/purramid/layout``): every space with its
                               row, column, number, tiles and its horizontal span in units (row ``r`` starts at
                               ``r/2``; "10" spaces are 2 wide)
``POST /api/advise``           Purramid's advice (as ``/api/purramid/advise``): a JSON object with the fields of
                               :func:`~pyradice_lab.purramid.advisor.advise` (``layout`` names a board the
                               server offers, never a path); answers the ranked options, the recommended one and
                               the immediate burst odds of the open spaces

Validation is :func:`~.advisor.advise`'s own: a bad field is answered with status 400 and its message, which
names the field; unknown fields, a body that is not a JSON object and bodies over :data:`MAX_BODY` bytes are
refused too.  Solvers are cached by :func:`~.advisor.solver_for` (a bounded LRU), and one lock per board lets
one request at a time solve a given board (others wait for it instead of solving it twice).

Safe from a hostile page (any web site the user's browser has open can send requests to 127.0.0.1):

- the ``Host`` header must name this machine (``localhost``, ``127.0.0.1``, ``::1``, the ``--host`` address or a
  name given with ``allowed_hosts``): anything else is answered 400, which defeats DNS rebinding;
- ``POST`` bodies must be sent as ``Content-Type: application/json`` (415 otherwise: a cross-site form or
  ``text/plain`` post cannot be made to run a solve) and an ``Origin`` header, when sent, must be this server's
  own (403 otherwise);
- a connection that does not deliver its whole request within :data:`READ_TIMEOUT` seconds is closed, idle
  keep-alive connections after :data:`KEEP_ALIVE_TIMEOUT`; a client that disconnects mid-body is logged in one
  line (logger ``pyradice_lab.web``);
- every number is bounded by the board (``("at_least", k)`` with ``k`` at most the tiles left, ``yarn_value`` at
  most the board's tiles) and each board solves at most :data:`MAX_VARIANTS` distinct objectives / token values /
  bonus modes (429 after that);
- while the start-up solve warms the opening board, its requests are answered 503 with ``Retry-After`` (the page
  says it is warming up and asks again) instead of waiting silently.

Examples
--------
>>> from starlette.testclient import TestClient            # doctest: +SKIP
>>> client = TestClient(create_app("A"))                    # doctest: +SKIP
>>> client.post("/api/advise", json={"placed": [[0, 3]], "dice_left": 4}).json()["best"]["action"]  # doctest: +SKIP
'continue'
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
import time
from importlib import resources

from ..purramid.components import Layout, coerce_components, load_layout

__all__ = ["create_app", "advise_json", "layout_json", "RequestError", "MAX_BODY", "FIELDS", "serve", "GAMES",
           "warm_up", "warm_desks", "LOCAL_HOSTS", "READ_TIMEOUT", "KEEP_ALIVE_TIMEOUT", "MAX_VARIANTS", "WARM_RETRY_AFTER"]

log = logging.getLogger("pyradice_lab.web")

#: largest accepted request body in bytes (a full board state is well under 2 KB)
MAX_BODY = 16_384
#: the ``Host`` names always accepted (this machine); ``create_app(host=..., allowed_hosts=...)`` adds others
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: seconds a connection has to deliver a whole request (headers and body) before it is closed
READ_TIMEOUT = 10.0
#: seconds an idle keep-alive connection stays open
KEEP_ALIVE_TIMEOUT = 5
#: distinct solver variants (objective, yarn_value, bonus mode, yarn tokens) one board solves per server
MAX_VARIANTS = 12
#: seconds the page waits before asking again while the opening board warms up (the 503's ``Retry-After``)
WARM_RETRY_AFTER = 2
#: the fields ``POST /api/advise`` accepts: those of :func:`~.advisor.advise` that take no file path
FIELDS = ("layout", "covered", "placed", "dice_left", "roll", "yarn", "turn_dice", "objective", "yarn_value",
          "bonus", "yarn_tokens")
_STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
           "/advisor.js": ("advisor.js", "text/javascript; charset=utf-8"),
           "/tables.js": ("tables.js", "text/javascript; charset=utf-8"),
           "/advisor.css": ("advisor.css", "text/css; charset=utf-8")}
_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'"


class RequestError(ValueError):
    """A request the API refuses (status 400; 413 for a body over :data:`MAX_BODY`, 429 for a board's
    variant cap, 503 while warming up), with extra response ``headers`` if any."""

    def __init__(self, message: str, status: int = 400, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.headers = dict(headers or {})


class Boards:
    """The boards a server offers (the components' sides, plus a layout file given at start-up), one solve
    lock per board, and which boards have been solved once (to tell the page a first solve is slow)."""

    def __init__(self, layout="A", components=None):
        self.components = coerce_components(components)
        self.layouts: dict[str, Layout] = dict(self.components.sides)
        default = load_layout(layout, self.components)
        if default.name not in self.layouts or self.layouts[default.name].key != default.key:
            name = default.name if default.name not in self.layouts else f"{default.name} (file)"
            self.layouts[name] = default
            self.default = name
        else:
            self.default = default.name
        self.locks = {name: threading.Lock() for name in self.layouts}
        self.solved: set = set()
        self.variants: dict = {name: set() for name in self.layouts}
        self.warming: set = set()   # boards the start-up solve is warming (their requests get 503)
        self._guard = threading.Lock()

    def admit_variant(self, name: str, key: tuple) -> None:
        """Count a solver variant of board ``name``; refuse (429) a new one beyond :data:`MAX_VARIANTS`."""
        with self._guard:
            seen = self.variants[name]
            if key not in seen and len(seen) >= MAX_VARIANTS:
                raise RequestError(f"board {name!r} has already been solved for {MAX_VARIANTS} different "
                                   f"objective / yarn_value / bonus choices on this server; use one of those "
                                   f"or restart the server", 429)
            seen.add(key)

    def get(self, name, field: str = "layout") -> tuple[str, Layout]:
        if name is None:
            name = self.default
        if not isinstance(name, str) or name not in self.layouts:
            raise RequestError(f"{field} must be one of the boards this server offers "
                               f"({', '.join(map(repr, self.layouts))}), got {name!r}")
        return name, self.layouts[name]


def layout_json(layout: Layout) -> dict:
    """The board geometry the page draws: per space its row, column, number, tiles, whether it is an "8"
    (a yarn token), and ``x``/``width`` in units (row ``r`` starts at ``r / 2``).

    Parameters
    ----------
    layout : Layout
        A Purramid board (:func:`~pyradice_lab.purramid.components.load_layout`).

    Returns
    -------
    dict
        ``name``, ``rows``, ``n_rows``, ``width``, ``capacity`` and ``spaces`` (JSON-ready).

    Examples
    --------
    >>> from pyradice_lab.purramid.components import load_layout
    >>> g = layout_json(load_layout("A"))
    >>> g["spaces"][0]["space"], g["n_rows"] > 1
    ([0, 0], True)
    """
    spaces = []
    for r, row in enumerate(layout.rows):
        x = r / 2
        for c, n in enumerate(row):
            w = 2 if n == 10 else 1
            spaces.append({"space": [r, c], "row": r, "col": c, "number": n, "tiles": 3 if n == 12 else w,
                           "x": x, "width": w, "yarn": n == 8})
            x += w
    width = max((s["x"] + s["width"] for s in spaces), default=0)
    return {"name": layout.name, "rows": [list(r) for r in layout.rows], "n_rows": layout.n_rows, "width": width,
            "capacity": layout.capacity, "spaces": spaces}


def _num(v):
    if v is None:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _burst_odds(layout: Layout, covered, placed, dice_left: int) -> dict:
    """The chance that ``dice_left`` dice rolled now show no subset summing to an open space's number."""
    from ..purramid.odds import burst_probability

    taken = {tuple(s) for s in covered or ()} | {tuple(s) for s in placed or ()}
    targets = sorted({layout.numbers[i] for i, s in enumerate(layout.spaces) if s not in taken})
    targets = [t for t in targets if t <= 30]
    p = float(burst_probability(dice_left, targets)) if dice_left > 0 and targets else 1.0
    return {"dice": dice_left, "targets": targets, "probability": p}


def advise_json(body, boards: Boards) -> dict:
    """Answer one ``POST /api/advise`` body (already parsed JSON) with :func:`~.advisor.advise`.

    Raises :class:`RequestError` for a body that is not an object, an unknown field or a board the server does
    not offer, and passes on ``advise``'s own ValueError/TypeError (naming the field) for bad values.

    Parameters
    ----------
    body : object
        The parsed JSON body (an object with the fields :data:`FIELDS`).
    boards : Boards
        The server's boards (``create_app(...).state.boards``).

    Returns
    -------
    dict
        ``options`` (``advise``'s rows), ``best``, ``objective``, ``bonus``, ``burst_odds``, ``seconds``,
        ``first_solve``.

    Examples
    --------
    >>> app = create_app("A")                                        # doctest: +SKIP
    >>> advise_json({"dice_left": 5}, app.state.boards)["best"]["action"]  # doctest: +SKIP
    'continue'
    """
    from ..purramid.advisor import advise

    if not isinstance(body, dict):
        raise RequestError(f"the request body must be a JSON object with the fields {', '.join(FIELDS)}")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise RequestError(f"unknown field(s) {', '.join(map(repr, unknown))}: allowed are {', '.join(FIELDS)}")
    name, layout = boards.get(body.get("layout"))
    if name in boards.warming:
        raise RequestError(f"the advisor is warming up: board {name!r} is being solved once (the first solve "
                           f"compiles the exact solver, about 30 s); ask again in a few seconds", 503,
                           {"Retry-After": str(WARM_RETRY_AFTER)})
    kwargs = {k: body[k] for k in FIELDS[1:] if k in body}
    if "objective" in kwargs and isinstance(kwargs["objective"], list):
        kwargs["objective"] = tuple(kwargs["objective"])
    yv = kwargs.get("yarn_value")
    if isinstance(yv, (int, float)) and not isinstance(yv, bool) and yv > layout.capacity:
        raise RequestError(f"yarn_value must be at most {layout.capacity} (the tiles of board {name!r}), got {yv!r}")
    variant = tuple(json.dumps(kwargs.get(k), sort_keys=True) for k in ("objective", "yarn_value", "bonus",
                                                                         "yarn_tokens"))
    dice_left = kwargs.get("dice_left", kwargs.get("turn_dice", 5))
    if "dice_left" not in kwargs and "turn_dice" in kwargs:
        kwargs["dice_left"] = kwargs["turn_dice"]
    _check_advise_args(layout, kwargs)
    boards.admit_variant(name, variant)
    first = name not in boards.solved
    t0 = time.perf_counter()
    with boards.locks[name]:
        df = advise(layout, components=boards.components, **kwargs)
        boards.solved.add(name)
    seconds = time.perf_counter() - t0
    options = []
    for row in df.itertuples(index=False):
        options.append({
            "action": row.action, "space": None if row.space is None or row.space != row.space else list(row.space),
            "number": None if _num(row.number) is None else int(row.number), "dice": [int(d) for d in row.dice],
            "value": float(row.value), "burst_probability": float(row.burst_probability),
            "regret": float(row.regret), "then": getattr(row, "then", None) if "then" in df.columns else None})
    for o in options:
        o["then"] = _num(o["then"])
    return {"layout": name, "options": options, "best": options[0], "objective": str(df["objective"].iloc[0]),
            "bonus": str(df["bonus"].iloc[0]), "seconds": seconds, "first_solve": first,
            "burst_odds": _burst_odds(layout, kwargs.get("covered"), kwargs.get("placed"), int(dice_left))}


def _check_advise_args(layout: Layout, kwargs: dict) -> None:
    """``advise``'s validation without solving (so a refused variant is never counted nor solved)."""
    from ..purramid.advisor import _check_reachable, _check_state, _check_yarn_value, parse_objective

    dl = kwargs.get("dice_left", 5)
    cov = _check_state(layout, kwargs.get("covered", ()), kwargs.get("placed", ()), dl,
                       kwargs.get("turn_dice", 5), kwargs.get("yarn", 0))[0]
    _check_reachable(parse_objective(kwargs.get("objective", "tiles")), layout, cov)
    if kwargs.get("yarn_value") is not None:
        _check_yarn_value(kwargs["yarn_value"])


def _host_name(header: str) -> str:
    """The host part of a ``Host`` header (``[::1]:8000`` -> ``::1``, ``Example:80`` -> ``example``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class _Guard:
    """ASGI middleware: the Host allowlist (400), and for POST the JSON content type (415) and a same-origin
    ``Origin`` when one is sent (403)."""

    def __init__(self, app, hosts):
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get("host", "")
        problem = None
        if _host_name(host) not in self.hosts:
            problem = (400, f"host {host!r} is not served here: open the page as http://127.0.0.1:PORT/ "
                            f"(or start the server with --allow-host for another name)")
        elif scope.get("method") == "POST":
            ctype = headers.get("content-type", "").split(";")[0].strip().lower()
            origin = headers.get("origin")
            if ctype != "application/json":
                problem = (415, f"POST bodies must be sent as Content-Type: application/json, got {ctype or 'none'!r}")
            elif origin is not None and origin.lower() != f"{scope.get('scheme', 'http')}://{host}".lower():
                problem = (403, f"requests from another site ({origin!r}) are refused")
        if problem is None:
            return await self.app(scope, receive, send)
        body = json.dumps({"error": problem[1]}).encode()
        await send({"type": "http.response.start", "status": problem[0],
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"x-content-type-options", b"nosniff")]})
        await send({"type": "http.response.body", "body": body})


async def _read_body(request) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise RequestError("content-length must be an integer")
        if int(declared) > MAX_BODY:
            raise RequestError(f"request body over {MAX_BODY} bytes", 413)
    chunks, size = [], 0

    async def read():
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise RequestError(f"request body over {MAX_BODY} bytes", 413)
            chunks.append(chunk)

    await asyncio.wait_for(read(), READ_TIMEOUT)
    return b"".join(chunks)


#: the games the page offers, in the picker's order
GAMES = ("purramid", "meerkat", "raft", "pyradice")


def create_app(layout="A", components=None, *, host: str = "127.0.0.1", allowed_hosts=()):
    """The Starlette application; ``layout`` is the Purramid board the page opens on ("A", "B", a side of
    ``components`` or a layout TOML path chosen by whoever starts the server; ``components`` are Purramid's).
    Requests whose ``Host`` is not one of :data:`LOCAL_HOSTS`, ``host`` (the bound address) or ``allowed_hosts``
    are answered 400.

    Parameters
    ----------
    layout : str or path
        The Purramid board the page opens on.
    components : path or Components, optional
        Purramid's components (default: the packaged ones).
    host : str
        The address the server binds (accepted as a ``Host``).
    allowed_hosts : str or sequence of str
        Further ``Host`` names to answer.

    Returns
    -------
    starlette.applications.Starlette
        The application (``app.state.boards``, ``app.state.desks``).

    Raises
    ------
    ValueError
        If ``host`` or an ``allowed_hosts`` entry is not a host name or address.

    Examples
    --------
    >>> from starlette.testclient import TestClient                        # doctest: +SKIP
    >>> TestClient(create_app("A")).get("/api/games").json()["games"][0]   # doctest: +SKIP
    {'game': 'purramid', 'title': 'Purramid'}
    """
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import ClientDisconnect
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    if isinstance(allowed_hosts, str):
        allowed_hosts = (allowed_hosts,)
    for h in (host, *allowed_hosts):
        if not isinstance(h, str) or not h.strip() or any(c in h for c in "/ \t@"):
            raise ValueError(f"allowed_hosts / host must be host names or addresses, got {h!r}")

    from .games import DESKS

    boards = Boards(layout, components)
    desks = {name: cls() for name, cls in DESKS.items()}
    pages = {path: (resources.files(__package__).joinpath("static", fname).read_bytes(), ctype)
             for path, (fname, ctype) in _STATIC.items()}

    def headers():
        return {"Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}

    def error(exc: Exception) -> JSONResponse:
        status = exc.status if isinstance(exc, RequestError) else 400
        extra = exc.headers if isinstance(exc, RequestError) else {}
        return JSONResponse({"error": " ".join(str(exc).split())}, status_code=status, headers={**headers(), **extra})

    async def static(request):
        content, ctype = pages[request.url.path]
        return Response(content, media_type=ctype.split(";")[0], headers=headers())

    async def api_layout(request):
        try:
            extra = sorted(set(request.query_params) - {"name"})
            if extra:
                raise RequestError(f"unknown query parameter(s) {', '.join(extra)}: only name is allowed")
            name, L = boards.get(request.query_params.get("name"), "name")
        except RequestError as exc:
            return error(exc)
        out = layout_json(L)
        out.update(name=name, boards=list(boards.layouts), default=boards.default, solved=name in boards.solved)
        return JSONResponse(out, headers=headers())

    async def post_json(request, answer):
        """Read the JSON body of a POST (bounded, with its read deadline) and answer it with ``answer(body)``
        in a worker thread; every refusal is a JSON error with its status."""
        try:
            raw = await _read_body(request)
            try:
                body = json.loads(raw or b"null")
            except (ValueError, UnicodeDecodeError, RecursionError):
                raise RequestError("the request body must be JSON (nested at most a few levels)") from None
            out = await run_in_threadpool(answer, body)
        except ClientDisconnect:
            client = request.client
            log.info("client %s disconnected before sending its whole request", client.host if client else "?")
            return Response(status_code=400)
        except TimeoutError:
            return error(RequestError(f"the request body did not arrive within {READ_TIMEOUT:g} s", 408))
        except (RequestError, ValueError, TypeError) as exc:
            return error(exc)
        return JSONResponse(out, headers=headers())

    async def api_advise(request):
        return await post_json(request, lambda body: advise_json(body, boards))

    async def game_layout(request):
        game = request.path_params["game"]
        if game == "purramid":
            return await api_layout(request)
        try:
            out = await run_in_threadpool(desk(game).layout, dict(request.query_params))
        except (RequestError, ValueError, TypeError) as exc:
            return error(exc)
        return JSONResponse(out, headers=headers())

    def desk(game):
        if game not in desks:
            raise RequestError(f"game must be one of {', '.join(GAMES)}, got {game!r}", 404)
        return desks[game]

    async def game_advise(request):
        game = request.path_params["game"]
        if game == "purramid":
            return await api_advise(request)

        def answer(body):
            t0 = time.perf_counter()
            out = desk(game).advise(body)
            out["seconds"] = time.perf_counter() - t0
            return out

        return await post_json(request, answer)

    async def api_games(request):
        return JSONResponse({"games": [{"game": g, "title": "Purramid" if g == "purramid" else desks[g].title}
                                       for g in GAMES]}, headers=headers())

    routes = [Route(path, static) for path in _STATIC]
    routes += [Route("/api/layout", api_layout), Route("/api/advise", api_advise, methods=["POST"]),
               Route("/api/games", api_games), Route("/api/{game}/layout", game_layout),
               Route("/api/{game}/advise", game_advise, methods=["POST"])]
    app = Starlette(routes=routes)
    app.state.boards = boards
    app.state.desks = desks
    app.add_middleware(_Guard, hosts=(*LOCAL_HOSTS, _host_name(host), *map(_host_name, allowed_hosts)))
    return app


def warm_up(boards: Boards, name: str | None = None) -> threading.Thread:
    """Solve board ``name`` (default: the opening board) once in a background thread; until it is done the
    board's requests are answered 503 with ``Retry-After`` (see the module docstring).

    Parameters
    ----------
    boards : Boards
        The server's boards (``create_app(...).state.boards``).
    name : str, optional
        The board to solve (default: the opening board).

    Returns
    -------
    threading.Thread
        The (daemon) thread solving it.

    Examples
    --------
    >>> warm_up(create_app("A").state.boards).join()     # doctest: +SKIP
    """
    name = boards.default if name is None else name
    boards.warming.add(name)

    def _warm():
        try:   # a roll with a token to spend reaches every compiled path (place, stop/continue, reroll)
            with boards.locks[name]:
                from ..purramid.advisor import advise

                advise(boards.layouts[name], components=boards.components, roll=[1, 2, 3, 4, 5], yarn=1)
                advise(boards.layouts[name], components=boards.components)
                boards.solved.add(name)
        except Exception as exc:  # noqa: BLE001 - a warm-up failure shows on the first real request instead
            log.warning("warming up board %r failed: %s", name, exc)
        finally:
            boards.warming.discard(name)

    t = threading.Thread(target=_warm, name="advisor-warm-up", daemon=True)
    t.start()
    return t


def warm_desks(desks: dict) -> threading.Thread:
    """Compile the other games' engines once, one game after the other in one background thread (their
    requests are answered 503 with ``Retry-After`` until their turn is done).

    Parameters
    ----------
    desks : dict
        The server's desks by game (``create_app(...).state.desks``).

    Returns
    -------
    threading.Thread
        The (daemon) thread compiling them.

    Examples
    --------
    >>> warm_desks(create_app("A").state.desks).join()   # doctest: +SKIP
    """
    for d in desks.values():
        d.warming = True

    def _warm():
        for name, d in desks.items():
            try:
                d.advise(d.warm_body(), gate=False)     # the warm-up's own request passes the 503 gate
            except Exception as exc:  # noqa: BLE001 - a warm-up failure shows on the first real request instead
                log.warning("warming up %s failed: %s", name, exc)
            finally:
                d.warming = False

    t = threading.Thread(target=_warm, name="advisor-warm-up-games", daemon=True)
    t.start()
    return t


def _timed_protocol():
    """uvicorn's h11 protocol with a request read deadline: a connection that does not deliver a whole request
    within :data:`READ_TIMEOUT` seconds of connecting (or of starting its next request) is closed."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11Protocol(H11Protocol):
        _deadline = None

        def _arm(self):
            self._disarm()
            self._deadline = self.loop.call_later(READ_TIMEOUT, self._expire)

        def _disarm(self):
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self):
            self._deadline = None
            if self.conn.their_state is not h11.DONE and not self.transport.is_closing():
                log.info("closed a connection from %s that sent no whole request in %g s",
                         self.client[0] if self.client else "?", READ_TIMEOUT)
                self.transport.close()

        def connection_made(self, transport):
            super().connection_made(transport)
            self._arm()

        def data_received(self, data):
            if self._deadline is None and self.conn.their_state is h11.IDLE:
                self._arm()   # the next request on a kept-alive connection
            super().data_received(data)

        def on_response_complete(self):
            self._disarm()
            super().on_response_complete()

        def connection_lost(self, exc):
            self._disarm()
            super().connection_lost(exc)

    return TimedH11Protocol


def serve(layout="A", *, host: str = "127.0.0.1", port: int = 8000, components=None, warm: bool = True,
          log_level: str = "warning", allowed_hosts=()) -> None:
    """Run the page with uvicorn until interrupted; ``warm`` solves the opening board in the background so the
    first click is quick (the first solve compiles the exact solver: about 30 s CPU; meanwhile the page is told
    it is warming up).  ``allowed_hosts``: further ``Host`` names to answer (besides this machine's).

    Parameters
    ----------
    layout, components, host, allowed_hosts
        As for :func:`create_app`.
    port : int
        The TCP port.
    warm : bool
        Solve the opening board and compile the other games' engines in the background.
    log_level : str
        uvicorn's log level.

    Examples
    --------
    >>> serve("A", port=8000)      # doctest: +SKIP
    """
    import uvicorn

    app = create_app(layout, components, host=host, allowed_hosts=allowed_hosts)
    if warm:
        warm_up(app.state.boards)
        warm_desks(app.state.desks)
    if not logging.getLogger().handlers and not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    print(f"Table companion (Purramid, Meerkat Kingdom, Rocking Raft, Pyradice) on http://{host}:{port}/  "
          f"(Purramid board {app.state.boards.default}; Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, http=_timed_protocol(),
                timeout_keep_alive=KEEP_ALIVE_TIMEOUT)
