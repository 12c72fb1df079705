"""``pyradice-lab toygame ...``: ``play`` (one seeded game's transcript) and ``advise`` (roll or hold?)."""

from __future__ import annotations

from pyradice_lab.engine.cliargs import components_arg, nonneg_int

__all__ = ["add_cli", "DESCRIPTION"]

DESCRIPTION = "Toy race: a two-player one-die press-your-luck race (the example of a game added as one package)."


def add_cli(sub) -> None:
    """Add the toy race's subcommands to ``sub`` (the shared ones are there already)."""
    p = sub.add_parser("play", help="one seeded game's transcript")
    p.add_argument("--seed", type=nonneg_int, default=0)
    p.add_argument("--policies", default="hold_at:20,optimal", help="one player per seat, comma-separated")
    components_arg(p)
    p.set_defaults(func=_cmd_play)
    a = sub.add_parser("advise", help="roll or hold? the options ranked by win probability")
    a.add_argument("--position", required=True, help="a position file (.toml or .json)")
    components_arg(a)
    a.set_defaults(func=_cmd_advise)


def _cmd_play(args) -> int:
    from .rules import play_game

    print(play_game(args.policies.split(","), rng=args.seed, components=args.components).transcript)
    return 0


def _cmd_advise(args) -> int:
    from .advisor import advise

    print(advise(args.position, components=args.components).to_string(index=False))
    return 0
