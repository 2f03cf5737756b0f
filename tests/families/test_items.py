"""The arithmetic the item kinds share, each rule against an expectation computed another way.

``smart_resize`` and ``video_smart_resize`` are checked against transformers' own
functions, those vLLM 0.32 and 0.33 call for Qwen-style items (the PIL module's
copy of the Qwen2-VL image rule, which needs no torchvision), extreme aspect
ratios and the ratio the engine refuses included, and against the properties the
processors promise; the most-tokens search against a brute force over every grid; the grid
cap, the clip search and mel frames against their definitions; and every size
past a real item is one ``EcwidthError`` naming its limit.
"""

from __future__ import annotations

import itertools
import math

import pytest

from ecwidth.errors import EcwidthError
from ecwidth.families import items
from ecwidth.families.items import (
    MAX_ITEM_FRAMES,
    MAX_ITEM_SECONDS,
    MAX_ITEM_SIDE,
    ItemSize,
    longest_clip,
    mel_frames,
    tiles_within,
    unpadded_grid,
)
from ecwidth.families.patch_grid import MAX_ASPECT_RATIO, cap_grid, most_tokens_grid, smart_resize, video_smart_resize

#: Qwen2-VL's image budget (min, max) in pixels, with its unit (patch 14 × merge 2).
QWEN2_VL = dict(unit=28, min_pixels=56 * 56, max_pixels=28 * 28 * 1280)
SIDES = [1, 27, 28, 29, 42, 100, 448, 500, 1000, 1024, 1920, 4000, 9999]


def _reference_image_resize():
    try:
        from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import smart_resize as reference
    except ImportError:  # moved in another transformers release: the properties below still run
        pytest.skip("transformers' PIL Qwen2-VL image processor is not importable here")
    return reference


def _reference_video_resize(family: str = "glm4v"):
    """GLM-4V's image rule (vLLM's glm4_1v.py calls it) or Qwen3-VL's video rule (vLLM's qwen3_vl.py)."""
    try:
        if family == "glm4v":
            from transformers.models.glm4v.image_processing_pil_glm4v import smart_resize as reference
        else:
            from transformers.models.qwen3_vl.video_processing_qwen3_vl import smart_resize as reference
    except ImportError:
        pytest.skip(f"transformers' {family} smart_resize is not importable here")
    return reference


def _outcome(call):
    """What a resize gives: its sides, or ``"refused"`` where it raises ``ValueError`` (``EcwidthError`` is one)."""
    try:
        return call()
    except ValueError:
        return "refused"


#: Sides at extreme aspect ratios: under half a unit, at the 200:1 limit and just past it.
EXTREME = [(1, 100), (100, 1), (1, 199), (1, 200), (200, 1), (1, 201), (201, 1), (3, 600), (600, 3), (3, 601),
           (2, 401), (13, 2600), (14, 2800), (27, 5400), (27, 5401), (5, 1000), (1, 1), (1, 9999), (40, 8001)]  # fmt: skip
#: Budgets of the Qwen2-VL image processor (unit 28) and of Qwen3-VL's (unit 32).
BUDGETS = [QWEN2_VL, dict(unit=32, min_pixels=65536, max_pixels=16777216)]


# -- smart_resize ------------------------------------------------------------------------------


@pytest.mark.parametrize(("height", "width"), list(itertools.product(SIDES, SIDES)) + EXTREME)
@pytest.mark.parametrize("budget", BUDGETS, ids=["unit28", "unit32"])
def test_smart_resize_is_transformers_qwen2_vl_rule_which_vllm_calls(height, width, budget):
    # A side under half a unit rounds to 0 there, so the image scales up to min_pixels; past 200:1 it raises.
    reference = _reference_image_resize()
    expected = _outcome(lambda: reference(height, width, budget["unit"], budget["min_pixels"], budget["max_pixels"]))
    assert _outcome(lambda: smart_resize(height, width, **budget)) == expected


