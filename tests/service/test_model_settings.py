"""The learned evaluator over RPC: `SearchSettings.model` (shipped names only) with
`leaf_lambda`, `puct` and `fpu`, and the network's figures in each MoveAnalysis."""

from __future__ import annotations

from pathlib import Path

import grpc
import orjson
import pytest

from boardbot.cli.commands.analyze import analysis_table
from boardbot.cli.main import main
from boardbot.jobs import game_ops
from boardbot.jobs.failures import FailureKind, Reason, RequestError
from boardbot.jobs.settings import Limits, check_model_name, resolve
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search import models
from boardbot.search.api import SearchConfig
from boardbot.search.network import random_network
from boardbot.service import convert
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native
from tests.service.positions import decision_state, load
from tests.service.servers import Served, error_details

NAME = "legend_raiders-2p"

in_process = pytest.mark.skipif(
    boardbot_native is None,
    reason=f"{NOT_BUILT}: the Python engine's searches run in worker processes, which do not "
    "see the test's models folder",
)


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A models folder shipping a random `legend_raiders-2p` model, in place of the package's
    (the native searches of an in-process server read it in this process)."""
    game = load("legend_raiders")
    network = random_network(
        game.feature_size(2),
        game.action_feature_size(),
        hidden=(8,),
        players=2,
        seed=3,
        game=game.name,
        features_version=game.features_version,
    )
    network.save(tmp_path / f"{NAME}.bbnet")
    monkeypatch.setattr(models, "MODELS_DIR", tmp_path)
    return tmp_path


def _analyze(settings: pb.SearchSettings, top_k: int = 0) -> pb.AnalyzeRequest:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=5)
    return pb.AnalyzeRequest(
        game="legend_raiders",
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        settings=settings,
        seed=3,
        top_k=top_k,
    )


@in_process
def test_an_analysis_with_a_shipped_model_shows_the_networks_figures(
    served: Served, shipped: Path
) -> None:
    settings = pb.SearchSettings(iterations=60, model=NAME, leaf_lambda=0.5, puct=2.0, fpu=0.1)
    reply = served.stub.Analyze(_analyze(settings), timeout=30)
    assert reply.moves
    for move in reply.moves:
        assert move.HasField("prior") and move.HasField("net_value")
        assert 0.0 <= move.prior <= 1.0
        assert 0.0 <= move.net_value <= 1.0
    assert sum(m.prior for m in reply.moves) == pytest.approx(1.0, abs=1e-5)
    used = reply.stats.settings
    assert (used.model, used.leaf_lambda, used.puct, used.fpu) == (NAME, 0.5, 2.0, 0.1)
    table = analysis_table(reply.moves)
    assert table.splitlines()[0].split()[:7] == [
        "#", "move", "visits", "value", "lower", "prior", "net"
    ]
    top = table.splitlines()[1].split()
    assert top[5] == f"{reply.moves[0].prior:.3f}"
    assert top[6] == f"{reply.moves[0].net_value:.3f}"


def test_without_a_model_the_analysis_is_as_before(served: Served) -> None:
    settings = pb.SearchSettings(iterations=40, model="none")
    reply = served.stub.Analyze(_analyze(settings), timeout=30)
    assert reply.moves
    assert not any(m.HasField("prior") or m.HasField("net_value") for m in reply.moves)
    used = reply.stats.settings
    assert used.model == ""
    assert not any(used.HasField(key) for key in ("leaf_lambda", "puct", "fpu"))
    header = analysis_table(reply.moves).splitlines()[0]
    assert header.split() == ["#", "move", "visits", "value", "lower", "line"]


@in_process
def test_an_analysis_takes_the_shipped_model_of_its_player_count_by_default(
    served: Served, shipped: Path
) -> None:
    reply = served.stub.Analyze(_analyze(pb.SearchSettings(iterations=40)), timeout=30)
    assert reply.stats.settings.model == NAME
    assert all(m.HasField("prior") and m.HasField("net_value") for m in reply.moves)
    auto = served.stub.Analyze(_analyze(pb.SearchSettings(iterations=40, model="auto")))
    assert auto.stats.settings.model == NAME
    assert [m.move.notation for m in auto.moves] == [m.move.notation for m in reply.moves]
    listed = served.stub.ListGames(pb.ListGamesRequest(), timeout=30)
    raiders = next(g for g in listed.games if g.name == "legend_raiders")
    assert {p.analysis_settings.model for p in raiders.presets} == {"auto"}
    assert {p.name: p.settings.model for p in raiders.presets} == {
        "beginner": "",
        "easy": "",
        "medium": "",
        "hard": "",
        "expert": "auto",
    }


@in_process
def test_a_move_to_play_takes_a_model_at_expert_alone(served: Served, shipped: Path) -> None:
    analysis = _analyze(pb.SearchSettings(iterations=40))
    request = pb.ChooseMoveRequest(
        game=analysis.game, state_json=analysis.state_json, seat=analysis.seat, seed=3
    )
    reply = served.stub.ChooseMove(request, timeout=30)
    assert reply.stats.settings.model == ""
    assert not reply.analysis.HasField("prior")
    request.preset = "expert"
    request.settings.iterations = 40
    expert = served.stub.ChooseMove(request, timeout=30)
    assert expert.stats.settings.model == NAME
    assert expert.analysis.HasField("prior") and expert.analysis.HasField("net_value")


def test_none_turns_a_presets_model_off_and_auto_passes() -> None:
    for name in ("auto", "none"):
        check_model_name(name)
    config = resolve("hard", {"model": "none"}, Limits(), "legend_raiders", analysis=True)
    assert config.model is None
    assert resolve("hard", {}, Limits(), "leda", analysis=True).model is None


def _refused(served: Served, settings: pb.SearchSettings) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        served.stub.Analyze(_analyze(settings), timeout=30)
    return info.value


@in_process
@pytest.mark.parametrize(
    ("settings", "field", "says"),
    [
        (pb.SearchSettings(model="/etc/passwd"), "settings.model", "not a path"),
        (pb.SearchSettings(model="../models/legend_raiders-2p.bbnet"), "settings.model",
         "not a path"),
        (pb.SearchSettings(model="legend_raiders-2p.bbnet"), "settings.model", "not a path"),
        (pb.SearchSettings(model="leda-2p"), "settings.model", "no shipped model named"),
        (pb.SearchSettings(model=NAME, leaf_lambda=1.5), "settings.leaf_lambda", "[0, 1]"),
        (pb.SearchSettings(model=NAME, leaf_lambda=float("nan")), "settings.leaf_lambda",
         "[0, 1]"),
        (pb.SearchSettings(model=NAME, puct=-1.0), "settings.puct", "[0, 100]"),
        (pb.SearchSettings(model=NAME, fpu=2.0), "settings.fpu", "[-1, 1]"),
    ],
)
def test_model_settings_are_checked_by_the_server(
    served: Served, shipped: Path, settings: pb.SearchSettings, field: str, says: str
) -> None:
    settings.iterations = 10
    error = _refused(served, settings)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert says in (error.details() or "")
    info, violations = error_details(error)
    assert info.reason == Reason.INVALID_SETTINGS
    assert info.metadata["field"] == field
    assert violations and violations[0][0] == field


@in_process
def test_a_model_for_another_player_count_is_refused(
    served: Served, shipped: Path
) -> None:
    game = load("legend_raiders")
    three = random_network(
        game.feature_size(3), game.action_feature_size(), hidden=(4,), players=3,
        game=game.name, features_version=game.features_version,
    )
    three.save(shipped / "legend_raiders-3p.bbnet")
    error = _refused(served, pb.SearchSettings(iterations=10, model="legend_raiders-3p"))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "the model does not fit" in (error.details() or "")


@pytest.mark.parametrize(
    "name", ["/tmp/x.bbnet", "x.bbnet", "LEDA-2p", "leda-2", "leda-10p", "./leda-2p", "", "a" * 99]
)
def test_only_names_of_the_shipped_form_pass(name: str, shipped: Path) -> None:
    with pytest.raises(RequestError) as info:
        check_model_name(name)
    assert info.value.kind is FailureKind.INVALID_ARGUMENT
    assert info.value.field == "settings.model"
    assert "not a path" in info.value.message


def test_a_shipped_name_resolves_onto_the_config(shipped: Path) -> None:
    check_model_name(NAME)
    with pytest.raises(RequestError, match="no shipped model named 'leda-2p' \\(shipped: "
                       "legend_raiders-2p\\)"):
        check_model_name("leda-2p")
    overrides = {"model": NAME, "leaf_lambda": 0.25, "puct": 3.0, "fpu": -0.5}
    config = resolve("easy", overrides, Limits(), "legend_raiders")
    assert (config.model, config.leaf_lambda, config.puct, config.fpu) == (NAME, 0.25, 3.0, -0.5)


def test_the_proto_carries_the_new_fields() -> None:
    plain = pb.MoveAnalysis(rank=1, visits=3, value=0.5)
    assert not plain.HasField("prior") and not plain.HasField("net_value")
    again = pb.MoveAnalysis.FromString(plain.SerializeToString())
    assert not again.HasField("prior") and not again.HasField("net_value")
    full = pb.MoveAnalysis(rank=1, visits=3, value=0.5, prior=0.0, net_value=0.75)
    back = pb.MoveAnalysis.FromString(full.SerializeToString())
    assert back.HasField("prior") and back.prior == 0.0
    assert back.net_value == 0.75
    settings = pb.SearchSettings(model=NAME, leaf_lambda=0.0, puct=1.0, fpu=0.0)
    read = pb.SearchSettings.FromString(settings.SerializeToString())
    assert convert.settings_overrides(read) == {
        "model": NAME, "leaf_lambda": 0.0, "puct": 1.0, "fpu": 0.0
    }
    assert convert.settings_overrides(pb.SearchSettings(iterations=5)) == {"iterations": 5}


def test_the_settings_echo_never_shows_a_model_path() -> None:
    config = SearchConfig(model="/srv/models/secret.bbnet")
    message = convert.settings_message(config)
    assert message.model == ""
    assert message.HasField("leaf_lambda")  # the model's settings show that one was used
    assert convert.settings_message(SearchConfig()) == pb.SearchSettings(
        iterations=1000, workers=1, exploration=0.7, temperature=0.0
    )


@in_process
def test_the_commands_show_the_networks_figures(
    served: Served, shipped: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    game = load("legend_raiders")
    path.write_bytes(game_ops.encode_state(game, decision_state(game, {"players": 2}, seed=5)))
    common = ["--game", "legend_raiders", "--state", str(path), "--iterations", "40",
              "--server", served.address]
    assert main(["analyze", *common, "--top-k", "3", "--model", NAME, "--puct", "2"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["#", "move", "visits", "value", "lower", "prior", "net", "line"]
    for row in table[1:4]:
        prior, net = (float(x) for x in row.split()[5:7])
        assert 0.0 <= prior <= 1.0 and 0.0 <= net <= 1.0
    assert main(["move", *common, "--model", NAME]) == 0
    assert "  network     prior " in capsys.readouterr().out
    assert main(["move", *common, "--model", NAME, "--json"]) == 0
    answer = orjson.loads(capsys.readouterr().out)
    assert 0.0 <= answer["prior"] <= 1.0 and 0.0 <= answer["net_value"] <= 1.0
    assert main(["move", *common, "--json"]) == 0
    assert "prior" not in orjson.loads(capsys.readouterr().out)
    assert main(["analyze", *common, "--model", "/etc/passwd"]) != 0
    assert "settings.model" in capsys.readouterr().err
