"""BLIP-2 at tiny scale: Q-Former queries projected to the text width, neither the ViT's nor the Q-Former's."""

import pytest
from tiny_configs import tiny_config

from ecwidth.errors import ConfigError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec


def test_width_is_the_text_hidden_size():
    config = tiny_config("blip-2")
    expected = config["text_config"]["hidden_size"]
    assert expected not in (config["vision_config"]["hidden_size"], config["qformer_config"]["hidden_size"])
    result = measure(config, device="cpu", dtype="float32")
    assert result.widths == {"image": expected}
    assert result.predicted == result.widths


def test_every_image_is_num_query_tokens():
    config = resolve_spec(tiny_config("blip-2")).config
    adapter = adapter_for("blip-2")
    assert adapter.embed_tokens(config, ItemSize("image", 1000, 300)) == 4
    assert adapter.profile_tokens(config, "image") == 4


def test_a_t5_text_model_needs_d_model():
    config = tiny_config("blip-2")
    config["text_config"] = {"model_type": "t5", "d_kv": 8, "d_ff": 64, "num_layers": 1, "num_heads": 2}
    with pytest.raises(ConfigError, match="text_config.d_model"):
        resolve_spec(config)
