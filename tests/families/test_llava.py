"""LLaVA, LLaVA-NeXT and LLaVA-OneVision at tiny scale.

Expected widths follow vLLM's ``embed_multimodal`` for the three families: the
two-layer projector's output (and, for NeXT and OneVision, the
``image_newline`` rows packed with it), ``text_config.hidden_size`` wide,
never the tower's ``hidden_size`` or ``projection_dim``. Minimal items are
one-patch tiles packed the same way, so they give the same width.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import pytest
import torch

from ecwidth.families._tiles import small_tiles
from ecwidth.families.adapter import FamilyAdapter, adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.building import built, encoded
from tests.tiny_configs import tiny_config

#: The tiny configs: LLaVA-1.5's shape (a CLIP tower, 4×4 patches and a CLS row that ``default`` selection
#: drops), LLaVA-v1.6's at 56-pixel tiles (the published grid resolutions divided by 6), OneVision's (a SigLIP
#: tower, ``full`` selection, 1–3 × 1–3 tiles), and Pixtral-12B's, derived from LLaVA's.
NAMES = ("llava", "pixtral_llava", "llava_next", "llava_onevision")


def tiny(name: str) -> dict[str, Any]:
    """The tiny config of ``name``; ``pixtral_llava``: a Pixtral tower (any size, 16-pixel patches) under ``llava``."""
    if name != "pixtral_llava":
        return tiny_config(name)
    config = tiny_config("llava")
    vision = config["vision_config"]
    del vision["projection_dim"]
    vision.update(model_type="pixtral", head_dim=8, image_size=64, patch_size=16)
    config["text_config"]["model_type"] = "mistral"
    return {**config, "vision_feature_layer": -1, "vision_feature_select_strategy": "full"}


def onevision_at(max_tiles: int) -> dict[str, Any]:
    """OneVision's tiny config with grids beyond ``max_tiles`` tiles shrunk."""
    return {**tiny_config("llava_onevision"), "vision_aspect_ratio": f"anyres_max_{max_tiles}"}


@functools.cache
def family(name: str) -> tuple[FamilyAdapter, torch.nn.Module]:
    """The adapter and the model built from ``tiny(name)``, once a module."""
    return built(tiny(name))


def text_hidden(name: str) -> int:
    """The width every LLaVA family ships: the text config's hidden size."""
    return tiny(name)["text_config"]["hidden_size"]


@pytest.mark.parametrize("name", NAMES)
def test_width_is_the_lm_hidden_size_for_every_modality(name: str) -> None:
    config = tiny(name)
    result = measure(config, device="cpu")
    modalities = ("image", "video") if config["model_type"] == "llava_onevision" else ("image",)
    assert result.widths == result.predicted == dict.fromkeys(modalities, config["text_config"]["hidden_size"])


def test_a_list_of_feature_layers_widens_the_projector_input_not_the_output() -> None:
    config = {**tiny_config("llava"), "vision_feature_layer": [-2, -1]}
    adapter, model = built(config)
    assert model.multi_modal_projector.linear_1.in_features == 2 * config["vision_config"]["hidden_size"]
    packed = encoded(adapter, model, "image", "profile")
    assert packed.shape == (4 * 4, config["text_config"]["hidden_size"])


def test_the_published_llava_config_leaves_the_width_to_the_text_class_default() -> None:
    # llava-1.5-7b-hf's text_config has no hidden_size: LlamaConfig's 4096 applies.
    config = tiny_config("llava")
    del config["text_config"]["hidden_size"]
    assert measure(config, device="cpu").widths == {"image": 4096}


# Minimal items: every tile one patch, so one token a tile (the CLS row dropped by ``default``).
MINIMAL_TOKENS = {
    "llava": {"image": 1},
    "pixtral_llava": {"image": 1},
    "llava_next": {"image": 1 + 1 * 2 + 1},  # base tile, the 1×2 grid, one newline
    "llava_onevision": {"image": 1 + 1 + 1, "video": 1 + 1},  # a 1×1 grid; one frame pooled 2×2 to 1, newline
}


