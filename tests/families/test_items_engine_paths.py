"""Token counts of extreme aspect ratios, family by family, against the resize each family's engine path calls.

vLLM 0.32 and 0.33 size these families' images (and Qwen2-VL-style video
frames) with transformers' Qwen2-VL ``smart_resize``, imported in
``model_executor/models/qwen2_vl.py``, ``qwen3_vl.py`` and ``cohere_compass.py``
(that module's identical copy) or through the HF processor; Qwen3-VL videos
with transformers' Qwen3-VL video ``smart_resize``. Each count here is derived
from those functions and the tiny config's own patch fields; a ratio they
refuse is refused by ecwidth in one line naming the 200:1 limit, and by
``ecwidth size`` with the status of its other refusals.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from ecwidth.cli.commands import main
from ecwidth.errors import EcwidthError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec

TINY = Path(__file__).parents[1] / "tiny"
#: Model types whose images, and video frames where they have videos, take transformers' Qwen2-VL rule.
QWEN2_VL_RULE = ("qwen2_vl", "qwen2_5_vl", "exaone4_5", "qwen3_vl", "qwen3_5", "cohere_compass",
                 "hyperclovax_vision_v2", "qwen2_5_omni", "qwen3_omni_moe")  # fmt: skip
#: Of those, the ones whose videos are frames sized one by one (Qwen3-VL's budget spans the whole video).
PER_FRAME_VIDEOS = ("qwen2_vl", "qwen2_5_vl", "exaone4_5", "hyperclovax_vision_v2", "qwen2_5_omni", "qwen3_omni_moe")
#: Sides under half a unit, at 200:1, and just past it: the last are refused wherever the engine refuses them.
SIDES = [(1, 100), (100, 1), (1, 199), (1, 200), (200, 1), (3, 600), (600, 3), (13, 2600), (1, 201), (3, 601),
         (27, 5401), (201, 1)]  # fmt: skip


def transformers_rule(name: str):
    module = {"image": "qwen2_vl.image_processing_pil_qwen2_vl", "video": "qwen3_vl.video_processing_qwen3_vl"}[name]
    return pytest.importorskip(f"transformers.models.{module}").smart_resize


def tiny(model_type: str) -> tuple[dict, object]:
    raw = json.loads((TINY / f"{model_type}.json").read_text())
    return raw, resolve_spec(raw).config


def raw_vision(raw: dict) -> dict:
    """The vision section as the file writes it (omni models nest it in the thinker)."""
    return raw.get("thinker_config", raw)["vision_config"]


def engine_tokens(call, unit: int, groups: int = 1) -> int | str:
    """Merged tokens of the engine's resize, or ``"refused"`` where it raises."""
    try:
        h, w = call()
    except ValueError:
        return "refused"
    return groups * (h // unit) * (w // unit)


def ecwidth_tokens(model_type: str, config, item: ItemSize) -> int | str:
    try:
        return adapter_for(model_type).embed_tokens(config, item)
    except EcwidthError as error:
        assert "refuses one over 200" in str(error) and "\n" not in str(error)
        return "refused"


@pytest.mark.parametrize("model_type", QWEN2_VL_RULE)
@pytest.mark.parametrize(("height", "width"), SIDES)
def test_image_tokens_are_the_engines_at_extreme_aspect_ratios(model_type, height, width):
    raw, config = tiny(model_type)
    vision = raw_vision(raw)
    unit = vision["patch_size"] * vision["spatial_merge_size"]
    low, high = adapter_for(model_type).item_kind(config, "image").pixels
    expected = engine_tokens(lambda: transformers_rule("image")(height, width, unit, low, high), unit)
    assert ecwidth_tokens(model_type, config, ItemSize("image", height, width)) == expected


@pytest.mark.parametrize("model_type", PER_FRAME_VIDEOS)
@pytest.mark.parametrize(("height", "width"), SIDES)
def test_per_frame_video_tokens_are_the_engines_at_extreme_aspect_ratios(model_type, height, width):
    raw, config = tiny(model_type)
    vision, frames = raw_vision(raw), 5
    unit = vision["patch_size"] * vision["spatial_merge_size"]
    groups = math.ceil(frames / vision["temporal_patch_size"])  # vLLM pads frames to whole temporal patches
    low, high = adapter_for(model_type).item_kind(config, "video").pixels
    expected = engine_tokens(lambda: transformers_rule("image")(height, width, unit, low, high), unit, groups)
    assert ecwidth_tokens(model_type, config, ItemSize("video", height, width, frames)) == expected


@pytest.mark.parametrize(("height", "width"), SIDES)
def test_qwen3_vl_video_tokens_are_the_engines_at_extreme_aspect_ratios(height, width):
    raw, config = tiny("qwen3_vl")
    vision, frames = raw["vision_config"], 8
    unit, temporal = vision["patch_size"] * vision["spatial_merge_size"], vision["temporal_patch_size"]
    low, high = adapter_for("qwen3_vl").item_kind(config, "video").pixels
    resize = transformers_rule("video")
    expected = engine_tokens(lambda: resize(frames, height, width, temporal, unit, low, high), unit, frames // temporal)
    assert ecwidth_tokens("qwen3_vl", config, ItemSize("video", height, width, frames)) == expected


def test_size_counts_a_1x100_image_as_the_engine_does(capsys):
    raw, _ = tiny("qwen2_vl")
    vision = raw["vision_config"]
    unit = vision["patch_size"] * vision["spatial_merge_size"]
    h, w = transformers_rule("image")(1, 100, unit, 56 * 56, 28 * 28 * 1280)  # Qwen2-VL's published budget
    assert main(["size", str(TINY / "qwen2_vl.json"), "--device", "cpu", "--item", "image:1x100", "--json"]) == 0
    (item,) = json.loads(capsys.readouterr().out)["modalities"]["image"]["items"]
    assert item["tokens"] == (h // unit) * (w // unit)


def test_size_refuses_a_ratio_the_engine_refuses_in_one_line_with_status_2(capsys):
    with pytest.raises(ValueError):
        transformers_rule("image")(1, 201, 28, 56 * 56, 28 * 28 * 1280)
    assert main(["size", str(TINY / "qwen2_vl.json"), "--device", "cpu", "--item", "image:1x201"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error: ") and err.count("\n") == 1
    assert "1×201 pixels" in err and "over 200" in err and "at most 200:1" in err


def test_minimax_m3_keeps_a_thin_side_one_unit_as_vllms_own_processor_does():
    """vLLM's MiniMax-M3 processor (``transformers_utils/processors/minimax_m3.py``) rounds each side to at least
    one unit before the budget: a side under half a unit stays one unit, where transformers' rule scales it up."""
    raw, config = tiny("minimax_m3_vl")
    vision = raw["vision_config"]
    unit = vision["patch_size"] * vision["spatial_merge_size"]
    low, high = adapter_for("minimax_m3_vl").item_kind(config, "image").pixels
    units_long = math.ceil(low / unit**2) + 1  # one unit by this many is within the budget as it stands
    assert units_long * unit**2 <= high
    thin = ItemSize("image", 1, units_long * unit)
    assert ecwidth_tokens("minimax_m3_vl", config, thin) == units_long
    qwen_rule = engine_tokens(lambda: transformers_rule("image")(1, units_long * unit, unit, low, high), unit)
    assert qwen_rule > units_long  # the two rules differ here, so the count above tells them apart
    square = ItemSize("image", 3 * unit, 5 * unit)  # no side under one unit: the two rules agree
    expected = engine_tokens(lambda: transformers_rule("image")(3 * unit, 5 * unit, unit, low, high), unit)
    assert ecwidth_tokens("minimax_m3_vl", config, square) == expected
