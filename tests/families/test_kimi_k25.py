"""Kimi-K2.5: one ``vision_chunk`` modality; vLLM ships the projector output, text hidden wide."""

from __future__ import annotations

from ecwidth.engines.releases import SGLANG_0_5_23, VLLM_0_32, VLLM_0_33
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_vision_chunk_width_is_the_text_hidden_size():
    raw = tiny_config("kimi_k25")
    expected = raw["text_config"]["hidden_size"]
    assert expected != raw["vision_config"]["hidden_size"] * 2 * 2  # the projector's input: not the width
    result = measure(raw, device="cpu", dtype="float32")
    assert result.widths == {"vision_chunk": expected}


def test_tokens_follow_vllms_navit_resize():
    config = resolve_spec(tiny_config("kimi_k25")).config  # patch 14, merge 2: one token per 28×28
    adapter = adapter_for("kimi_k25")
    assert adapter.embed_tokens(config, ItemSize("vision_chunk", 448, 448)) == 16 * 16
    # 4 frames pool into one chunk; 8 frames are two chunks.
    assert adapter.embed_tokens(config, ItemSize("vision_chunk", 448, 448, frames=8)) == 2 * 16 * 16
    # 3000² scales to 1794² (16384-patch budget), padded to 1820²: 65² tokens.
    assert adapter.profile_tokens(config, "vision_chunk") == 65 * 65


def test_the_published_remote_code_schema_builds_at_its_own_sizes():
    native = tiny_config("kimi_k25")
    vision = native["vision_config"]
    published = {**native, "vision_config": {
        "vt_hidden_size": vision["hidden_size"], "vt_intermediate_size": vision["intermediate_size"],
        "vt_num_hidden_layers": vision["num_hidden_layers"], "vt_num_attention_heads": vision["num_attention_heads"],
        "init_pos_emb_height": vision["pos_emb_height"], "init_pos_emb_width": vision["pos_emb_width"],
        "init_pos_emb_time": vision["pos_emb_time"], "patch_size": vision["patch_size"],
        "merge_kernel_size": vision["merge_kernel_size"], "mm_hidden_size": vision["hidden_size"],
    }}  # fmt: skip
    spec = resolve_spec(published)
    assert spec.config.vision_config.hidden_size == vision["hidden_size"]  # not transformers' default of 1152
    assert spec.raw == published  # the record keeps what was published
    assert measure(published, device="cpu").widths == {"vision_chunk": native["text_config"]["hidden_size"]}


def test_vllm_ships_it_as_vision_chunk_and_sglang_as_image():
    adapter = adapter_for("kimi_k25")
    for release in (VLLM_0_32, VLLM_0_33):
        assert adapter.engine_key("vision_chunk", release) == "vision_chunk"
    assert adapter.engine_key("vision_chunk", SGLANG_0_5_23) == "image"
