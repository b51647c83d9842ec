"""Training end to end on a small synthetic folder: the model loads with the right shapes, the
card matches the file, the same seed gives the same bytes, and the loss goes down; q_weight
blends the search's root value into the value target (0: the outcome, bit for bit); the data
is held once, minibatches standardised on their own."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from boardbot.cli.main import main
from boardbot.learn import plots
from boardbot.learn.dataset import load_dataset, split_by_game
from boardbot.learn.train import (
    Batch,
    TrainConfig,
    TrainError,
    output_paths,
    standardisation,
    train,
    train_folder,
    value_loss,
    value_targets,
)
from boardbot.search.network import Network, file_sha256
from tests.learn.synthetic import write_folder

CONFIG = TrainConfig(hidden=(32, 16), epochs=3, batch=32, lr=3e-3, seed=5, held_out=0.2)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_folder(tmp_path_factory.mktemp("selfplay") / "data", games=50)


@pytest.fixture(scope="module")
def data_q(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same games as `data`, in format 2: with the search's root values."""
    return write_folder(tmp_path_factory.mktemp("selfplay") / "data", games=50, root_value=True)


def test_training_writes_a_model_its_card_and_figures(data: Path, tmp_path: Path) -> None:
    out = train_folder(data, tmp_path / "m.bbnet", CONFIG, "boardbot train ...")
    net = Network.load(out.model)
    assert (net.game, net.players, net.feature_size, net.action_feature_size) == (
        "synthetic", 2, 24, 16,
    )
    assert net.hidden == (32, 16) and net.features_version == 1
    values, policy = net.forward(np.zeros((3, 24), dtype=np.float32))
    assert values.shape == (3, 2) and policy.shape == (3, 16)
    card_path, curve, calibration = output_paths(out.model)
    card = json.loads(card_path.read_text())
    assert card["sha256"] == file_sha256(out.model) == out.sha256
    assert card["command"] == "boardbot train ..." and card["date"]
    assert card["split"]["train_games"] + card["split"]["held_out_games"] == 50
    assert card["decisions"] == 600 and len(card["epochs"]) == 3
    assert card["hyperparameters"]["hidden"] == [32, 16] and card["seed"] == 5
    assert card["selfplay"]["game"] == "synthetic"
    assert set(card["held_out"]) >= {"value_mse", "policy_ce", "policy_top1"}
    assert net.card["held_out"] == card["held_out"]
    if plots.matplotlib_or_none() is None:
        assert out.notes and "matplotlib" in out.notes[0]
    else:
        assert curve.stat().st_size > 0 and calibration.stat().st_size > 0


def test_the_exported_network_folds_the_standardisation(data: Path, tmp_path: Path) -> None:
    out = train_folder(data, tmp_path / "m.bbnet", CONFIG, "cmd")
    held = out.result.held_out
    assert held is not None
    # The network on raw features reproduces the held-out value MSE measured in training.
    split = split_by_game(load_dataset(data), CONFIG.held_out, CONFIG.seed)
    values, _ = Network.load(out.model).forward(split.held_out.features)
    mse = float(np.mean((values - split.held_out.rewards) ** 2))
    assert mse == pytest.approx(held.value_mse, abs=1e-5)


def test_the_gradients_match_finite_differences(data: Path) -> None:
    whole = load_dataset(data)
    batch = Batch(whole, np.arange(6))
    rng = np.random.default_rng(0)
    z = rng.normal(0.0, 1.0, (6, whole.action_feature_size))
    loss, _, grad_logits = batch.policy(z)
    grad = batch.policy_grad_z(grad_logits)
    eps = 1e-6
    for row, col in [(0, 0), (2, 5), (5, 15), (3, 7), (1, 2)]:
        bumped = z.copy()
        bumped[row, col] += eps
        numeric = (batch.policy(bumped)[0] - loss) / eps
        assert grad[row, col] == pytest.approx(numeric, abs=1e-4)
    u = rng.normal(0.0, 2.0, (6, 2)).astype(np.float64)
    y = rng.random((6, 2))
    for kind in ("bce", "mse"):
        base, _, du = value_loss(u, y, kind)
        for row, col in [(0, 0), (4, 1)]:
            bumped = u.copy()
            bumped[row, col] += eps
            numeric = (value_loss(bumped, y, kind)[0] - base) / eps
            assert du[row, col] == pytest.approx(numeric, abs=1e-4)


def test_the_same_seed_gives_the_same_bytes(data: Path, tmp_path: Path) -> None:
    first = train_folder(data, tmp_path / "a.bbnet", CONFIG, "cmd")
    second = train_folder(data, tmp_path / "b.bbnet", CONFIG, "other cmd")
    assert first.model.read_bytes() == second.model.read_bytes()
    other = TrainConfig(**{**CONFIG.__dict__, "seed": 6})
    third = train_folder(data, tmp_path / "c.bbnet", other, "cmd")
    assert third.model.read_bytes() != first.model.read_bytes()