@pytest.mark.parametrize("name", NAMES)
def test_items_pack_the_tokens_counted_for_them_and_minimal_ones_leave_the_config(name: str) -> None:
    adapter, model = family(name)
    config = tiny(name)
    for modality in adapter.modalities(model):
        minimal = encoded(adapter, model, modality, "minimal")
        assert minimal.shape == (MINIMAL_TOKENS[name][modality], text_hidden(name))
        assert model.config.vision_config.image_size == config["vision_config"]["image_size"]
        assert getattr(model.config, "image_grid_pinpoints", None) == config.get("image_grid_pinpoints")
        profile = encoded(adapter, model, modality, "profile")
        assert profile.shape[0] == adapter.profile_tokens(model.config, modality) >= 4 * minimal.shape[0]
        capped = adapter.dummy_item(model, modality, "profile", max_tokens=200)
        with torch.inference_mode():
            packed = adapter.encode(model, modality, capped)
        assert packed.shape == (_tokens_of(adapter, model.config, modality, capped), text_hidden(name))


def _tokens_of(adapter: Any, config: Any, modality: str, item: dict[str, Any]) -> int:
    """The adapter's own token count for the item it built."""
    if modality == "video":
        return adapter.embed_tokens(config, ItemSize("video", frames=item["pixel_values_videos"].shape[1]))
    height, width = item["image_sizes"][0].tolist() if "image_sizes" in item else item["pixel_values"].shape[-2:]
    return adapter.embed_tokens(config, ItemSize("image", height, width))


def test_llava_tokens_are_one_tile_whatever_the_image() -> None:
    config = resolve_spec(tiny("llava")).config
    adapter = adapter_for("llava")
    # (56/14)² patches plus CLS, the CLS dropped by the default strategy.
    assert adapter.embed_tokens(config, ItemSize("image", 448, 448)) == 16
    assert adapter.profile_tokens(config, "image") == 16


def test_pixtral_tokens_are_one_per_patch_of_the_fitted_image() -> None:
    config = resolve_spec(tiny("pixtral_llava")).config
    adapter = adapter_for("llava")
    assert adapter.embed_tokens(config, ItemSize("image", 48, 32)) == 3 * 2
    assert adapter.embed_tokens(config, ItemSize("image", 200, 100)) == 4 * 2  # fitted into 64×32
    assert adapter.profile_tokens(config, "image") == 4 * 4


def test_llava_next_tokens_count_base_tile_unpadded_grid_and_newlines() -> None:
    config = resolve_spec(tiny("llava_next")).config
    adapter = adapter_for("llava_next")
    base = 16  # one 56-pixel tile: 4×4 patches, CLS dropped
    # 56×112 is a grid resolution: 1×2 tiles, a 4×8 feature grid, nothing to unpad, one newline per row.
    assert adapter.embed_tokens(config, ItemSize("image", 56, 112)) == base + 4 * 8 + 4
    # 80×80 goes to 112×112 (an 8×8 grid) and fills it.
    assert adapter.embed_tokens(config, ItemSize("image", 80, 80)) == base + 8 * 8 + 8
    # 30×112 goes to 56×112 and fills 2.1 of its 4 rows: one padding row is cut from top and bottom.
    assert adapter.embed_tokens(config, ItemSize("image", 30, 112)) == base + 2 * 8 + 2
    # The profile is the grid resolution with the most tokens: 112×112.
    assert adapter.profile_tokens(config, "image") == base + 8 * 8 + 8


