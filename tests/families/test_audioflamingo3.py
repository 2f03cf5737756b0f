"""Audio Flamingo 3 at tiny scale: vLLM ships the projector's output, text_config.hidden_size wide."""

from __future__ import annotations

import torch

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built
from tests.tiny_configs import tiny_config


def test_token_counts_follow_the_processor() -> None:
    config = resolve_spec(tiny_config("audioflamingo3")).config
    adapter = adapter_for("audioflamingo3")
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=30)) == 750
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=10)) == 250  # 1000 frames: 500 conv rows, pooled
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=45)) == 750 + 375
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=900)) == 20 * 750  # max_audio_len 600 s
    assert adapter.profile_tokens(config, "audio") == 20 * 750


def test_running_the_layers_on_real_rows_gives_the_masked_full_windows_rows() -> None:
    adapter, model = built(tiny_config("audioflamingo3"))
    torch.manual_seed(0)
    with torch.no_grad():
        for param in [*model.audio_tower.parameters(), *model.multi_modal_projector.parameters()]:
            param.normal_(0, 0.1)
    item = {"input_features": torch.randn(1, 8, 3000), "input_features_mask": (torch.arange(3000) < 37).long()[None]}
    with torch.inference_mode():
        shipped = adapter.encode(model, "audio", item)
        full = model.get_audio_features(**item).pooler_output
    assert shipped.shape == (9, 40)  # 37 frames: 19 conv rows, 9 pooled
    torch.testing.assert_close(shipped, full)
