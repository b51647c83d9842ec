"""Rule consistency of a decoded LEDA state: knowledge, and pending work a round can reach.

The codec reads the JSON format (shapes, names, each item exactly once); these checks then reject
a well-formed state no game could reach, naming the JSON path at fault.
"""

from __future__ import annotations

from boardbot.engine.jsonread import JsonReader
from boardbot.engine.leda.board import has_won
from boardbot.engine.leda.data import (
    ACTION_TILE_ZONES,
    CAT_ROTATING,
    CATS,
    CLAN_NAMES,
    EFFECTS,
    ITEM_NAMES,
    OP_OR,
    PANDAS,
)
from boardbot.engine.leda.decisions import pile_items
from boardbot.engine.leda.frames import (
    AUTOMATIC,
    F_ACT_TILE,
    F_ACTIVATE,
    F_AWAKEN,
    F_CONFLICT,
    F_COPY,
    F_DESERT_FX,
    F_MULLIGAN,
    F_OR,
    F_ORG,
    F_PAY,
    F_QUEEN,
    F_RING_REVEAL,
    F_RING_ROTATE,
    F_RINGS,
    F_ROTATE_CARD,
    F_ROUND,
    F_ROUND_END,
    F_SEARCH_RING,
    F_SHUFFLE,
    F_SPY_PUT,
    F_STEP,
    F_STEP_END,
    F_UPGRADE,
    F_ZONE,
    FRAME_NAMES,
    SHUFFLE_DECK,
)
from boardbot.engine.leda.rules import legal_actions, shuffle_size
from boardbot.engine.leda.state import KIND, SEAT, Frame, LedaState


def check_state(state: LedaState, root: JsonReader) -> None:
    """Raise InvalidStateError (at `root`'s paths) unless `state` is reachable under the rules."""
    _check_knowledge(state, root)
    _check_phase(state, root)


# Every "A or B" an effect can offer: the (A, B) pairs of the OR operations in the effects.
_OR_CHOICES = frozenset((op[1], op[2]) for ops in EFFECTS for op in ops if op[0] == OP_OR)


def _check_knowledge(state: LedaState, root: JsonReader) -> None:
    """Known items must lie in zones hidden from that seat (not its own hand)."""
    hidden_common = set(state.action_pile) | set(state.mv_pile)
    for seat in (0, 1):
        me, other = state.players[seat], state.players[1 - seat]
        allowed = hidden_common | set(me.deck) | set(other.deck) | set(other.hand)
        for item in sorted(state.known[seat]):
            if item not in allowed:
                # A view's knowledge comes from its hidden parts and has no "knows" field.
                where = root.get("players").child(seat)
                if where.has("knows"):
                    where = where.child("knows")
                raise where.fail(f"{ITEM_NAMES[item]!r} is not in a zone hidden from this seat")