def test_training_lowers_the_held_out_loss(data: Path, tmp_path: Path) -> None:
    config = TrainConfig(hidden=(32,), epochs=12, batch=32, lr=5e-3, seed=1, held_out=0.2)
    result = train_folder(data, tmp_path / "m.bbnet", config, "cmd").result
    before, after = result.initial_held_out, result.held_out
    assert before is not None and after is not None
    assert after.value_mse < 0.7 * before.value_mse
    assert after.policy < 0.8 * before.policy
    assert after.top1 > before.top1
    assert result.epochs[-1].train_policy < result.epochs[0].train_policy


def test_early_stopping_keeps_the_best_epoch(data: Path, tmp_path: Path) -> None:
    config = TrainConfig(hidden=(16,), epochs=30, batch=16, lr=0.05, seed=0, patience=0)
    result = train_folder(data, tmp_path / "m.bbnet", config, "cmd").result
    assert result.stopped_early and len(result.epochs) < 30
    assert result.best_epoch == len(result.epochs) - 1


def test_bad_settings_are_refused(data: Path, tmp_path: Path) -> None:
    with pytest.raises(TrainError, match="batch must be at least 1"):
        train_folder(data, tmp_path / "m.bbnet", TrainConfig(batch=0), "cmd")
    with pytest.raises(TrainError, match="value_loss"):
        TrainConfig(value_loss="hinge").check()


