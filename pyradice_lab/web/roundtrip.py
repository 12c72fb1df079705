"""Round-trip times of the page's advise POST, per game, on loopback: ``python -m pyradice_lab.web.roundtrip``.

Starts the server (uvicorn, 127.0.0.1, a free port) in this process, compiles every game's engine once, then
sends ``--requests`` POSTs per game one after the other (the page asks one question at a time), cycling through
the positions of ``--positions`` seeded games (each desk's ``layout?seed=S`` position), and prints the p50 and
p95 of the wall time from sending the request to reading the whole answer.  Every game served (the registry's
desks) is measured; a desk that takes ``samples`` (Monte Carlo rollouts) and ``candidates`` is sent
``--samples`` and 8.  Bounded: a fixed request count, a timeout per request, and it stops by itself.

Examples
--------
::

    python -m pyradice_lab.web.roundtrip --requests 40 --positions 4
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

__all__ = ["measure", "main"]

def _quantile(xs, q: float) -> float:
    xs = sorted(xs)
    if len(xs) == 1:
        return xs[0]
    return statistics.quantiles(xs, n=100, method="inclusive")[round(q * 100) - 1]


def measure(requests: int = 40, positions: int = 4, *, samples: int = 32) -> dict[str, dict]:
    """Per game ``{"n", "p50_ms", "p95_ms", "max_ms", "status", "player"}`` of ``requests`` sequential advise
    POSTs (``player``: the player the answers name as ranking them)."""
    import httpx
    import uvicorn

    from . import create_app

    app = create_app("A")
    for desk in app.state.desks.values():                # compile first: the numbers are of a warm server
        desk.warm()
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    out = {}
    try:
        with httpx.Client(base_url=base, timeout=60) as client:
            bodies = {}
            for game, desk in app.state.desks.items():
                docs = [client.get(f"/api/{game}/layout", params={"seed": seed}).json()["position"]
                        for seed in range(1, positions + 1)]
                extra = {k: v for k, v in (("samples", samples), ("candidates", 8)) if k in desk.fields}
                bodies[game] = [{"position": d, **extra} for d in docs]
            for game, cycle in bodies.items():
                client.post(f"/api/{game}/advise", json=cycle[0])        # each game's first answer untimed
                times, codes, players = [], set(), set()
                for i in range(requests):
                    t0 = time.perf_counter()
                    r = client.post(f"/api/{game}/advise", json=cycle[i % len(cycle)])
                    r.read()
                    times.append(time.perf_counter() - t0)
                    codes.add(r.status_code)
                    players.add(r.json().get("player", ""))
                out[game] = {"n": requests, "p50_ms": 1000 * _quantile(times, 0.5),
                             "p95_ms": 1000 * _quantile(times, 0.95), "max_ms": 1000 * max(times),
                             "status": sorted(codes), "player": ", ".join(sorted(players))}
    finally:
        srv.should_exit = True
        thread.join(10)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m pyradice_lab.web.roundtrip", description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=40, help="POSTs per game (default: %(default)s)")
    p.add_argument("--positions", type=int, default=4, help="seeded starting positions cycled per game")
    p.add_argument("--samples", type=int, default=32, help="rollouts per candidate, for a game sampled by Monte Carlo "
                                                          "(the page's default)")
    args = p.parse_args(argv)
    if not 1 <= args.requests <= 1000 or not 1 <= args.positions <= 20 or not 2 <= args.samples <= 256:
        p.error("--requests must be in 1..1000, --positions in 1..20, --samples in 2..256")
    res = measure(args.requests, args.positions, samples=args.samples)
    print(f"advise round trips on loopback, {args.requests} sequential POSTs per game ({args.positions} positions "
          f"cycled; {args.samples} rollouts x 8 candidates where sampled)")
    print(f"{'game':<10} {'ranked by':<14} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9}  status")
    for game, r in res.items():
        print(f"{game:<10} {r['player']:<14} {r['p50_ms']:>9.1f} {r['p95_ms']:>9.1f} {r['max_ms']:>9.1f}  {r['status']}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