@pytest.mark.parametrize(("height", "width"), [(1, 201), (201, 1), (3, 601), (27, 5401), (1, 9999)])
def test_smart_resize_refuses_past_200_to_1_in_one_line_naming_the_limit(height, width):
    with pytest.raises(ValueError, match="aspect ratio"):  # the engine's own refusal
        _reference_image_resize()(height, width, 28, 3136, 12845056)
    with pytest.raises(
        EcwidthError, match=rf"{height}×{width} pixels .* refuses one over 200 .*at most 200:1"
    ) as error:
        smart_resize(height, width, **QWEN2_VL)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("height", "width"),
                         [(h, w) for h, w in itertools.product(SIDES, SIDES) if max(h, w) <= MAX_ASPECT_RATIO * min(h, w)])  # fmt: skip
def test_smart_resize_gives_whole_units_within_the_budget(height, width):
    unit, low, high = QWEN2_VL["unit"], QWEN2_VL["min_pixels"], QWEN2_VL["max_pixels"]
    h, w = smart_resize(height, width, **QWEN2_VL)
    assert h % unit == 0 and w % unit == 0 and h >= unit and w >= unit
    if max(height, width) / min(height, width) <= MAX_ASPECT_RATIO / 2:  # room for both sides to stay whole
        assert low <= h * w <= high


def test_smart_resize_keeps_an_image_already_in_units_and_in_budget():
    assert smart_resize(448, 448, **QWEN2_VL) == (448, 448)
    assert smart_resize(28 * 10, 28 * 30, **QWEN2_VL) == (280, 840)
    assert smart_resize(1024, 1024, unit=28, min_pixels=1, max_pixels=1036**2) == (1036, 1036)  # 36.6 units: 37


def test_smart_resize_of_an_image_over_budget_floors_its_scaled_sides():
    # 1036² > 28² × 1280: beta = 1024 / sqrt(1003520), 1024 / beta / 28 = 35.8 units, floored to 35.
    assert smart_resize(1024, 1024, **QWEN2_VL) == (980, 980)


def test_smart_resize_scales_a_large_image_down_keeping_its_aspect():
    h, w = smart_resize(8000, 4000, **QWEN2_VL)
    assert h * w <= QWEN2_VL["max_pixels"] and abs(h / w - 2) < 0.1
    assert (h + 28) * (w + 28) > QWEN2_VL["max_pixels"]  # one unit more a side would not fit: nothing wasted


# -- video_smart_resize ------------------------------------------------------------------------


@pytest.mark.parametrize("frames", [2, 3, 8, 30, 600])
@pytest.mark.parametrize(("height", "width"), [(28, 28), (100, 3000), (448, 448), (1080, 1920), (4000, 4000)] + EXTREME)
@pytest.mark.parametrize("family", ["glm4v", "qwen3_vl"])
def test_video_smart_resize_is_transformers_rule_which_vllm_calls(frames, height, width, family):
    # A frame under one unit scales up first (1 × 201 to 28 × 5628), and the 200:1 limit applies to that.
    reference = _reference_video_resize(family)
    budget = dict(min_pixels=112 * 112, max_pixels=28 * 28 * 2 * 30000)
    expected = _outcome(lambda: reference(frames, height, width, temporal_factor=2, factor=28, **budget))
    assert _outcome(lambda: video_smart_resize(frames, height, width, temporal=2, unit=28, **budget)) == expected


def test_video_smart_resize_refuses_past_200_to_1_naming_the_scaled_sides():
    with pytest.raises(EcwidthError, match=r"1×201 \(scaled to 28×5628\) pixels .* over 200") as error:
        video_smart_resize(2, 1, 201, temporal=2, unit=28, min_pixels=112 * 112, max_pixels=10**9)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("frames", [2, 4, 16, 64, 256])
