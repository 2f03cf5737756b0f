"""An item's real encode is sized before it runs, and refused where it would not fit (ecwidth.footprint)."""

import pytest
import torch
from building import built
from tiny_configs import tiny_config
from torch.utils._pytree import tree_leaves

from ecwidth.errors import ResourceError
from ecwidth.measuring.footprint import LIVE_ROWS, item_activation_bytes, widest_layer
from ecwidth.measuring.measure import measure, measure_widths
from ecwidth.records.units import format_bytes


def _floating_bytes(item: dict) -> int:
    return sum(
        t.numel() * t.element_size() for t in tree_leaves(item) if isinstance(t, torch.Tensor) and t.is_floating_point()
    )


@pytest.mark.parametrize("model_type", ["llava", "qwen3_vl", "qwen2_audio"])
@pytest.mark.parametrize("dummy", ["minimal", "profile"])
def test_estimate_covers_the_item_and_its_widest_rows(model_type, dummy):
    adapter, model = built(tiny_config(model_type))
    modality = adapter.modalities(model)[0]
    real = adapter.dummy_item(model, modality, dummy)
    largest = max((t for t in tree_leaves(real) if isinstance(t, torch.Tensor) and t.is_floating_point()),
                  key=torch.Tensor.numel)  # fmt: skip
    rows = largest.numel() // largest.shape[-1]
    expected = _floating_bytes(real) + rows * widest_layer(model, adapter.encoder_paths(model)) * LIVE_ROWS * 4
    assert item_activation_bytes(adapter, model, modality, dummy, None) == expected


def test_widest_layer_reads_the_config_widths():
    config = tiny_config("llava")
    adapter, model = built(config)
    vision, text = config["vision_config"], config["text_config"]
    assert widest_layer(model, adapter.encoder_paths(model)) == max(
        vision["intermediate_size"], vision["hidden_size"], text["hidden_size"]
    )


def test_an_item_past_the_limit_is_refused_before_it_is_made():
    adapter, model = built(tiny_config("llava"))
    needed = item_activation_bytes(adapter, model, "image", "minimal", None)
    with pytest.raises(ResourceError, match=r"minimal image item would hold about .* activations.*--max-memory"):
        measure_widths(model, max_memory=needed - 1)
    assert measure_widths(model, max_memory=needed) == {"image": tiny_config("llava")["text_config"]["hidden_size"]}


def test_a_tile_of_a_million_pixels_is_one_error_not_an_exhausted_machine():
    """LLaVA's profile item is one whole tile: a config with a 42000-pixel tile asks for 21 GB of pixels alone."""
    config = tiny_config("llava")
    side = config["vision_config"]["image_size"] = 14 * 3000  # the weights: 9e6 positions x 16 wide, 0.6 GB
    vision, text = config["vision_config"], config["text_config"]
    widest = max(vision["intermediate_size"], vision["hidden_size"], text["hidden_size"])
    pixels, rows = 3 * side * side * 4, 3 * side  # one [1, 3, side, side] float32 tile; a row per channel line
    with pytest.raises(ResourceError) as refused:
        measure(config, dummy="profile", shape_faithful=False, max_memory=2 * 2**30)  # encoded for real
    estimate = format_bytes(pixels + rows * widest * LIVE_ROWS * 4)
    assert f"profile image item would hold about {estimate} of activations" in str(refused.value)
