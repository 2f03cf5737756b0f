"""Idefics2 at tiny scale: the perceiver's latents at the text width, neither the tower's nor the MLP's inner width."""

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.encode import dummy_shapes
from ecwidth.reading.configs import resolve_spec
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size():
    raw = tiny_config("idefics2")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}


def test_any_image_is_resampled_to_the_latent_count():
    raw = tiny_config("idefics2")
    latents = raw["perceiver_config"]["resampler_n_latents"]
    model = build_on_cpu(raw)
    assert dummy_shapes(model, dummy="minimal")["image"][0] == latents
    assert adapter_for("idefics2").embed_tokens(resolve_spec(raw).config, ItemSize("image", 900, 400)) == latents
