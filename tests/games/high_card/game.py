"""High Card as a game: its declared type and the module function behind each role."""

from __future__ import annotations

from boardbot.engine.base import BaseGame
from boardbot.engine.game_type import Chance, GameType, Information
from tests.games.high_card import codec, knowledge, rules


class HighCardGame(BaseGame):
    """Two seats, one hidden card each; keep it or redraw once; the higher card wins."""

    game_type = GameType(
        name="high_card",
        min_players=2,
        max_players=2,
        chance=Chance.LISTED,
        information=Information.IMPERFECT,
    )
    new_state = staticmethod(rules.new_state)
    num_players = staticmethod(rules.num_players)
    current_player = staticmethod(rules.current_player)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)
    returns = staticmethod(rules.returns)
    scores = staticmethod(rules.scores)
    chance_outcomes = staticmethod(rules.chance_outcomes)
    observe = staticmethod(knowledge.observe)
    determinize = staticmethod(knowledge.determinize)
    describe_options = staticmethod(rules.describe_options)
    state_to_json = staticmethod(codec.state_to_json)
    state_from_json = staticmethod(codec.state_from_json)
    action_to_json = staticmethod(codec.action_to_json)
    action_from_json = staticmethod(codec.action_from_json)
    action_to_str = staticmethod(codec.action_to_str)
    action_from_str = staticmethod(codec.action_from_str)