def test_the_command_trains_and_reports(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cli" / "m.bbnet"
    code = main([
        "train", "--data", str(data), "--out", str(out), "--hidden", "8", "--epochs", "2",
        "--batch", "64", "--seed", "2", "--value-loss", "mse",
    ])
    said = capsys.readouterr()
    assert code == 0, said.err
    assert "epoch   2" in said.out and f"wrote {out}" in said.out
    card = json.loads(out.with_name("m.card.json").read_text())
    assert card["command"].startswith("boardbot train --data ")
    assert "--value-loss mse" in card["command"]
    assert main(["train", "--data", str(tmp_path), "--out", str(out)]) == 1
    assert "no selfplay.json" in capsys.readouterr().err


def test_q_weight_0_trains_on_the_outcomes_bit_for_bit(data: Path, data_q: Path) -> None:
    old, new = load_dataset(data), load_dataset(data_q)
    assert old.root_value is None and new.root_value is not None
    assert value_targets(new, 0.0) is new.rewards  # the outcomes themselves, not a copy
    assert value_targets(old, 0.0) is old.rewards
    # The root values change nothing at q_weight 0: the same network, card and all, as from
    # the folder without them (what training did before q_weight existed).
    first = train(split_by_game(old, CONFIG.held_out, CONFIG.seed), CONFIG)
    second = train(split_by_game(new, CONFIG.held_out, CONFIG.seed), CONFIG)
    assert first.network.to_bytes() == second.network.to_bytes()
    assert "q_weight" not in first.network.card["hyperparameters"]
    assert first.held_out is not None and first.held_out.value_mse_target is None
    assert "value_mse_target" not in first.network.card["held_out"]


@pytest.mark.parametrize("players", [2, 3])
def test_q_weight_blends_the_deciding_seats_target(tmp_path: Path, players: int) -> None:
    whole = load_dataset(write_folder(tmp_path / "d", games=4, players=players, root_value=True))
    assert whole.root_value is not None
    z, q = whole.rewards, whole.root_value
    for w in (0.25, 0.5, 1.0):
        targets = value_targets(whole, w)
        assert targets.dtype == np.float32 and targets.shape == z.shape
        np.testing.assert_allclose(targets[:, 0], (1 - w) * z[:, 0] + w * q, atol=1e-6)
        assert np.array_equal(targets[:, 1:], z[:, 1:])  # the other seats keep the outcome
        assert not np.array_equal(targets[:, 0], z[:, 0])
    assert np.array_equal(value_targets(whole, 1.0)[:, 0], q)
    assert np.array_equal(z, whole.rewards)  # the outcomes are left as they were


def test_q_weight_trains_and_measures_against_the_outcome(data_q: Path, tmp_path: Path) -> None:
    config = TrainConfig(**{**CONFIG.__dict__, "q_weight": 0.5})
    out = train_folder(data_q, tmp_path / "q.bbnet", config, "cmd")
    plain = train_folder(data_q, tmp_path / "z.bbnet", CONFIG, "cmd")
    assert out.model.read_bytes() != plain.model.read_bytes()
    card = json.loads(output_paths(out.model)[0].read_text())
    assert card["hyperparameters"]["q_weight"] == 0.5
    held = out.result.held_out
    assert held is not None and held.value_mse_target is not None
    assert card["held_out"]["value_mse_target"] == pytest.approx(held.value_mse_target, abs=1e-6)
    # value_mse against the outcomes, value_mse_target against the blended targets.
    split = split_by_game(load_dataset(data_q), config.held_out, config.seed)
    values, _ = Network.load(out.model).forward(split.held_out.features)
    z = split.held_out.rewards
    assert float(np.mean((values - z) ** 2)) == pytest.approx(held.value_mse, abs=1e-5)
    blended = value_targets(split.held_out, 0.5)
    assert float(np.mean((values - blended) ** 2)) == pytest.approx(
        held.value_mse_target, abs=1e-5
    )
    again = train_folder(data_q, tmp_path / "q2.bbnet", config, "other")
    assert again.model.read_bytes() == out.model.read_bytes()


def test_q_weight_needs_root_values(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = TrainConfig(**{**CONFIG.__dict__, "q_weight": 0.5})
    with pytest.raises(TrainError, match="folder of format 1, without the search's root values"):
        train_folder(data, tmp_path / "m.bbnet", config, "cmd")
    with pytest.raises(TrainError, match="does not record"):
        train(split_by_game(load_dataset(data), 0.2, 0), config)
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(TrainError, match="q_weight must lie in"):
            TrainConfig(q_weight=bad).check()
    out = tmp_path / "cli.bbnet"
    assert main(["train", "--data", str(data), "--out", str(out), "--q-weight", "0.5"]) == 1
    assert "--q-weight 0.5" in capsys.readouterr().err and not out.exists()


def test_the_command_blends_with_q_weight(
    data_q: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.bbnet"
    code = main(["train", "--data", str(data_q), "--out", str(out), "--hidden", "8",
                 "--epochs", "1", "--seed", "2", "--q-weight", "0.5"])
    said = capsys.readouterr()
    assert code == 0, said.err
    assert "against the blended target (q-weight 0.5)" in said.out
    card = json.loads(out.with_name("m.card.json").read_text())
    assert "--q-weight 0.5" in card["command"]


def test_the_standardisation_is_numpys_mean_and_deviation_bit_for_bit() -> None:
    # Summed a chunk at a time over the training rows, the figures must still be numpy's own
    # (they are folded into the exported model, whose bytes a retraining reproduces): values
    # over many orders of magnitude, so that an addition in another order would show.
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((9000, 7)) * 10.0 ** rng.integers(-9, 9, (9000, 7))).astype(
        np.float32
    )
    x[:, 6] = 2.5  # constant: deviation 1
    rows = np.sort(rng.choice(9000, 6100, replace=False))
    mean, std = standardisation(x, rows)
    expected_std = x[rows].std(axis=0, dtype=np.float64)
    expected_std[expected_std < 1e-6] = 1.0
    assert np.array_equal(mean, x[rows].mean(axis=0, dtype=np.float64).astype(np.float32))
    assert np.array_equal(std, expected_std.astype(np.float32)) and std[6] == 1.0
    whole_mean, _ = standardisation(x)
    assert np.array_equal(whole_mean, x.mean(axis=0, dtype=np.float64).astype(np.float32))


def test_a_minibatch_is_standardised_on_its_own_as_the_whole_would_be(data: Path) -> None:
    whole = load_dataset(data)
    scale = standardisation(whole.features)
    rows = np.array([3, 40, 41, 399])
    batch = Batch(whole, rows, scale)
    standardised = ((whole.features - scale[0]) / scale[1]).astype(np.float32)
    assert np.array_equal(batch.features, standardised[rows])
    targets = value_targets(whole, 0.0) + np.float32(0.25)
    assert np.array_equal(Batch(whole, rows, scale, targets).targets, targets[rows])
    assert np.array_equal(batch.targets, whole.rewards[rows])


def test_training_holds_no_copy_of_the_features(tmp_path: Path) -> None:
    # Training used to copy the training split, standardise it into a third copy and take the
    # deviation through a float64 temporary twice its size: five times the features. Now the
    # split is row numbers and each minibatch is gathered and standardised on its own.
    # What remains is one chunk measured at a time and the held-out tenth for the calibration.
    folder = write_folder(tmp_path / "wide", games=80, decisions_per_game=250, feature_size=400)
    split = split_by_game(load_dataset(folder), 0.1, 0)
    config = TrainConfig(hidden=(8,), epochs=1, batch=256, seed=0, held_out=0.1)
    tracemalloc.start()
    try:
        result = train(split, config)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.best_epoch == 1
    assert peak < 0.75 * split.data.features.nbytes, (peak, split.data.features.nbytes)