def test_onevision_grids_beyond_anyres_max_are_shrunk() -> None:
    adapter = adapter_for("llava_onevision")
    config = resolve_spec(onevision_at(max_tiles=1)).config
    base = 16  # one 56-pixel tile: 4×4 patches, full selection
    # 112×112 is 2×2 tiles, an 8×8 grid: sqrt(64 / 16) = 2 > 1.1, so it shrinks to 4×4, plus 4 newlines.
    assert adapter.embed_tokens(config, ItemSize("image", 112, 112)) == base + 4 * 4 + 4
    # 56×56 is one tile, a 4×4 grid: ratio 1, kept.
    assert adapter.embed_tokens(config, ItemSize("image", 56, 56)) == base + 4 * 4 + 4
    # Videos: 4×4 patches pooled 2× to 2×2 a frame, plus one newline for the video.
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 8 * 2 * 2 + 1


def test_onevision_profiles_as_vllm_does() -> None:
    adapter = adapter_for("llava_onevision")
    config = resolve_spec(tiny("llava_onevision")).config
    # vLLM's fixed 944×1153 image; 16 frames for a video when max_model_len allows.
    assert adapter.profile_tokens(config, "image") == adapter.embed_tokens(config, ItemSize("image", 944, 1153))
    assert adapter.profile_tokens(config, "video") == 16 * 2 * 2 + 1


def test_small_tiles_restores_the_config_when_the_call_fails() -> None:
    config = resolve_spec(tiny("llava_next")).config
    with pytest.raises(RuntimeError), small_tiles(config, 14) as tower_kwargs:
        assert tower_kwargs == {"interpolate_pos_encoding": True}
        assert (config.vision_config.image_size, config.image_grid_pinpoints[0]) == (14, [14, 28])
        raise RuntimeError
    assert config.vision_config.image_size == tiny("llava_next")["vision_config"]["image_size"]
    assert config.image_grid_pinpoints == tiny("llava_next")["image_grid_pinpoints"]


@pytest.mark.parametrize(("name", "modality"), [("llava_next", "image"), ("llava_onevision", "video")])
def test_a_minimal_item_is_packed_with_its_newline_row(name: str, modality: str) -> None:
    adapter, model = family(name)
    with torch.inference_mode():
        model.image_newline.normal_()
        packed = encoded(adapter, model, modality, "minimal")
    assert torch.equal(packed[-1], model.image_newline)  # the one grid row ends on image_newline


def test_minimal_llava_next_item_is_the_fewest_tiles_at_one_patch_each() -> None:
    adapter, model = family("llava_next")
    item = adapter.dummy_item(model, "image", "minimal")
    assert item["pixel_values"].shape == (1, 1 + 2, 3, 14, 14)  # base tile plus the 1×2 grid, 14-pixel tiles
    # A 56×112 or 112×56 grid resolution, in 14-pixel tiles.
    assert math.prod(item["image_sizes"][0].tolist()) == 14 * 28


@pytest.mark.parametrize(
    ("config", "image_size", "tiles", "tokens"),
    [
        (tiny_config("llava_next"), (30, 112), 1 + 1 * 2, 16 + 2 * 8 + 2),  # padding rows cut
        (tiny_config("llava_next"), (80, 80), 1 + 2 * 2, 16 + 8 * 8 + 8),
        (onevision_at(max_tiles=1), (100, 150), 1 + 2 * 3, 16 + 3 * 4 + 3),  # 8×12 shrunk by 2.45
    ],
)
def test_transformers_packing_gives_the_counted_tokens(
    config: dict[str, Any], image_size: tuple[int, int], tiles: int, tokens: int
) -> None:
    adapter, model = built(config)
    tile = config["vision_config"]["image_size"]
    item = {"pixel_values": torch.randn(1, tiles, 3, tile, tile), "image_sizes": torch.tensor([image_size])}
    with torch.inference_mode():
        packed = adapter.encode(model, "image", item)
    assert packed.shape == (tokens, config["text_config"]["hidden_size"])
    assert adapter.embed_tokens(model.config, ItemSize("image", *image_size)) == tokens
