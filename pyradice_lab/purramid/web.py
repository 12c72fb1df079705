"""Purramid at the table: the exact press-your-luck advisor as a local web page (``pyradice-lab serve``).

A small Starlette application (needs the ``web`` extra: ``pip install 'pyradice-lab[web]'``):

``GET /``                      the page (HTML, JavaScript and CSS from this package: works offline)
``GET /api/layout?name=A``     the board geometry: every space with its row, column, number, tiles and its
                               horizontal span in units (row ``r`` starts at ``r/2``; "10" spaces are 2 wide)
``POST /api/advise``           a JSON object with the fields of :func:`~.advisor.advise` (``layout`` names a
                               board the server offers, never a path); answers the ranked options, the
                               recommended one and the immediate burst odds of the open spaces

Validation is :func:`~.advisor.advise`'s own: a bad field is answered with status 400 and its message, which
names the field; unknown fields, a body that is not a JSON object and bodies over :data:`MAX_BODY` bytes are
refused too.  Solvers are cached by :func:`~.advisor.solver_for` (a bounded LRU), and one lock per board lets
one request at a time solve a given board (others wait for it instead of solving it twice).

Examples
--------
>>> from starlette.testclient import TestClient            # doctest: +SKIP
>>> client = TestClient(create_app("A"))                    # doctest: +SKIP
>>> client.post("/api/advise", json={"placed": [[0, 3]], "dice_left": 4}).json()["best"]["action"]  # doctest: +SKIP
'continue'
"""

from __future__ import annotations

import json
import math
import threading
import time
from importlib import resources

from .components import Layout, coerce_components, load_layout

__all__ = ["create_app", "advise_json", "layout_json", "RequestError", "MAX_BODY", "FIELDS", "serve"]

#: largest accepted request body in bytes (a full board state is well under 2 KB)
MAX_BODY = 16_384
#: the fields ``POST /api/advise`` accepts: those of :func:`~.advisor.advise` that take no file path
FIELDS = ("layout", "covered", "placed", "dice_left", "roll", "yarn", "turn_dice", "objective", "yarn_value",
          "bonus", "yarn_tokens")
_STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
           "/advisor.js": ("advisor.js", "text/javascript; charset=utf-8"),
           "/advisor.css": ("advisor.css", "text/css; charset=utf-8")}
_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'"


class RequestError(ValueError):
    """A request the API refuses (status 400, or 413 for a body over :data:`MAX_BODY`)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


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

    def get(self, name, field: str = "layout") -> tuple[str, Layout]:
        if name is None:
            name = self.default
        if not isinstance(name, str) or name not in self.layouts:
            raise RequestError(f"{field} must be one of the boards this server offers "
                               f"({', '.join(map(repr, self.layouts))}), got {name!r}")
        return name, self.layouts[name]


def layout_json(layout: Layout) -> dict:
    """The board geometry the page draws: per space its row, column, number, tiles, whether it is an "8"
    (a yarn token), and ``x``/``width`` in units (row ``r`` starts at ``r / 2``)."""
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
    from .odds import burst_probability

    taken = {tuple(s) for s in covered or ()} | {tuple(s) for s in placed or ()}
    targets = sorted({layout.numbers[i] for i, s in enumerate(layout.spaces) if s not in taken})
    targets = [t for t in targets if t <= 30]
    p = float(burst_probability(dice_left, targets)) if dice_left > 0 and targets else 1.0
    return {"dice": dice_left, "targets": targets, "probability": p}


def advise_json(body, boards: Boards) -> dict:
    """Answer one ``POST /api/advise`` body (already parsed JSON) with :func:`~.advisor.advise`.

    Raises :class:`RequestError` for a body that is not an object, an unknown field or a board the server does
    not offer, and passes on ``advise``'s own ValueError/TypeError (naming the field) for bad values.
    """
    from .advisor import advise

    if not isinstance(body, dict):
        raise RequestError(f"the request body must be a JSON object with the fields {', '.join(FIELDS)}")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise RequestError(f"unknown field(s) {', '.join(map(repr, unknown))}: allowed are {', '.join(FIELDS)}")
    name, layout = boards.get(body.get("layout"))
    kwargs = {k: body[k] for k in FIELDS[1:] if k in body}
    if "objective" in kwargs and isinstance(kwargs["objective"], list):
        kwargs["objective"] = tuple(kwargs["objective"])
    dice_left = kwargs.get("dice_left", kwargs.get("turn_dice", 5))
    if "dice_left" not in kwargs and "turn_dice" in kwargs:
        kwargs["dice_left"] = kwargs["turn_dice"]
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


async def _read_body(request) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise RequestError("content-length must be an integer")
        if int(declared) > MAX_BODY:
            raise RequestError(f"request body over {MAX_BODY} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RequestError(f"request body over {MAX_BODY} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def create_app(layout="A", components=None):
    """The Starlette application; ``layout`` is the board the page opens on ("A", "B", a side of
    ``components`` or a layout TOML path chosen by whoever starts the server)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    boards = Boards(layout, components)
    pages = {path: (resources.files(__package__).joinpath("static", fname).read_bytes(), ctype)
             for path, (fname, ctype) in _STATIC.items()}

    def headers():
        return {"Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}

    def error(exc: Exception) -> JSONResponse:
        status = exc.status if isinstance(exc, RequestError) else 400
        return JSONResponse({"error": " ".join(str(exc).split())}, status_code=status, headers=headers())

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

    async def api_advise(request):
        try:
            raw = await _read_body(request)
            try:
                body = json.loads(raw or b"null")
            except (ValueError, UnicodeDecodeError, RecursionError):
                raise RequestError("the request body must be JSON (nested at most a few levels)") from None
            out = await run_in_threadpool(advise_json, body, boards)
        except (RequestError, ValueError, TypeError) as exc:
            return error(exc)
        return JSONResponse(out, headers=headers())

    routes = [Route(path, static) for path in _STATIC]
    routes += [Route("/api/layout", api_layout), Route("/api/advise", api_advise, methods=["POST"])]
    app = Starlette(routes=routes)
    app.state.boards = boards
    return app


def serve(layout="A", *, host: str = "127.0.0.1", port: int = 8000, components=None, warm: bool = True,
          log_level: str = "warning") -> None:
    """Run the page with uvicorn until interrupted; ``warm`` solves the opening board in the background so the
    first click is quick (the first solve compiles the exact solver: about 30 s CPU)."""
    import uvicorn

    app = create_app(layout, components)
    if warm:
        boards = app.state.boards

        def _warm():
            try:   # a roll with a token to spend reaches every compiled path (place, stop/continue, reroll)
                advise_json({"layout": boards.default, "roll": [1, 2, 3, 4, 5], "yarn": 1}, boards)
                advise_json({"layout": boards.default}, boards)
            except Exception:  # noqa: BLE001 - a warm-up failure shows on the first real request instead
                pass

        threading.Thread(target=_warm, name="advisor-warm-up", daemon=True).start()
    print(f"Purramid advisor on http://{host}:{port}/  (board {app.state.boards.default}; Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
