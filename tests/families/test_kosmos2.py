"""Kosmos-2 and Kosmos-2.5 at tiny scale: the latent queries at the text model's embed_dim."""

import pytest
import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.encode import dummy_shapes
from ecwidth.measuring.measure import measure_widths
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize("model_type", ["kosmos-2", "kosmos-2.5"])
def test_images_ship_latent_query_num_rows_at_the_text_embed_dim(model_type):
    raw = tiny_config(model_type)
    model = build_on_cpu(raw)
    with torch.inference_mode():
        assert measure_widths(model) == {"image": raw["text_config"]["embed_dim"]}
    assert dummy_shapes(model, dummy="profile")["image"][0] == raw["latent_query_num"]


def test_kosmos_2_minimal_item_is_one_patch_and_ships_the_profile_item_rows():
    raw = tiny_config("kosmos-2")
    adapter, model = adapter_for("kosmos-2"), build_on_cpu(raw)
    item = adapter.dummy_item(model, "image", "minimal")
    assert item["pixel_values"].shape[-2:] == (raw["vision_config"]["patch_size"],) * 2
    assert dummy_shapes(model, dummy="minimal") == dummy_shapes(model, dummy="profile")
