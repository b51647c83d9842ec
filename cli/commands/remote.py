"""Client-side helpers of the commands that call a server (they import gRPC)."""

from __future__ import annotations

import argparse
from pathlib import Path

from boardbot.cli.commands.common import search_overrides
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.service.client import BotClient, open_channel


def search_settings(args: argparse.Namespace) -> pb.SearchSettings:
    """The SearchSettings message of the explicitly given search flags."""
    return pb.SearchSettings(**search_overrides(args))


def connect(args: argparse.Namespace) -> BotClient:
    """A client for the server named by the server flags."""
    channel = open_channel(args.server, Path(args.tls_ca) if args.tls_ca else None)
    return BotClient(channel, args.token, args.timeout)


def choose_move_request(
    args: argparse.Namespace, state_json: bytes, seat: int, seed: int
) -> pb.ChooseMoveRequest:
    """The ChooseMove request of the search flags for `seat` in a state."""
    return pb.ChooseMoveRequest(
        game=args.game,
        state_json=state_json,
        seat=seat,
        preset=args.preset,
        settings=search_settings(args),
        seed=seed,
        target_elo=args.elo,
    )


def analyze_request(args: argparse.Namespace, state_json: bytes, seat: int) -> pb.AnalyzeRequest:
    """The Analyze request of the search flags and `--top-k` for `seat` in a state."""
    return pb.AnalyzeRequest(
        game=args.game,
        state_json=state_json,
        seat=seat,
        preset=args.preset,
        settings=search_settings(args),
        seed=args.seed,
        top_k=args.top_k,
        target_elo=args.elo,
    )
