"""Transfer sizes (ecwidth.sizing): units, items, and what a model's buffers must hold.

Widths here come from config fields read independently of the adapter
(``out_hidden_size × (1 + DeepStack levels)`` for Qwen3-VL); token counts from
the processor arithmetic written out in each test.
"""

import pytest
import torch

from ecwidth.errors import NoTokenRuleError
from ecwidth.families.adapter import find_adapter
from ecwidth.families.items import ItemSize
from ecwidth.reading.catalog import catalog_entry
from ecwidth.records import units
from ecwidth.serving import sizing
from tests.toy import toy_spec

DEEPSTACK = "qwen3-vl-8b-instruct"
OMNI = "qwen3-omni-30b-a3b-instruct"


def deepstack_width(name: str) -> int:
    vision = catalog_entry(name).config["vision_config"]
    return vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))


def text_hidden(name: str) -> int:
    return catalog_entry(name).config["text_config"]["hidden_size"]


def test_dtype_bytes():
    assert units.dtype_bytes("bfloat16") == 2
    assert units.dtype_bytes("float16") == 2
    assert units.dtype_bytes("float32") == 4
    assert units.dtype_bytes("float8_e4m3fn") == 1
    assert units.dtype_bytes(torch.bfloat16) == 2
    assert units.dtype_bytes("torch.float32") == 4
    with pytest.raises(ValueError, match="unknown serving dtype 'int4'"):
        units.dtype_bytes("int4")


def test_bytes_and_items_per_buffer():
    assert sizing.bytes_per_token(8192, "bfloat16") == 16384
    assert sizing.bytes_per_token(8192, "float32") == 32768
    assert sizing.item_bytes(196, 8192, "bfloat16") == 196 * 8192 * 2 == 3_211_264
    assert sizing.items_per_buffer(3_211_264) == 311  # floor(10**9 / 3211264): vLLM's default ec_buffer_size
    assert sizing.items_per_buffer(3_211_264, 2**30) == 334
    assert sizing.items_per_buffer(2 * 10**9) == 0  # an item larger than the buffer does not fit at all
    with pytest.raises(ValueError, match="positive"):
        sizing.items_per_buffer(0)


@pytest.mark.parametrize(
    ("text", "size"),
    [("1GiB", 2**30), ("1GB", 10**9), ("1e9", 10**9), ("512 MiB", 512 * 2**20), ("1.5kB", 1500), ("4096", 4096),
     ("2tib", 2 * 2**40)],
)  # fmt: skip
def test_parse_bytes_takes_decimal_and_binary_units(text, size):
    assert units.parse_bytes(text) == size


@pytest.mark.parametrize("text", ["1 GX", "-1", "0", "GiB", "", "1e400", "0.1"])
def test_parse_bytes_refuses_what_is_not_a_size(text):
    with pytest.raises(ValueError, match="invalid buffer size .*powers of 1000.*powers of 1024"):
        units.parse_bytes(text)


def test_format_bytes_spells_out_both_prefixes():
    assert units.format_bytes(2**30) == "1.00 GiB (1.07 GB)"
    assert units.format_bytes(10**9) == "953.67 MiB (1.00 GB)"
    assert units.format_bytes(32768) == "32.00 KiB (32.77 kB)"
    assert units.format_bytes(512) == "512 bytes"


def test_parse_item_forms_and_labels():
    assert sizing.parse_item("image:1024x768") == sizing.TypicalItem(
        "image 1024×768", ItemSize("image", height=1024, width=768)
    )
    assert sizing.parse_item("video:8x448x448").size == ItemSize("video", height=448, width=448, frames=8)
    assert sizing.parse_item("audio:30s") == sizing.TypicalItem("audio 30 s", ItemSize("audio", seconds=30.0))
    assert sizing.parse_item("audio:2.5").size.seconds == 2.5
    assert [item.label for item in sizing.TYPICAL_ITEMS] == [
        "image 448×448", "image 1024×1024", "video 8 frames 448×448", "audio 30 s",
    ]  # fmt: skip


@pytest.mark.parametrize("text", ["image:1024", "video:8x448", "audio:xs", "pic:3x3", "image:0x3", "audio:nan", "x"])
def test_parse_item_refuses_other_forms(text):
    with pytest.raises(ValueError, match=r"invalid item .*image:HEIGHTxWIDTH .*video:FRAMESxHEIGHTxWIDTH .*audio"):
        sizing.parse_item(text)


def test_item_tokens_follow_the_qwen3_vl_processor():
    # 32-pixel merged patches: 448/32 = 14 -> 196 tokens; 1024/32 = 32 -> 1024; 8 frames in pairs -> 4 x 196.
    assert sizing.item_tokens(DEEPSTACK, ItemSize("image", height=448, width=448)) == 196
    assert sizing.item_tokens(DEEPSTACK, ItemSize("image", height=1024, width=1024)) == 1024
    assert sizing.item_tokens(DEEPSTACK, ItemSize("video", height=448, width=448, frames=8)) == 784


