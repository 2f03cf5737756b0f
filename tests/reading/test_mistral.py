"""Mistral-format checkpoints: a ``params.json`` read as vLLM's ``--config-format mistral`` reads it."""

import json
from pathlib import Path

import pytest

from ecwidth.cli.commands import main
from ecwidth.errors import ConfigError, EcwidthError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec

#: The tiny Mistral-format checkpoints' params.json, which benchmarks/vllm_live runs through vLLM too.
MISTRAL_TINY = Path(__file__).parents[1] / "tiny" / "mistral"


def pixtral_params(**changes) -> dict:
    """A small Pixtral ``params.json`` in Mistral's field names, every width apart: ``dim`` 48, encoder 24."""
    params = {
        "dim": 48, "n_layers": 1, "head_dim": 16, "hidden_dim": 64, "n_heads": 3, "n_kv_heads": 1,
        "rope_theta": 1e9, "norm_eps": 1e-5, "vocab_size": 128,
        "vision_encoder": {"hidden_size": 24, "num_channels": 3, "image_size": 64, "patch_size": 16,
                           "rope_theta": 1e4, "intermediate_size": 32, "num_hidden_layers": 1,
                           "num_attention_heads": 2, "image_token_id": 10},
    }  # fmt: skip
    params.update(changes)
    return params


def voxtral_params(**encoder_changes) -> dict:
    """The tiny Voxtral ``params.json`` (Mistral's names), every width apart: ``dim`` 40, encoder 16 (× 4 merged)."""
    params = json.loads((MISTRAL_TINY / "voxtral.json").read_text())
    params["multimodal"]["whisper_model_args"]["encoder_args"].update(encoder_changes)
    return params


def checkpoint(tmp_path, params) -> str:
    (tmp_path / "params.json").write_text(json.dumps(params))
    return str(tmp_path)


@pytest.mark.parametrize("dim", [48, 5120])
def test_a_folder_with_params_json_ships_the_text_dim(tmp_path, dim):
    params = pixtral_params(dim=dim)
    spec = resolve_spec(checkpoint(tmp_path, params))
    assert spec.model_type == "pixtral" and spec.name == tmp_path.name
    assert predict_widths(spec) == {"image": params["dim"]}
    assert predict_widths(spec)["image"] != params["vision_encoder"]["hidden_size"]


def test_the_multimodal_spelling_of_the_vision_encoder_is_read_too(tmp_path):
    params = pixtral_params()
    params["multimodal"] = {"vision_encoder_args": params.pop("vision_encoder")}
    assert predict_widths(resolve_spec(checkpoint(tmp_path, params))) == {"image": params["dim"]}


def test_config_json_is_read_before_params_json(tmp_path):
    checkpoint(tmp_path, pixtral_params())
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "not-a-model"}))
    with pytest.raises(EcwidthError, match="not-a-model"):
        resolve_spec(str(tmp_path))


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"dim": 0}, "'dim' .* must be a positive whole number, got 0"),
        ({"dim": "4096"}, "'dim' .* must be a positive whole number"),
        ({"vision_encoder": None}, "no vision encoder .* text-only"),
        ({"vision_encoder": {"hidden_size": 24}}, "lack 'patch_size', 'image_size', 'num_hidden_layers'"),
        ({"vision_encoder": None, "multimodal": {"whisper_model_args": {"encoder_args": {}}}}, "no Whisper encoder"),
        ({"vision_encoder": None, "multimodal": {"whisper_model_args": [1]}}, "whisper_model_args' must be an obj"),
        (
            {"vision_encoder": None, "multimodal": {"whisper_model_args": {"encoder_args": {"dim": 16}}}},
            "must hold the objects 'encoder_args' and 'downsample_args'",
        ),
        ({"multimodal": voxtral_params()["multimodal"]}, "both a vision encoder and a Whisper encoder"),
        ({"vision_encoder": None, **voxtral_params(n_heads=None)}, "'encoder_args.n_heads' must be positive"),
        ({"vision_encoder": None, **voxtral_params(hidden_dim=48)}, r"hidden_dim \(48\) is not dim × downsample"),
    ],
)
def test_absurd_or_missing_fields_are_one_error_line_that_says_what_to_do(tmp_path, capsys, changes, says):
    path = checkpoint(tmp_path, pixtral_params(**changes))
    with pytest.raises(ConfigError, match=says):
        resolve_spec(path)
    assert main(["predict", "--config", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error:") and err.count("\n") == 1


def test_a_voxtral_params_json_is_read_as_vllms_voxtral_config_and_measured(tmp_path):
    """vLLM merges ``downsample_factor`` encoder rows and ships its adapter's output: the text ``dim``."""
    from ecwidth.measuring.measure import measure

    params = voxtral_params()
    spec = resolve_spec(checkpoint(tmp_path, params))
    encoder = params["multimodal"]["whisper_model_args"]["encoder_args"]
    assert spec.model_type == "voxtral"
    assert spec.config.audio_config.hidden_size == encoder["dim"] != params["dim"]
    assert predict_widths(spec) == {"audio": params["dim"]}
    assert measure(spec, device="cpu", progress=False).widths == {"audio": params["dim"]}


def test_a_voxtral_realtime_params_json_ships_vllms_pooled_conv_rows_not_the_text_dim(tmp_path):
    """A causal encoder is vLLM's VoxtralRealtimeGeneration: conv rows pooled ``downsample_factor`` at a time."""
    from ecwidth.measuring.measure import measure

    params = json.loads((MISTRAL_TINY / "voxtral_realtime.json").read_text())
    whisper = params["multimodal"]["whisper_model_args"]
    pooled = whisper["encoder_args"]["dim"] * whisper["downsample_args"]["downsample_factor"]
    spec = resolve_spec(checkpoint(tmp_path, params))
    assert (spec.model_type, spec.config.architectures) == ("voxtral_realtime", ["VoxtralRealtimeGeneration"])
    assert predict_widths(spec) == {"audio": pooled} and pooled != params["dim"]
    assert measure(spec, device="cpu", progress=False).widths == {"audio": pooled}
