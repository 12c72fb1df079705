"""Placeholder (filled in next step)."""


def sweep_games_cell(params, trials, rng):
    raise NotImplementedError


def sweep_tilt_cell(params, trials, rng):
    raise NotImplementedError