def test_size_transfers_prices_qwen3_vl_at_its_width_and_at_hidden_size():
    width, hidden = deepstack_width(DEEPSTACK), text_hidden(DEEPSTACK)
    result = sizing.size_transfers(DEEPSTACK, {"image": width, "video": width}, buffer_bytes=2**30)
    assert (result.model, result.lm_hidden_size, result.buffer_bytes) == (DEEPSTACK, hidden, 2**30)
    image, video = result.modalities
    assert (image.modality, video.modality) == ("image", "video")
    assert image.bytes_per_token == width * 2
    assert [(cost.label, cost.tokens) for cost in image.items] == [("image 448×448", 196), ("image 1024×1024", 1024)]
    assert [cost.tokens for cost in video.items] == [784]
    for cost in (*image.items, *video.items, image.largest, video.largest):
        assert cost.bytes == cost.tokens * width * 2
        assert cost.items_per_buffer == 2**30 // cost.bytes
        assert cost.bytes_at_hidden == cost.tokens * hidden * 2
        assert cost.items_per_buffer_at_hidden == 2**30 // cost.bytes_at_hidden
        assert cost.items_short == cost.items_per_buffer_at_hidden - cost.items_per_buffer > 0
        assert cost.bytes_short == cost.tokens * (width - hidden) * 2
    # The profile image: the most 32-pixel tokens the processor's pixel budget allows.
    budget = find_adapter("qwen3_vl").items["image"].pixels[1]
    assert image.largest.tokens == budget // 32**2
    assert image.note == video.note == ""
    assert image.buffer_plan() == {
        "width": width, "serving_dtype": "bfloat16", "bytes_per_token": width * 2,
        "max_tokens_per_item": image.largest.tokens, "max_bytes_per_item": image.largest.tokens * width * 2,
    }  # fmt: skip
    plan = result.buffer_plan()
    assert plan["model"] == DEEPSTACK and plan["options"] == {}
    assert list(plan["modalities"]) == ["image", "video"]
    assert list(plan["modalities"]["video"]) == list(sizing.PLAN_KEYS)


def test_size_transfers_in_another_dtype_and_with_items_given():
    width = deepstack_width(DEEPSTACK)
    result = sizing.size_transfers(
        DEEPSTACK, {"image": width}, serving_dtype="float32", items=[sizing.parse_item("image:640x320")]
    )
    (image,) = result.modalities
    assert [(cost.label, cost.tokens) for cost in image.items] == [("image 640×320", 200)]  # 20 × 10 merged patches
    assert image.items[0].bytes == 200 * width * 4
    text = result.render_text()
    assert f"{width * 4} bytes per token = {units.format_bytes(width * 4)}" in text
    assert "buffer: 1000000000 bytes = 953.67 MiB (1.00 GB)" in text


def test_an_item_of_a_modality_without_a_width_is_refused():
    with pytest.raises(ValueError, match=f"{DEEPSTACK} has no audio width to price; it has image, video"):
        sizing.size_transfers(DEEPSTACK, {"image": 1, "video": 1}, items=[sizing.parse_item("audio:30s")])


def test_bad_serving_dtype_or_buffer_is_refused():
    with pytest.raises(ValueError, match="unknown serving dtype"):
        sizing.size_transfers(DEEPSTACK, {"image": 1}, serving_dtype="int4")
    with pytest.raises(ValueError, match="at least one byte"):
        sizing.size_transfers(DEEPSTACK, {"image": 1}, buffer_bytes=0)


def test_a_longer_item_than_the_profile_item_is_noted():
    # Qwen3-Omni's processor bounds tokens per frame: 64 frames in pairs of 196 tokens outgrow the profile video.
    vision = catalog_entry(OMNI).config["thinker_config"]["vision_config"]
    width = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))
    result = sizing.size_transfers(OMNI, {"video": width}, items=[sizing.parse_item("video:64x448x448")])
    (video,) = result.modalities
    assert video.items[0].tokens == 32 * 196 > video.largest.tokens
    assert "is not the largest: video 64 frames 448×448 has 6272" in video.note
    assert video.buffer_plan()["note"] == video.note
    assert "note: the profile item" in result.render_text()


def test_a_family_without_a_token_rule_keeps_its_width_and_says_so(tokenless_family):
    spec = toy_spec("toy-tokenless", tokenless_family)
    with pytest.raises(NoTokenRuleError):
        sizing.item_tokens(spec, ItemSize("image", height=448, width=448))
    result = sizing.size_transfers(spec, {"image": 24})
    (image,) = result.modalities
    assert image.note == sizing.NO_TOKEN_RULE == "no token rule for this family"
    assert image.bytes_per_token == 48
    assert all(cost.tokens is None and cost.bytes is None and cost.items_short is None for cost in image.items)
    assert image.buffer_plan() == {
        "width": 24, "serving_dtype": "bfloat16", "bytes_per_token": 48, "max_tokens_per_item": None,
        "max_bytes_per_item": None, "note": sizing.NO_TOKEN_RULE,
    }  # fmt: skip
    assert "no token rule for this family" in result.render_text()
