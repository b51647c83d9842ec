"""`boardbot train`: a value and policy network from a self-play folder (numpy, seeded)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from boardbot.cli.commands.common import CommandError, run_guarded
from boardbot.learn.train import EpochRecord, TrainConfig, TrainError, train_folder

DEFAULTS = TrainConfig()


def hidden_widths(text: str) -> tuple[int, ...]:
    """`128,64` as (128, 64) (argparse type)."""
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated widths like 128,64, got {text!r}"
        ) from None
    if not widths or any(w < 1 for w in widths):
        raise argparse.ArgumentTypeError(f"every width must be at least 1, got {text!r}")
    return widths


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `train` command."""
    p = sub.add_parser(
        "train",
        help="train a value and policy network on a self-play folder",
        description="Train the learned evaluator (a ReLU MLP with a value and a policy head) "
        "on the shards of a `boardbot selfplay` folder, holding out whole games, stopping "
        "early on the held-out loss. Writes MODEL (.bbnet), MODEL's card (.card.json), its "
        "learning curve (.curve.png) and held-out value calibration (.calibration.png); the "
        "figures need matplotlib (the `ladder` extra). The same data, settings and seed give "
        "the same model bytes.",
    )
    p.add_argument("--data", type=Path, required=True, metavar="DIR", help="self-play folder")
    p.add_argument("--out", type=Path, required=True, metavar="MODEL", help="model file to write")
    p.add_argument(
        "--hidden", type=hidden_widths, default=DEFAULTS.hidden, metavar="W1,W2",
        help="hidden layer widths (default: 128,64)",
    )
    p.add_argument("--epochs", type=int, default=DEFAULTS.epochs, help="most epochs")
    p.add_argument("--batch", type=int, default=DEFAULTS.batch, help="decisions per minibatch")
    p.add_argument("--lr", type=float, default=DEFAULTS.lr, help="Adam's learning rate")
    p.add_argument("--l2", type=float, default=DEFAULTS.l2, help="L2 weight on the weights")
    p.add_argument("--seed", type=int, default=DEFAULTS.seed, help="seeds split, init, order")
    p.add_argument(
        "--patience", type=int, default=DEFAULTS.patience,
        help="epochs without a better held-out loss before stopping",
    )
    p.add_argument(
        "--value-weight", type=float, default=DEFAULTS.value_weight,
        help="weight of the value loss against the policy loss",
    )
    p.add_argument(
        "--value-loss", choices=["bce", "mse"], default=DEFAULTS.value_loss,
        help="value loss on the sigmoid output: cross-entropy (default) or squared error",
    )
    p.add_argument(
        "--held-out", type=float, default=DEFAULTS.held_out,
        help="share of the games held out (default 0.1)",
    )
    p.add_argument(
        "--q-weight", type=float, default=DEFAULTS.q_weight, metavar="W",
        help="blend the search's root value q into the deciding seat's value target: "
        "(1 - W)·outcome + W·q (default 0: the outcome; W > 0 needs a self-play folder of "
        "format 2); held-out figures stay measured against the outcome",
    )
    p.set_defaults(func=lambda args: run_guarded(run_train, args))


def retrain_command(args: argparse.Namespace) -> str:
    """The command line that retrains the model with every setting spelled out."""
    words = [
        "boardbot", "train", "--data", str(args.data), "--out", str(args.out),
        "--hidden", ",".join(str(w) for w in args.hidden), "--epochs", str(args.epochs),
        "--batch", str(args.batch), "--lr", repr(args.lr), "--l2", repr(args.l2),
        "--seed", str(args.seed), "--patience", str(args.patience),
        "--value-weight", repr(args.value_weight), "--value-loss", args.value_loss,
        "--held-out", repr(args.held_out), "--q-weight", repr(args.q_weight),
    ]
    return shlex.join(words)


def _print_epoch(record: EpochRecord) -> None:
    """One line per epoch."""
    held = (
        f"held-out value {record.held_out_value:.4f} policy {record.held_out_policy:.4f}"
        if record.held_out_value is not None and record.held_out_policy is not None
        else "nothing held out"
    )
    print(
        f"epoch {record.epoch:3d}: train value {record.train_value:.4f} policy "
        f"{record.train_policy:.4f} | {held} | {record.seconds:.2f} s",
        flush=True,
    )


def run_train(args: argparse.Namespace) -> int:
    """Train, write the model, card and figures, and print where they are."""
    config = TrainConfig(
        hidden=tuple(args.hidden), epochs=args.epochs, batch=args.batch, lr=args.lr,
        l2=args.l2, seed=args.seed, patience=args.patience, value_weight=args.value_weight,
        value_loss=args.value_loss, held_out=args.held_out, q_weight=args.q_weight,
    )
    try:
        config.check()
        output = train_folder(args.data, args.out, config, retrain_command(args), _print_epoch)
    except TrainError as error:
        raise CommandError(str(error)) from None
    result = output.result
    held = result.held_out
    print(f"best epoch {result.best_epoch}" + (" (stopped early)" if result.stopped_early else ""))
    if held is not None:
        print(
            f"held out ({held.decisions} decisions): value MSE {held.value_mse:.4f}, policy "
            f"cross-entropy {held.policy:.4f}, top-1 agreement {held.top1:.1%}"
        )
        if held.value_mse_target is not None:
            print(f"held-out value MSE against the blended target (q-weight {args.q_weight}): "
                  f"{held.value_mse_target:.4f}")
    print(f"training speed {result.decisions_per_second:,.0f} decisions/s per epoch")
    print(f"wrote {output.model} (sha256 {output.sha256})")
    print(f"wrote {output.card}")
    for figure in (output.curve, output.calibration):
        if figure is not None:
            print(f"wrote {figure}")
    for note in output.notes:
        print(note, file=sys.stderr)
    return 0