def _check_phase(state: LedaState, root: JsonReader) -> None:
    """The pending frames must describe a reachable point of a round."""
    pending = root.get("pending")
    stack = state.stack
    if state.winner >= 0:
        if stack:
            raise pending.fail("a finished game has no pending work")
        if not has_won(state.players[state.winner]):
            raise root.get("winner").fail("the winner meets no victory condition")
        return
    for seat, p in enumerate(state.players):
        if has_won(p):
            raise (
                root.get("players")
                .child(seat)
                .fail("this player meets a victory condition but the game is not over")
            )
    if not stack:
        raise pending.fail("a game in progress needs pending work")
    bottom = stack[0][KIND]
    if bottom not in (F_ROUND, F_ROUND_END):
        raise pending.child(0).fail("the bottom frame must be a round or round-end frame")
    if bottom == F_ROUND_END and not state.revealed:
        raise root.get("revealed_actions").fail("a round in progress has a revealed tile")
    for seat, p in enumerate(state.players):
        if p.specials and (F_STEP_END, seat) not in stack:
            raise (
                root.get("players")
                .child(seat)
                .get("specials")
                .fail("special activations wait only during that player's activation step")
            )
    has_zone_choice = any(f[KIND] == F_ZONE for f in stack)
    _check_round_counters(state, root, has_zone_choice)
    for i, frame in enumerate(stack):
        kind, seat = frame[KIND], frame[SEAT]
        if kind in (F_ROUND, F_ROUND_END) and seat != state.active:
            raise pending.child(i).child("seat").fail("round frames belong to the active player")
        if kind == F_ZONE:
            _, _, tile = frame
            if not state.revealed or tile != state.revealed[-1]:
                raise pending.child(i).fail("the zone choice must be for the last revealed tile")
        if kind == F_ZONE and state.zone >= 0:
            raise root.get("zone").fail("no zone is chosen while the choice is pending")
        if kind in (F_STEP, F_ACTIVATE) and state.zone < 0 and not has_zone_choice:
            raise root.get("zone").fail("an activation step needs a chosen zone")
        if kind == F_OR:
            _, _, fx_a, fx_b, _ = frame
            if (fx_a, fx_b) not in _OR_CHOICES:
                args = pending.child(i).child("args")
                raise args.fail("no effect offers this choice of two effects")
        if kind == F_ROTATE_CARD:
            _, _, card = frame
            if not any(card in square.cards for square in state.players[seat].grid):
                raise pending.child(i).fail("the card to turn is not on that player's grid")
            if card not in CAT_ROTATING:
                raise pending.child(i).fail("only a rotating Cat card can be turned")
            if state.players[seat].clan != CATS:
                raise pending.child(i).fail("only the Cats rotate cards")
        if _activates(frame) and (F_STEP_END, seat) not in stack:
            raise pending.child(i).fail("activations happen only in that player's activation step")
        if kind == F_PAY:
            _, _, cost = frame
            if cost > len(state.players[seat].hand) or any(
                f[KIND] == F_PAY for f in stack[i + 1 :]
            ):
                raise pending.child(i).fail(
                    "one card play is paid at a time, from the hand it holds"
                )
        clan = _CLAN_FRAMES.get(kind)
        if clan is not None and state.players[seat].clan != clan:
            raise (
                pending.child(i)
                .child("seat")
                .fail(f"only the {CLAN_NAMES[clan].capitalize()} make this decision")
            )
        if kind == F_SPY_PUT:
            _, _, pile, _ = frame
            if not pile_items(state, seat, pile):
                raise pending.child(i).fail("nothing was spied on an empty pile")
        if kind == F_MULLIGAN and state.revealed:
            raise pending.child(i).fail("mulligans happen before the first round")
        if kind == F_SHUFFLE and i != len(stack) - 1:
            raise pending.child(i).fail("a shuffle is always the top frame")
    if (
        state.zone >= 0
        and state.revealed
        and state.zone not in ACTION_TILE_ZONES[state.revealed[-1]]
    ):
        raise root.get("zone").fail("the zone is not offered by the last revealed tile")
    _check_skeleton(state, pending)
    top = stack[-1][KIND]
    if top in AUTOMATIC:
        raise pending.child(len(stack) - 1).fail("the top frame must wait for a decision")
    if top == F_SHUFFLE and shuffle_size(state) < 2:
        raise pending.child(len(stack) - 1).fail(
            f"a shuffle orders at least 2 items (the rules shuffle no smaller pile), "
            f"this pile holds {shuffle_size(state)}"
        )
    if top != F_SHUFFLE and not legal_actions(state):
        raise pending.child(len(stack) - 1).fail("the decision on top offers no legal action")


