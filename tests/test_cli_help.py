"""Every help text of the CLI, at every depth: it renders, and shows no doubled percent sign (argparse
formats ``help=`` strings with ``%`` but prints ``description=`` as written, so "95%%" there shows as is)."""

import argparse

from pyradice_lab import cli


def _walk(parser: argparse.ArgumentParser, path=()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _walk(child, (*path, name))


def test_every_help_text_renders_without_doubled_percent():
    seen = 0
    for path, parser in _walk(cli.build_parser()):
        text = parser.format_help()
        assert "usage:" in text, path
        assert "%%" not in text, f"{' '.join(path) or 'top'} --help shows '%%':\n{text}"
        seen += 1
    assert seen > 40  # the top level, the shared subcommands and every game's own


def test_compare_help_says_95_percent_ci():
    parser = dict(_walk(cli.build_parser()))[("meerkat", "compare")]
    assert "95% CI" in " ".join(parser.format_help().split())
