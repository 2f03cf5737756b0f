"""Llama 4 at tiny scale: the producer applies multi_modal_projector, so the width is the text hidden size."""

import pytest
import torch

import ecwidth
from ecwidth.adapter import ItemSize, adapter_for
from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError

from building import build_on_cpu

VISION_HIDDEN = 32
PROJECTOR_DIM = 24  # projector_input_dim == projector_output_dim == vision_output_dim
TEXT_HIDDEN = 40
TILE = 56  # 4 x 4 patches of 14 px
TOKENS_PER_TILE = (TILE // 14) ** 2 // 4  # pixel shuffle ratio 0.5


def tiny_config(text_hidden: int = TEXT_HIDDEN) -> dict:
    return {
        "model_type": "llama4",
        "vision_config": {
            "model_type": "llama4_vision_model",
            "hidden_size": VISION_HIDDEN,
            "intermediate_size": VISION_HIDDEN * 4,  # hidden / pixel_shuffle_ratio², as the shuffle requires
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "image_size": TILE,
            "patch_size": 14,
            "pixel_shuffle_ratio": 0.5,
            "projector_input_dim": PROJECTOR_DIM,
            "projector_output_dim": PROJECTOR_DIM,
            "vision_output_dim": PROJECTOR_DIM,
        },
        "text_config": {
            "model_type": "llama4_text",
            "hidden_size": text_hidden,
            "intermediate_size": 32,
            "intermediate_size_mlp": 64,
            "num_local_experts": 2,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "head_dim": 20,
            "vocab_size": 300,
        },
    }


@pytest.fixture(scope="module")
def adapter():
    return adapter_for("llama4")


@pytest.fixture(scope="module")
def model(adapter):
    return build_on_cpu(tiny_config())


@pytest.mark.parametrize("text_hidden", [TEXT_HIDDEN, 80])
def test_image_ships_at_the_text_hidden_size(text_hidden):
    result = ecwidth.measure(tiny_config(text_hidden), device="cpu")
    assert result.widths == {"image": text_hidden}  # multi_modal_projector: vision_output_dim -> text hidden
    assert result.predicted == result.widths


def test_width_is_not_projector_output_dim_which_transformers_returns(model):
    # transformers' get_image_features stops before multi_modal_projector; vLLM's producer does not.
    width = ecwidth.measure(tiny_config(), device="cpu").widths["image"]
    pixel_values = torch.randn(1, 3, TILE, TILE)
    with torch.inference_mode():
        unprojected = model.get_image_features(pixel_values).last_hidden_state
    assert unprojected.shape[-1] == PROJECTOR_DIM
    assert width == TEXT_HIDDEN != PROJECTOR_DIM


def test_language_model_is_never_given_storage(model):
    assert all(p.device.type == "meta" for p in model.language_model.parameters())
    assert all(p.device.type == "cpu" for p in model.vision_model.parameters())


def test_minimal_tile_leaves_the_full_tile_tables_in_place(adapter, model):
    positions = model.vision_model.positional_embedding_vlm
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
    assert minimal.shape == (1, TEXT_HIDDEN)  # a tile of one pixel-shuffle window
    assert model.vision_model.positional_embedding_vlm is positions
    assert model.vision_model.rotary_embedding.freqs_ci.shape[0] == (TILE // 14) ** 2 + 1


def test_profile_item_flattens_all_tiles_at_the_same_width(adapter, model):
    with torch.inference_mode():
        profile = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
        capped = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile", max_tokens=9))
    assert profile.shape == ((16 + 1) * TOKENS_PER_TILE, TEXT_HIDDEN)  # a 16 x 1 canvas plus the global tile
    assert capped.shape == (2 * TOKENS_PER_TILE, TEXT_HIDDEN)


@pytest.mark.parametrize(
    "height, width, tiles",
    [
        (56, 56, 1),  # fits one tile: no global tile is added
        (40, 100, 2 + 1),  # smallest upscale: a 1 x 2 canvas
        (1000, 1000, 4 * 4 + 1),  # no canvas upscales: the mildest downscale, 4 x 4
        (16 * 56, 56, 16 + 1),  # the profile canvas
    ],
)
def test_image_tokens_follow_the_processor(adapter, height, width, tiles):
    config = resolve_spec(tiny_config()).config
    assert adapter.embed_tokens(config, ItemSize("image", height=height, width=width)) == tiles * TOKENS_PER_TILE
    assert adapter.profile_tokens(config, "image") == (16 + 1) * TOKENS_PER_TILE


@pytest.mark.parametrize("field", ["vision_output_dim", "pixel_shuffle_ratio"])
def test_missing_required_field_is_a_config_error(field):
    raw = tiny_config()
    del raw["vision_config"][field]
    with pytest.raises(ConfigError, match=field):
        ecwidth.measure(raw, device="cpu")
