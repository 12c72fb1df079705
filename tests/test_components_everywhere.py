"""``components=`` everywhere: every entry point takes a path or loaded components (and refuses anything else
with a TypeError naming ``components``), and the components given are the ones played."""

import importlib

import numpy as np
import pytest


def _meerkat():
    from pyradice_lab.meerkat import analysis as a, odds, sim, sweeps

    return [
        ("simulate_games", lambda c: sim.simulate_games(2, players=3, rng=1, components=c, engine="python")),
        ("play_game", lambda c: sim.play_game(3, rng=1, components=c, engine="python")),
        ("placement_odds", lambda c: odds.placement_odds(7, 2, components=c)),
        ("placement_table", lambda c: odds.placement_table(components=c)),
        ("automa_placement_table", lambda c: odds.automa_placement_table(components=c)),
        ("tile_fairness", lambda c: a.tile_fairness(2, rng=1, components=c, engine="python")),
        ("value_sweep", lambda c: a.value_sweep(2, exponents=(1.0,), rng=1, components=c, engine="python")),
        ("seat_advantage", lambda c: a.seat_advantage([(3, False)], 2, rng=1, components=c, engine="python")),
        ("automa_strength", lambda c: a.automa_strength(2, setups=((1, "greedy"),), rng=1, components=c,
                                                        engine="python")),
        ("feature_value", lambda c: a.feature_value(2, variants={"base": {}}, rng=1, components=c, engine="python")),
        ("hazard_impact", lambda c: a.hazard_impact(2, rng=1, components=c, engine="python")),
        ("reading_impact", lambda c: a.reading_impact(2, setups=((3, False),), rng=1, components=c,
                                                      engine="python")),
        ("sweep games_cell", lambda c: sweeps.games_cell({"players": 3, "components": c}, 2, 1)),
    ]


def _raft():
    from pyradice_lab.raft import analysis as a, calibration, layouts, odds, rules, sim, sweeps, tilting

    def ref(c):
        return layouts.reference_state(4, c)

    obs = [{"edge": "north", "duration": d, "fallen": f} for d, f in [(0.5, 2), (1.0, 5), (2.0, 9)]]
    return [
        ("simulate_games", lambda c: sim.simulate_games(2, 3, rng=1, components=c)),
        ("play_game", lambda c: rules.play_game(3, rng=1, components=c)),
        ("RandomSetup", lambda c: layouts.RandomSetup(4, c)),
        ("setup_state", lambda c: layouts.setup_state(4, 1, components=c)),
        ("reference_state", ref),
        ("tilt", lambda c: tilting.tilt(ref(c), "north", "centre", 1.0, n=5, rng=1, components=c)),
        ("tilt_distribution", lambda c: tilting.tilt_distribution(ref(c), "north", "centre", 1.0, trials=50, rng=1,
                                                                  components=c)),
        ("fallen_total_pmf", lambda c: odds.fallen_total_pmf(ref(c), "north", "centre", 1.0, components=c)),
        ("expected_fallen", lambda c: odds.expected_fallen(ref(c), "north", "centre", 1.0, components=c)),
        ("chance_at_least", lambda c: odds.chance_at_least(ref(c), "north", "centre", 1.0, components=c, red=1)),
        ("check_state", lambda c: odds.check_state(np.zeros((9, 4), int), c)),
        ("setup_ring_black_pmf", lambda c: odds.setup_ring_black_pmf(4, c)),
        ("deck_points_pmf", lambda c: odds.deck_points_pmf(c)),
        ("calibrate", lambda c: calibration.calibrate(obs, fit=["drop_rate"], components=c)),
        ("loglik", lambda c: calibration.loglik(obs, components=c)),
        ("tilt_model", lambda c: a.tilt_model(4, durations=[1.0], components=c)),
        ("card_fairness", lambda c: a.card_fairness(4, 1, components=c)),
        ("gem_mix", lambda c: a.gem_mix([3], 2, 1, components=c)),
        ("flag_depth", lambda c: a.flag_depth([10, 12], 2, 1, components=c)),
        ("greed_curve", lambda c: a.greed_curve([1.0], 2, 1, components=c)),
        ("dexterity", lambda c: a.dexterity([0.2], 2, 1, components=c)),
        ("sinking", lambda c: a.sinking(2, 1, players=(3,), components=c)),
        ("sweep games_cell", lambda c: sweeps.games_cell({"players": 3, "components": c}, 2, 1)),
        ("sweep tilt_cell", lambda c: sweeps.tilt_cell({"components": c}, 20, 1)),
    ]


def _purramid():
    from pyradice_lab.purramid import advisor, analysis as a, components, rules, sim, sweeps, turns

    return [
        ("simulate_games", lambda c: sim.simulate_games(2, players=3, rng=1, components=c)),
        ("play_game", lambda c: rules.play_game(3, rng=1, components=c)),
        ("new_game", lambda c: rules.new_game(2, components=c)),
        ("simulate_turns", lambda c: turns.simulate_turns(5, "A", policy="greedy", rng=1, components=c)),
        ("advise", lambda c: advisor.advise("A", placed=[(0, 3)], dice_left=4, components=c)),
        ("turn_policy", lambda c: advisor.turn_policy("A", components.load_layout("A").spaces[:50], components=c)),
        ("load_layout", lambda c: components.load_layout("B", c)),
        ("situations", lambda c: a.situations("A", components=c)),
        ("game_cells", lambda c: a.game_cells((2,), ("A",), 2, "greedy", 1, components=c)),
        ("sample_positions", lambda c: a.sample_positions("A", 2, 2, "greedy", 1, components=c)),
        ("sweep games_cell", lambda c: sweeps.games_cell({"players": 2, "components": c}, 2, 1)),
        ("sweep turns_cell", lambda c: sweeps.turns_cell({"components": c}, 5, 1)),
    ]