def _check_round_counters(state: LedaState, root: JsonReader, has_zone_choice: bool) -> None:
    """Zone, Military, the P4 block and the Action pile must fit the point of the round."""
    stack = state.stack
    between_rounds = stack[0][KIND] == F_ROUND
    if between_rounds:
        if state.zone >= 0:
            raise root.get("zone").fail("no zone is chosen between rounds")
        if len(state.action_pile) < 2:
            raise root.get("action_pile").fail(
                "a round starts with at least 2 Action tiles in the pile (else they are shuffled)"
            )
    for seat, p in enumerate(state.players):
        if p.military and (between_rounds or has_zone_choice or (F_STEP, seat) in stack):
            raise (
                root.get("players")
                .child(seat)
                .get("military")
                .fail("Military is gained only once that player's activation step has begun")
            )
    if state.blocked and (between_rounds or has_zone_choice or (F_STEP, state.active) in stack):
        raise root.get("mv_blocked").fail("no Portal can have blocked a round not yet activated")


# Decisions only one clan's own cards or rules can ask for (a Copy resolves the copied
# effect as the Cats' own, and a copied special activation is the Cats' own Draw 1).
_CLAN_FRAMES = {
    F_COPY: CATS, F_SEARCH_RING: CATS, F_RING_REVEAL: CATS, F_RING_ROTATE: CATS, F_RINGS: CATS,
    F_PAY: CATS, F_AWAKEN: PANDAS,
}  # fmt: skip

def _activates(frame: Frame) -> bool:
    """True for a pending decision that activates a square, tile or card when taken."""
    kind = frame[KIND]
    if kind == F_UPGRADE:
        _, _, then_activate = frame
        return then_activate == 1
    return kind in _ACTIVATING


# Decisions that activate something; like every activation, they belong to an activation step.
_ACTIVATING = frozenset({F_ACT_TILE, F_DESERT_FX, F_COPY, F_QUEEN})

# Frames laid out by the round itself (never pushed by an effect).
_SKELETON = frozenset(
    {F_ROUND, F_ROUND_END, F_MULLIGAN, F_ZONE, F_STEP, F_STEP_END, F_ACTIVATE, F_CONFLICT, F_ORG}
)


def _check_skeleton(state: LedaState, pending: JsonReader) -> None:
    """The round's own frames must be what is left, in order, of the layout the round made.

    Between rounds: the round, then the mulligans still to decide (seat after the first player,
    then the first player). In a round: round-end, the two Organizations, the conflict, the two
    activation steps and the zone choice, each gone once done; a begun step is its step-end with
    its activation on top while it lasts. Anything above is work of an effect in progress.
    """
    stack = state.stack
    a, o = state.active, 1 - state.active
    between = stack[0][KIND] == F_ROUND
    layout: tuple[tuple[int, int], ...]
    if between:
        layout = ((F_MULLIGAN, o), (F_MULLIGAN, a))
    else:
        layout = ((F_ORG, o), (F_ORG, a), (F_CONFLICT, a), (F_STEP, o), (F_STEP, a), (F_ZONE, a))
    i, j = 1, 0
    while i < len(stack) and j < len(layout):
        kind, seat = stack[i][KIND], stack[i][SEAT]
        if layout[j] == (F_STEP, seat) and kind == F_STEP_END:
            i += 1  # this step has begun: every later frame of the layout is done
            if i < len(stack) and stack[i][:2] == (F_ACTIVATE, seat):
                i += 1
            break
        if (kind, seat) != layout[j]:
            break
        if kind == F_ZONE and i != len(stack) - 1:
            raise pending.child(i + 1).fail("nothing happens before the zone is chosen")
        i += 1
        j += 1
    for k in range(i, len(stack)):
        kind = stack[k][KIND]
        if kind in _SKELETON or (between and kind != F_SHUFFLE):
            raise pending.child(k).fail(f"a {FRAME_NAMES[kind]!r} frame is out of place here")
        if kind == F_SHUFFLE:
            _, _, what, _ = stack[k]
            if between == (what == SHUFFLE_DECK) or (between and state.revealed):
                raise pending.child(k).fail("this shuffle cannot happen at this point")
