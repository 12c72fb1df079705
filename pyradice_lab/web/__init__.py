"""The table companion as a local web page for every registered game (``pyradice-lab serve``).

A small Starlette application (needs the ``web`` extra: ``pip install 'pyradice-lab[web]'``).  It names no game:
every game whose package declares a web desk (``<game>/desk.py``: ``DESK``, see :mod:`pyradice_lab.engine.desk`)
is served, in the registry's order, through ``spec.part("desk")``:

- ``GET /``: the page (HTML, JavaScript and CSS from this package: works offline): a game picker built from
  ``/api/games``, the game's table drawn as SVG on which the position is set by clicking (a game the page has no
  drawing for gets its position document to edit), and the ranked options;
- ``GET /api/games``: the games served, ``{"games": [{"game", "title"}, ...]}``;
- ``GET /api/<game>/layout``: the desk's ``layout(query)``: what the page draws (the table's geometry) and a
  ``position`` document (the format of the game's position files), e.g. a position of a seeded game
  (``?seed=S&players=P``);
- ``POST /api/<game>/advise``: the desk's ``advise(body)``: a JSON object with a ``position`` document (validated
  by the game's ``load_position``: a bad field is answered 400 naming the key) and the game's options; answers the
  ranked options and the recommended one (``seconds``: the time taken), and ``recommendation``: the desk's
  ``recommend(answer)``, one sentence, the options in the board's words with identical ones merged (the page
  shows the sentence at the top, three alternatives below, the whole ranking folded away).

A desk may answer further routes (``desk.aliases``: Purramid's ``/api/layout`` and ``/api/advise``, its routes
before the desks) and expose objects as ``app.state.<name>`` (``desk.state``: Purramid's ``boards``).

Safe from a hostile page (any web site the user's browser has open can send requests to 127.0.0.1):

- the ``Host`` header must name this machine (``localhost``, ``127.0.0.1``, ``::1``, the ``--host`` address or a
  name given with ``allowed_hosts``): anything else is answered 400, which defeats DNS rebinding;
- ``POST`` bodies must be sent as ``Content-Type: application/json`` (415 otherwise: a cross-site form or
  ``text/plain`` post cannot be made to run a solve); every ``/api/`` request, GET or POST, is refused (403)
  when its ``Origin`` header, if sent, is not this server's own, or its ``Sec-Fetch-Site`` header, if sent, is
  not ``same-origin`` or ``none`` (an ``<img>`` or a link on another site sends no Origin but says
  ``cross-site``); bodies over :data:`MAX_BODY` bytes are refused (413);
- a connection that does not deliver its whole request within :data:`READ_TIMEOUT` seconds is closed, idle
  keep-alive connections after :data:`KEEP_ALIVE_TIMEOUT`; a client that disconnects mid-body is logged in one
  line (logger ``pyradice_lab.web``);
- every desk bounds its numbers before any work (a turn beyond ``desk.max_turn`` is refused before any replay;
  replays are cached), and computes in its own worker threads (``desk.workers``, daemon threads off the event
  loop): one game's long solve delays no other game; at most :data:`MAX_WAITING` further requests wait for a
  desk, beyond them the answer is 503 "busy" with ``Retry-After``;
- while the start-up warm-up compiles a game's engine, its requests are answered 503 with ``Retry-After`` and
  ``warming_seconds`` (the page says "preparing the solver: N s so far" and asks again) instead of waiting
  silently; every game warms in its own thread, so a quick game is served while a slow one compiles;
- every answer names the player whose judgement ranks it (``player``, and ``player_why`` when it is not the
  game's report player: ``desk.player``);
- SIGTERM and Ctrl-C stop ``serve`` within :data:`SHUTDOWN_GRACE` seconds plus a moment (well under 2 s): requests still
  computing are abandoned (their threads are daemons).

Examples
--------
>>> from starlette.testclient import TestClient            # doctest: +SKIP
>>> client = TestClient(create_app("A"))                    # doctest: +SKIP
>>> [g["game"] for g in client.get("/api/games").json()["games"]]  # doctest: +SKIP
['purramid', 'pyradice', 'raft', 'meerkat']
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import deque
from importlib import resources

from ..engine import registry
from ..engine.desk import WARM_RETRY_AFTER, RequestError

__all__ = ["create_app", "build_desks", "RequestError", "MAX_BODY", "serve", "warm_desks", "LOCAL_HOSTS",
           "READ_TIMEOUT", "KEEP_ALIVE_TIMEOUT", "WARM_RETRY_AFTER", "MAX_WAITING", "SHUTDOWN_GRACE"]

log = logging.getLogger("pyradice_lab.web")

#: largest accepted request body in bytes (a full board state is well under 2 KB)
MAX_BODY = 16_384
#: the ``Host`` names always accepted (this machine); ``create_app(host=..., allowed_hosts=...)`` adds others
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: seconds a connection has to deliver a whole request (headers and body) before it is closed
READ_TIMEOUT = 10.0
#: seconds an idle keep-alive connection stays open
KEEP_ALIVE_TIMEOUT = 5
#: requests that may wait for a busy desk (beyond them: 503 "busy" with ``Retry-After``)
MAX_WAITING = 8
#: seconds ``serve`` waits for requests in flight after SIGTERM / Ctrl-C before it stops anyway
SHUTDOWN_GRACE = 0.5
#: the ``Sec-Fetch-Site`` values accepted on ``/api/`` requests (the page's own requests, the address bar)
FETCH_SITES = ("same-origin", "none")
_STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
           "/advisor.js": ("advisor.js", "text/javascript; charset=utf-8"),
           "/tables.js": ("tables.js", "text/javascript; charset=utf-8"),
           "/recommend.js": ("recommend.js", "text/javascript; charset=utf-8"),
           "/advisor.css": ("advisor.css", "text/css; charset=utf-8")}
_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'"


def __getattr__(name: str):
    """The names this module offered before the desks moved into the games (``GAMES``; ``advise_json``,
    ``Boards``, ... from the desk module that lists them in its ``WEB_NAMES``)."""
    if name.startswith("__"):
        raise AttributeError(name)
    if name == "GAMES":
        return tuple(n for n, spec in registry.games().items() if spec.has_part("desk"))
    for spec in registry.games().values():
        if spec.has_part("desk"):
            mod = spec.module("desk")
            if name in getattr(mod, "WEB_NAMES", ()):
                return getattr(mod, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _host_name(header: str) -> str:
    """The host part of a ``Host`` header (``[::1]:8000`` -> ``::1``, ``Example:80`` -> ``example``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class _Guard:
    """ASGI middleware: the Host allowlist (400); for POST the JSON content type (415); for every ``/api/``
    request a same-origin ``Origin`` and a ``Sec-Fetch-Site`` of :data:`FETCH_SITES` when sent (403)."""

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
        else:
            origin, site = headers.get("origin"), headers.get("sec-fetch-site")
            ctype = headers.get("content-type", "").split(";")[0].strip().lower()
            work = scope.get("method") == "POST" or scope.get("path", "").startswith("/api/")
            if scope.get("method") == "POST" and ctype != "application/json":
                problem = (415, f"POST bodies must be sent as Content-Type: application/json, got {ctype or 'none'!r}")
            elif work and origin is not None and origin.lower() != f"{scope.get('scheme', 'http')}://{host}".lower():
                problem = (403, f"requests from another site ({origin!r}) are refused")
            elif work and site is not None and site.strip().lower() not in FETCH_SITES:
                problem = (403, f"requests from another site (Sec-Fetch-Site: {site!r}) are refused: open the page "
                                f"itself")
        if problem is None:
            return await self.app(scope, receive, send)
        log.info("refused %s %s (%d): %s", scope.get("method"), scope.get("path"), problem[0], problem[1])
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


class _Slots:
    """A desk's worker slots: at most ``workers`` of its requests compute at once, each in its own daemon thread
    (off the event loop; a solve abandoned at shutdown does not hold the process), at most ``waiting`` more
    wait for a slot (503 "busy" beyond them).  A slot is freed when its thread ends, even if the request that
    started it has gone."""

    def __init__(self, title: str, workers: int, waiting: int):
        self.title, self.free, self.waiting = title, max(1, int(workers)), int(waiting)
        self.queue: deque = deque()
        self.lock = threading.Lock()

    async def run(self, fn, *args):
        loop = asyncio.get_running_loop()
        with self.lock:
            if self.free > 0:
                self.free -= 1
                turn = None
            elif len(self.queue) >= self.waiting:
                raise RequestError(f"{self.title}'s advisor is busy ({self.waiting} requests already wait for it); "
                                   f"ask again in a moment", 503, {"Retry-After": str(WARM_RETRY_AFTER)})
            else:
                turn = loop.create_future()
                self.queue.append(turn)
        if turn is not None:
            try:
                await turn
            except asyncio.CancelledError:
                with self.lock:
                    granted = turn not in self.queue
                    if not granted:
                        self.queue.remove(turn)
                if granted:
                    self._release()
                raise
        done = loop.create_future()

        def work():
            try:
                out = (True, fn(*args))
            except BaseException as exc:  # noqa: BLE001 - handed to the request
                out = (False, exc)
            self._release()
            try:
                loop.call_soon_threadsafe(_settle, done, out)
            except RuntimeError:       # the loop has closed (the server stopped): nobody waits for the answer
                pass

        threading.Thread(target=work, name=f"desk-{self.title}", daemon=True).start()
        try:
            ok, value = await done
        except asyncio.CancelledError:     # the server is stopping (or the client left): the thread is abandoned
            raise RequestError("the server is stopping", 503) from None
        if not ok:
            raise value
        return value

    def _release(self):
        with self.lock:
            if not self.queue:
                self.free += 1
                return
            turn = self.queue.popleft()
        try:
            turn.get_loop().call_soon_threadsafe(_settle, turn, (True, None))
        except RuntimeError:
            self._release()


def _settle(fut, out):
    if not fut.done():
        fut.set_result(out)


def build_desks(layout="A", components=None) -> dict:
    """One desk per registered game that declares one (``spec.part("desk")``), by game name, in the registry's
    order; a desk whose ``settings`` name ``layout`` or ``components`` is built with them.

    Parameters
    ----------
    layout, components
        The server's start-up options (see :func:`create_app`).

    Returns
    -------
    dict
        Game name -> desk (``name`` and ``title`` filled in from the registry when the desk leaves them empty).

    Examples
    --------
    >>> desks = build_desks("A")
    >>> list(desks) == [name for name, spec in registry.games().items() if spec.has_part("desk")]
    True
    """
    options = {"layout": layout, "components": components}
    desks = {}
    for name, spec in registry.games().items():
        factory = spec.part("desk", None)
        if factory is None:
            continue
        desk = factory(**{k: options[k] for k in getattr(factory, "settings", ()) if k in options})
        if not desk.name:
            desk.name = name
        if not desk.title:
            desk.title = spec.title
        if not desk.player:
            desk.player = spec.report_player
        desks[name] = desk
    return desks


def create_app(layout="A", components=None, *, host: str = "127.0.0.1", allowed_hosts=()):
    """The Starlette application serving every registered game's desk.

    Requests whose ``Host`` is not one of :data:`LOCAL_HOSTS`, ``host`` (the bound address) or ``allowed_hosts``
    are answered 400.

    Parameters
    ----------
    layout : str or path
        The board the page opens on, for the desks that take one (their ``settings`` list ``layout``: Purramid's
        "A", "B", a side of ``components`` or a layout TOML path chosen by whoever starts the server).
    components : path or Components, optional
        The components of the desks that take them (``settings``; default: the packaged ones).
    host : str
        The address the server binds (accepted as a ``Host``).
    allowed_hosts : str or sequence of str
        Further ``Host`` names to answer.

    Returns
    -------
    starlette.applications.Starlette
        The application (``app.state.desks``: game -> desk, and each desk's ``state``, e.g. ``app.state.boards``).

    Raises
    ------
    ValueError
        If ``host`` or an ``allowed_hosts`` entry is not a host name or address, or a desk refuses its options.

    Examples
    --------
    >>> from starlette.testclient import TestClient                        # doctest: +SKIP
    >>> TestClient(create_app("A")).get("/api/games").json()["games"][0]   # doctest: +SKIP
    {'game': 'purramid', 'title': 'Purramid'}
    """
    from starlette.applications import Starlette
    from starlette.requests import ClientDisconnect
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    if isinstance(allowed_hosts, str):
        allowed_hosts = (allowed_hosts,)
    for h in (host, *allowed_hosts):
        if not isinstance(h, str) or not h.strip() or any(c in h for c in "/ \t@"):
            raise ValueError(f"allowed_hosts / host must be host names or addresses, got {h!r}")

    desks = build_desks(layout, components)
    slots = {game: _Slots(d.title, getattr(d, "workers", 1), MAX_WAITING) for game, d in desks.items()}
    pages = {path: (resources.files(__package__).joinpath("static", fname).read_bytes(), ctype)
             for path, (fname, ctype) in _STATIC.items()}

    def headers():
        return {"Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}

    def error(exc: Exception, game: str | None = None) -> JSONResponse:
        status = exc.status if isinstance(exc, RequestError) else 400
        extra = exc.headers if isinstance(exc, RequestError) else {}
        out = {"error": " ".join(str(exc).split())}
        d = desks.get(game)
        if status == 503 and d is not None and d.warming:      # how long the solver has been prepared so far
            out["warming_seconds"] = round(d.warming_seconds(), 1)
        return JSONResponse(out, status_code=status, headers={**headers(), **extra})

    async def static(request):
        content, ctype = pages[request.url.path]
        return Response(content, media_type=ctype.split(";")[0], headers=headers())

    def desk(game):
        if game not in desks:
            raise RequestError(f"game must be one of {', '.join(desks)}, got {game!r}", 404)
        return desks[game]

    async def post_json(request, game, answer):
        """Read the JSON body of a POST (bounded, with its read deadline) and answer it with ``answer(body)``
        in one of the game desk's worker slots; every refusal is a JSON error with its status."""
        try:
            raw = await _read_body(request)
            try:
                body = json.loads(raw or b"null")
            except (ValueError, UnicodeDecodeError, RecursionError):
                raise RequestError("the request body must be JSON (nested at most a few levels)") from None
            desk(game)
            out = await slots[game].run(answer, body)
        except ClientDisconnect:
            client = request.client
            log.info("client %s disconnected before sending its whole request", client.host if client else "?")
            return Response(status_code=400)
        except TimeoutError:
            return error(RequestError(f"the request body did not arrive within {READ_TIMEOUT:g} s", 408))
        except (RequestError, ValueError, TypeError) as exc:
            return error(exc, game)
        return JSONResponse(out, headers=headers())

    async def layout_of(request, game):
        try:
            d = desk(game)
            out = await slots[game].run(d.layout, dict(request.query_params))
        except (RequestError, ValueError, TypeError) as exc:
            return error(exc, game)
        return JSONResponse(out, headers=headers())

    async def advise_of(request, game):
        def answer(body):
            d = desk(game)
            t0 = time.perf_counter()
            out = d.advise(body)
            out.setdefault("seconds", time.perf_counter() - t0)
            out.setdefault("player", d.player)
            if out["player"] == d.player and d.player_why:
                out.setdefault("player_why", d.player_why)
            out.setdefault("recommendation", d.recommend(out))
            return out

        return await post_json(request, game, answer)

    async def game_layout(request):
        return await layout_of(request, request.path_params["game"])

    async def game_advise(request):
        return await advise_of(request, request.path_params["game"])

    async def api_games(request):
        return JSONResponse({"games": [{"game": g, "title": d.title} for g, d in desks.items()]}, headers=headers())

    def alias(path, game, kind):
        if kind == "layout":
            async def answer_layout(request):
                return await layout_of(request, game)

            return Route(path, answer_layout)

        async def answer_advise(request):
            return await advise_of(request, game)

        return Route(path, answer_advise, methods=["POST"])

    routes = [Route(path, static) for path in _STATIC]
    routes.append(Route("/api/games", api_games))
    for game, d in desks.items():
        for path, kind in d.aliases.items():
            if kind not in ("layout", "advise"):
                raise ValueError(f"{game}: desk aliases map a path to 'layout' or 'advise', got {kind!r}")
            routes.append(alias(path, game, kind))
    routes += [Route("/api/{game}/layout", game_layout), Route("/api/{game}/advise", game_advise, methods=["POST"])]
    app = Starlette(routes=routes)
    app.state.desks = desks
    for d in desks.values():
        for key, value in d.state.items():
            setattr(app.state, key, value)
    app.add_middleware(_Guard, hosts=(*LOCAL_HOSTS, _host_name(host), *map(_host_name, allowed_hosts)))
    return app


def warm_desks(desks: dict) -> threading.Thread:
    """Compile the games' engines once, each game in its own background thread (each desk's ``warm()``; a
    game's requests are answered 503 with ``Retry-After`` and ``warming_seconds`` until its own warm-up is done,
    so a quick game is served while a slow one still compiles).

    Parameters
    ----------
    desks : dict
        The server's desks by game (``create_app(...).state.desks``).

    Returns
    -------
    threading.Thread
        A (daemon) thread that ends when every game is warm.

    Examples
    --------
    >>> warm_desks(create_app("A").state.desks).join()   # doctest: +SKIP
    """
    now = time.monotonic()
    for d in desks.values():
        d.warming = True
        d.warm_started = now

    def _warm(name, d):
        try:
            d.warm()     # the warm-up's own request passes the 503 gate
        except Exception as exc:  # noqa: BLE001 - a warm-up failure shows on the first real request instead
            log.warning("warming up %s failed: %s", name, exc)
        finally:
            d.warming = False

    threads = [threading.Thread(target=_warm, args=(name, d), name=f"advisor-warm-up-{name}", daemon=True)
               for name, d in desks.items()]
    for t in threads:
        t.start()

    def _all():
        for t in threads:
            t.join()

    t = threading.Thread(target=_all, name="advisor-warm-up-games", daemon=True)
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
    """Run the page with uvicorn until interrupted; ``warm`` compiles every game's engine in the background so the
    first click is quick (Purramid's first solve compiles the exact solver: about 15 s CPU (12-17 s measured cold); meanwhile the page is
    told it is warming up).  ``allowed_hosts``: further ``Host`` names to answer (besides this machine's).

    Parameters
    ----------
    layout, components, host, allowed_hosts
        As for :func:`create_app`.
    port : int
        The TCP port.
    warm : bool
        Compile every game's engine (and solve the opening board) in the background (:func:`warm_desks`).
    log_level : str
        uvicorn's log level.

    Examples
    --------
    >>> serve("A", port=8000)      # doctest: +SKIP
    """
    import uvicorn

    app = create_app(layout, components, host=host, allowed_hosts=allowed_hosts)
    if warm:
        warm_desks(app.state.desks)
    if not logging.getLogger().handlers and not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    desks = app.state.desks.values()
    notes = "; ".join(n for n in (getattr(d, "note", "") for d in desks) if n)
    print(f"Table companion ({', '.join(d.title for d in desks)}) on http://{host}:{port}/  "
          f"({notes + '; ' if notes else ''}Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, http=_timed_protocol(),
                timeout_keep_alive=KEEP_ALIVE_TIMEOUT, timeout_graceful_shutdown=SHUTDOWN_GRACE)
