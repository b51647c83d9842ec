"""LEDA as a game: its declared type and the module function behind each role."""

from __future__ import annotations

from boardbot.engine.base import BaseGame
from boardbot.engine.game_type import Chance, GameType, Information
from boardbot.engine.leda import (
    codec,
    components,
    features,
    heuristics,
    knowledge,
    notation,
    render,
    rules,
    setup,
)

GAME_TYPE = GameType(
    name="leda",
    min_players=2,
    max_players=2,
    chance=Chance.SAMPLED,  # shuffles: too many orders to list
    information=Information.IMPERFECT,
    heuristics=True,
    render=True,
    components=components.DATA_FILE,
    native_twin="Leda",
)


class LedaGame(BaseGame):
    """LEDA for two players: stateless rules over immutable `LedaState` values."""

    game_type = GAME_TYPE
    # rules
    new_state = staticmethod(setup.new_state)
    num_players = staticmethod(rules.num_players)
    current_player = staticmethod(rules.current_player)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply_action)
    is_terminal = staticmethod(rules.is_terminal)
    returns = staticmethod(rules.returns)
    scores = staticmethod(rules.scores)
    sample_chance = staticmethod(rules.sample_shuffle)
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
    chance_form = staticmethod(notation.chance_form)
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
    preset_overrides = heuristics.PRESET_OVERRIDES
