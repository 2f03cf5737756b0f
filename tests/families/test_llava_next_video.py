"""LLaVA-NeXT-Video at tiny scale: videos only (as vLLM serves it), pooled frames at the text width."""

import pytest

import ecwidth
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


@pytest.mark.parametrize("mode", ["average", "max", "conv"])
def test_only_videos_ship_at_the_text_hidden_size(mode):
    raw = {**tiny_config("llava_next_video"), "spatial_pool_mode": mode}
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"video": raw["text_config"]["hidden_size"]}  # no image key: vLLM takes videos only
    assert result.predicted == result.widths


def test_video_tokens_are_pooled_frames():
    config = resolve_spec(tiny_config("llava_next_video")).config
    adapter = adapter_for("llava_next_video")
    per_frame = ((56 // 14) // 2) ** 2  # a 4x4 patch grid pooled by stride 2
    assert adapter.embed_tokens(config, ItemSize("video", 448, 448, frames=8)) == 8 * per_frame
    assert adapter.profile_tokens(config, "video") == 64 // per_frame * per_frame  # frames filling max_model_len
