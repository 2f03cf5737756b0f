"""BLIP-2 at tiny scale: Q-Former queries projected to the text width; diff-style hub files; no T5 language model."""

import copy
import json

import pytest

from ecwidth.engines.releases import VLLM_0_32, VLLM_0_33
from ecwidth.errors import NotServedError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_every_image_is_num_query_tokens():
    config = resolve_spec(tiny_config("blip-2")).config
    adapter = adapter_for("blip-2")
    assert adapter.embed_tokens(config, ItemSize("image", 1000, 300)) == 4
    assert adapter.profile_tokens(config, "image") == 4


def diff_style() -> dict:
    """Written for the test, as the hub's BLIP-2 files are: only what differs from the class defaults.

    No vision or Q-Former sizes and no patch size; the text model is small so that it builds quickly.
    """
    return {
        "model_type": "blip-2",
        "num_query_tokens": 3,
        "vision_config": {"model_type": "blip_2_vision_model", "num_hidden_layers": 1, "image_size": 28},
        "qformer_config": {"model_type": "blip_2_qformer", "num_hidden_layers": 1},
        "text_config": {
            "model_type": "opt", "hidden_size": 40, "word_embed_proj_dim": 40, "ffn_dim": 64,
            "num_hidden_layers": 1, "num_attention_heads": 2, "vocab_size": 300,
        },
    }  # fmt: skip


def test_a_diff_style_config_takes_the_class_defaults_it_leaves_out():
    raw = diff_style()
    config = resolve_spec(raw).config
    assert "patch_size" not in raw["vision_config"] and config.vision_config.patch_size  # the class supplies it
    result = measure(raw, device="cpu", dtype="float32")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
    assert result.predicted == result.widths


def t5_config() -> dict:
    """Written for the test: a diff-style BLIP-2 on a small T5, as the FLAN-T5 checkpoints are."""
    raw = diff_style()
    raw["text_config"] = {
        "model_type": "t5", "d_model": 48, "d_kv": 8, "d_ff": 64, "num_layers": 1, "num_heads": 2,
        "is_encoder_decoder": True, "vocab_size": 300,
    }  # fmt: skip
    return raw


@pytest.mark.parametrize("release", [VLLM_0_32, VLLM_0_33])
def test_an_encoder_decoder_language_model_is_not_served(release):
    raw = t5_config()
    with pytest.raises(NotServedError, match="encoder-decoder language model"):
        measure(raw, device="cpu", dtype="float32", engine=release)
    with pytest.raises(NotServedError, match="encoder-decoder language model"):
        predict_widths(raw, engine=release)
    adapter = adapter_for("blip-2")
    assert "encoder_decoder_lm" in adapter.serving_for(release).refuses
    assert adapter.check_served(resolve_spec(diff_style()).config, release).serves  # a decoder-only LM is


def test_the_command_line_says_the_engine_cannot_serve_it(tmp_path, capsys):
    from ecwidth.cli.commands import main

    path = tmp_path / "config.json"
    path.write_text(json.dumps(t5_config()))
    assert main(["measure", "--config", str(path), "--json"]) != 0
    err = capsys.readouterr().err
    assert "encoder-decoder language model" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_t5_width_would_be_d_model_were_it_served():
    raw = t5_config()
    config = resolve_spec(copy.deepcopy(raw)).config
    assert adapter_for("blip-2").predict(config) == {"image": raw["text_config"]["d_model"]}