def _pyradice():
    from pyradice_lab.pyradice import analysis as a, components, odds, sim, sweeps

    return [
        ("simulate_games", lambda c: sim.simulate_games(2, 2, rng=1, components=c)),
        ("play_game", lambda c: sim.play_game(2, rng=1, components=c)),
        ("Setup", lambda c: components.Setup(components=c)),
        ("Setup.default", lambda c: components.Setup.default(c)),
        ("Setup.random", lambda c: components.Setup.random(rng=1, components=c)),
        ("blind_goal_probability", lambda c: odds.blind_goal_probability("C3", 4, components=c)),
        ("blind_goal_table", lambda c: odds.blind_goal_table(c)),
        ("available_by_turn", lambda c: a.available_by_turn(2, policies=("greedy",), rng=1, components=c)),
        ("goal_rates", lambda c: a.goal_rates(2, policies=("greedy",), rng=1, components=c)),
        ("skill_values", lambda c: a.skill_values(2, rng=1, components=c)),
        ("card_balance", lambda c: a.card_balance(2, rng=1, groups=(("Many", "Height", "Pairs", "Big"),),
                                                  components=c)),
        ("first_player_advantage", lambda c: a.first_player_advantage(2, (2,), rng=1, components=c)),
        ("reconstructed_components", lambda c: a.reconstructed_components(c)),
        ("sweep games_cell", lambda c: sweeps.games_cell({"players": 2, "components": c}, 2, 1)),
    ]


ENTRY_POINTS = {"meerkat": _meerkat, "raft": _raft, "purramid": _purramid, "pyradice": _pyradice}
CASES = [(g, name) for g, make in ENTRY_POINTS.items() for name, _ in make()]
#: exact enumerations of several seconds each: their components= path is checked for the type only
EXPENSIVE = {("pyradice", "blind_goal_table")}


def _call(game, name):
    return dict(ENTRY_POINTS[game]())[name]


def _comp(game):
    return importlib.import_module(f"pyradice_lab.{game}.components").default_components()


@pytest.mark.parametrize(("game", "name"), CASES)
def test_a_bad_type_is_a_type_error_naming_components(game, name):
    with pytest.raises(TypeError, match="components must be a path to a .* components file"):
        _call(game, name)(3.5)
    with pytest.raises(ValueError, match="no such file"):
        _call(game, name)("missing-components.toml")


@pytest.mark.slow
@pytest.mark.parametrize(("game", "name"), CASES)
def test_a_path_and_an_object_are_accepted(game, name, tmp_path):
    if (game, name) in EXPENSIVE:
        pytest.skip("seconds of exact enumeration; blind_goal_probability takes the same path")
    comp = _comp(game)
    path = comp.dump(tmp_path / "c.toml")
    for value in (str(path), comp):
        _call(game, name)(value)


def _sim(game, components):
    if game == "meerkat":
        from pyradice_lab.meerkat import simulate_games

        df = simulate_games(20, players=3, rng=4, components=components, engine="python")
        return df[["score_0", "score_1", "score_2"]].to_numpy().sum()
    if game == "raft":
        from pyradice_lab.raft import simulate_games

        df = simulate_games(20, 3, rng=4, components=components)
        return df[["score_0", "score_1", "score_2"]].to_numpy().sum()
    if game == "purramid":
        from pyradice_lab.purramid import simulate_games

        return simulate_games(20, players=3, rng=4, components=components)["turns"].to_numpy()
    from pyradice_lab.pyradice import simulate_games

    return simulate_games(20, 2, rng=4, components=components)["card1_s0"].to_numpy()


VARIANTS = {   # a change whose effect on the same games is known
    "meerkat": {f"tile.{t}.values": ([90, 40] if t <= 8 else [90, 40, 20]) for t in range(3, 13)},
    "raft": {f"card.{i}.points": 50 for i in range(1, 40)},
    "purramid": {"turn_limit": 1},
    "pyradice": {"card.Many.table": [0, 10, 20, 30, 40, 50, 60, 70, 80]},
}


@pytest.mark.slow
@pytest.mark.parametrize("game", list(ENTRY_POINTS))
def test_the_components_given_are_the_ones_played(game, tmp_path):
    comp = _comp(game)
    variant = comp.replace(VARIANTS[game])
    path = variant.dump(tmp_path / "variant.toml")
    base, by_object, by_path = _sim(game, None), _sim(game, variant), _sim(game, path)
    assert np.array_equal(by_object, by_path)
    if game == "purramid":
        assert (by_path == 1).all() and (base > 1).all()
    elif game == "pyradice":
        assert (by_path >= base).all() and (by_path > base).any()
    else:
        assert by_path > base
