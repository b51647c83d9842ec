"""Legend Raiders as a game: its declared type and the module function behind each role."""

from __future__ import annotations

from boardbot.engine.base import BaseGame
from boardbot.engine.game_type import Chance, GameType, Information
from boardbot.engine.legend_raiders import (
    chance,
    codec,
    components,
    features,
    heuristics,
    knowledge,
    notation,
    render,
    rules,
    scoring,
    setup,
)

GAME_TYPE = GameType(
    name="legend_raiders",
    min_players=2,
    max_players=4,
    chance=Chance.LISTED,  # die rolls, tool draws and reveals, each with its outcomes listed
    information=Information.IMPERFECT,
    heuristics=True,
    render=True,
    components=components.DATA_FILE,
    native_twin="LegendRaiders",
)


class LegendRaidersGame(BaseGame):
    """Legend Raiders for 2-4 players, with the die or diceless (see docs/legend_raiders/)."""

    game_type = GAME_TYPE
    # rules
    new_state = staticmethod(setup.new_state)
    num_players = staticmethod(rules.num_players)
    current_player = staticmethod(rules.current_player)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)
    is_terminal = staticmethod(rules.is_terminal)
    returns = staticmethod(scoring.returns)
    scores = staticmethod(scoring.scores)
    chance_outcomes = staticmethod(chance.chance_outcomes)
    sample_chance = staticmethod(chance.sample_chance)
    # knowledge
    observe = staticmethod(knowledge.observe)
    determinize = staticmethod(knowledge.determinize)
    # codec
    describe_options = staticmethod(setup.describe_options)
    state_to_json = staticmethod(codec.state_to_json)
    state_from_json = staticmethod(codec.state_from_json)
    action_to_json = staticmethod(notation.action_to_json)
    action_from_json = staticmethod(notation.action_from_json)
    action_to_str = staticmethod(notation.action_to_str)
    action_from_str = staticmethod(notation.action_from_str)
    render = staticmethod(render.render)
    # heuristics
    evaluate = staticmethod(heuristics.evaluate)
    policy_weights = staticmethod(heuristics.policy_weights)
    # features (learned evaluation)
    features_version = features.FEATURES_VERSION
    feature_size = staticmethod(features.feature_size)
    action_feature_size = staticmethod(features.action_feature_size)
    action_features = staticmethod(features.action_features)
    features = staticmethod(features.features)
