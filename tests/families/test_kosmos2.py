"""Kosmos-2 and Kosmos-2.5 at tiny scale: the latent queries at the text model's embed_dim."""

import pytest
from building import build_on_cpu
from tiny_configs import tiny_config

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.measure import dummy_shapes


@pytest.mark.parametrize("model_type", ["kosmos-2", "kosmos-2.5"])
def test_images_ship_latent_query_num_rows_at_the_text_embed_dim(model_type):
    raw = tiny_config(model_type)
    assert raw["text_config"]["embed_dim"] != raw["vision_config"]["hidden_size"]
    assert ecwidth.measure(raw, device="cpu").widths == {"image": raw["text_config"]["embed_dim"]}
    shapes = dummy_shapes(build_on_cpu(raw), dummy="profile")
    assert shapes["image"][0] == raw["latent_query_num"]


def test_kosmos_2_5_is_not_shipped_by_the_backend():
    assert "ships nothing" in adapter_for("kosmos-2.5").engine


def test_kosmos_2_minimal_item_is_one_patch_and_ships_the_profile_item_rows():
    raw = tiny_config("kosmos-2")
    adapter, model = adapter_for("kosmos-2"), build_on_cpu(raw)
    item = adapter.dummy_item(model, "image", "minimal")
    assert item["pixel_values"].shape[-2:] == (raw["vision_config"]["patch_size"],) * 2
    assert dummy_shapes(model, dummy="minimal") == dummy_shapes(model, dummy="profile")