def test_video_smart_resize_holds_every_frame_together_to_the_budget(frames):
    budget = 28 * 28 * 2 * 1000
    h, w = video_smart_resize(frames, 1080, 1920, temporal=2, unit=28, min_pixels=112 * 112, max_pixels=budget)
    assert h % 28 == 0 and w % 28 == 0
    assert frames * h * w <= budget or (h, w) == (28, 28) or frames * 1080 * 1920 <= budget
    if frames > 2:  # more frames share one budget: each gets no more pixels
        assert h * w <= math.prod(
            video_smart_resize(frames // 2, 1080, 1920, temporal=2, unit=28, min_pixels=112 * 112, max_pixels=budget)
        )


def test_video_smart_resize_scales_a_frame_under_one_unit_up_first():
    # × 2.8: 10 × 56 becomes 28 × 156 (156.8 truncated), then rounds to 28 × 168 (5.6 units: 6).
    assert video_smart_resize(2, 10, 56, temporal=2, unit=28, min_pixels=1, max_pixels=10**9) == (28, 168)


# -- the most-tokens search --------------------------------------------------------------------


def _brute_force_grid(max_pixels: int, patch: int, merge: int) -> tuple[int, int]:
    """Every (short, long) token grid within the budget and the aspect limit; the most tokens, then the squarest."""
    unit = patch * merge
    budget = max_pixels // unit**2
    best = (0, 0, 0)
    for short in range(1, math.isqrt(budget) + 1):
        for long in range(short, min(budget // short, MAX_ASPECT_RATIO * short) + 1):
            best = max(best, (short * long, short, long))
    tokens, short, long = best
    return (short * merge, long * merge) if tokens else (merge, merge)


@pytest.mark.parametrize("max_pixels", [28 * 28 * n for n in (1, 2, 3, 7, 12, 97, 199, 401, 1000, 1280, 4096)])
def test_most_tokens_grid_is_the_brute_force_best(max_pixels):
    assert most_tokens_grid(max_pixels, 14, 2) == _brute_force_grid(max_pixels, 14, 2)


@pytest.mark.parametrize(
    ("max_pixels", "patch", "merge"), [(16384 * 28 * 28, 14, 2), (10**7, 16, 2), (3 * 10**6, 14, 1)]
)
def test_most_tokens_grid_fits_the_budget_in_whole_merges_and_the_aspect_limit(max_pixels, patch, merge):
    h, w = most_tokens_grid(max_pixels, patch, merge)
    assert h % merge == 0 and w % merge == 0 and h <= w <= MAX_ASPECT_RATIO * h
    assert h * w * patch**2 <= max_pixels
    assert (h, w) == _brute_force_grid(max_pixels, patch, merge)


def test_a_prime_token_budget_is_not_cut_to_a_square():
    # 1009 tokens is prime: 1 × 1009 breaks the aspect limit, so the best is 1008 = 28 × 36, not 31 × 31 = 961.
    h, w = most_tokens_grid(1009 * 28 * 28, 14, 2)
    assert (h // 2) * (w // 2) == 1008 and (h // 2, w // 2) == (28, 36)


def test_a_budget_under_one_token_gives_one_token():
    assert most_tokens_grid(100, 14, 2) == (2, 2)


# -- grid caps -----------------------------------------------------------------------------------


@pytest.mark.parametrize("grid", [(1, 2, 2), (1, 64, 64), (4, 32, 96), (16, 128, 8), (3, 34, 2)])
@pytest.mark.parametrize("max_tokens", [1, 5, 64, 300, 10**6])
def test_cap_grid_stays_within_the_cap_in_whole_merges_and_never_grows(grid, max_tokens):
    merge = 2
    t, h, w = cap_grid(grid, merge, max_tokens)
    assert h % merge == 0 and w % merge == 0 and t >= 1
    assert t <= grid[0] and h <= grid[1] and w <= grid[2]
    assert t * h * w // merge**2 <= max_tokens or (t, h, w) == (1, merge, merge)  # one token is the floor


def test_cap_grid_leaves_a_grid_within_the_cap_as_it_is():
    assert cap_grid((2, 8, 12), 2, 48) == (2, 8, 12)


def test_cap_grid_halves_the_frames_before_the_sides():
    assert cap_grid((8, 8, 8), 2, 32) == (2, 8, 8)  # 8 → 4 → 2 frames, sides untouched
    assert cap_grid((1, 16, 8), 2, 16) == (1, 8, 8)  # the longer side halves first


def test_tiles_within_caps_the_tiles_but_keeps_one():
    assert tiles_within(10, 64, None) == 10
    assert tiles_within(10, 64, 200) == 3
    assert tiles_within(10, 64, 10) == 1
    assert tiles_within(2, 64, 10**6) == 2


# -- audio -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "frames"), [(30, 3000), (1, 100), (0.001, 1), (0.01, 1), (10.001, 1001), (0.5, 50)]
)
def test_mel_frames_are_a_whole_hop_per_10_ms_begun(seconds, frames):
    assert mel_frames(seconds) == frames


def test_mel_frames_grow_with_the_clip():
    lengths = [0.005 * n for n in range(1, 400)]
    counts = [mel_frames(s) for s in lengths]
    assert counts == sorted(counts) and all(c >= s * 100 for c, s in zip(counts, lengths, strict=True))


@pytest.mark.parametrize("max_tokens", [0, 1, 7, 10, 11, 50, 99, 1000])
def test_longest_clip_is_the_brute_force_longest_within_the_cap(max_tokens):
    def tokens(frames: int) -> int:
        return (frames - 1) // 4 + 1  # a stride-4 conv: monotone, with plateaus

    shortest, longest = 3, 300
    fits = [n for n in range(shortest, longest + 1) if tokens(n) <= max_tokens]
    assert longest_clip(tokens, shortest, longest, max_tokens) == (max(fits) if fits else shortest)


def test_unpadded_grid_removes_the_padding_of_a_wide_image():
    # A 2:1 image in a square 4 × 4 grid was padded top and bottom: half the rows are padding.
    assert unpadded_grid(100, 200, 4, 4) == (2, 4)
    assert unpadded_grid(200, 100, 4, 4) == (4, 2)
    assert unpadded_grid(100, 100, 4, 4) == (4, 4)


# -- sizes past any real item ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"height": 10**400, "width": 1}, "height"),
        ({"height": 1, "width": MAX_ITEM_SIDE + 1}, "width"),
        ({"height": 448, "width": 448, "frames": 10**400}, "frame count"),
        ({"frames": MAX_ITEM_FRAMES + 1}, "frame count"),
        ({"seconds": 1e308}, "duration"),
        ({"seconds": float("inf")}, "duration"),
        ({"seconds": float("nan")}, "duration"),
        ({"seconds": 0}, "duration"),
        ({"height": -1, "width": 448}, "height"),
    ],
)
def test_a_size_past_any_real_item_is_one_ecwidth_error_naming_its_limit(fields, named):
    with pytest.raises(EcwidthError, match=f"{named}.*at most") as error:
        ItemSize("image", **fields)
    assert len(str(error.value)) < 200 and "\n" not in str(error.value)  # a 400-digit value is shortened


def test_the_largest_real_sizes_are_taken_and_their_arithmetic_stays_in_floats():
    item = ItemSize("video", height=MAX_ITEM_SIDE, width=MAX_ITEM_SIDE, frames=MAX_ITEM_FRAMES)
    assert smart_resize(item.height, item.width, **QWEN2_VL)[0] % 28 == 0
    assert video_smart_resize(item.frames, item.height, item.width, temporal=2, unit=28, min_pixels=1,
                              max_pixels=10**9)[0] >= 28  # fmt: skip
    assert mel_frames(MAX_ITEM_SECONDS) == MAX_ITEM_SECONDS * 100


@pytest.mark.parametrize(
    "call",
    [
        lambda: smart_resize(10**400, 10**400, **QWEN2_VL),
        lambda: video_smart_resize(10**400, 448, 448, temporal=2, unit=28, min_pixels=1, max_pixels=10**6),
        lambda: mel_frames(1e308),
        lambda: mel_frames(float("inf")),
    ],
)
def test_the_rules_refuse_sizes_past_any_real_item_rather_than_overflow(call):
    with pytest.raises(EcwidthError, match="past any real item"):
        call()


def test_the_limits_are_past_every_real_item_and_vllm_s_probe_image():
    assert MAX_ITEM_SIDE > 9999999  # vLLM's GLM probe image
    assert MAX_ITEM_SECONDS == 24 * 3600 and MAX_ITEM_FRAMES == 24 * 3600 * 60
    assert items.check_item_number("width in pixels", 9999999, MAX_ITEM_SIDE) is None
