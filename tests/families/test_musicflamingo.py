"""Music Flamingo at tiny scale: the projector's output, text_config.hidden_size wide, time-stamped by its placeholders."""

from __future__ import annotations

import torch
from building import built, randomize
from tiny_configs import tiny_config

from ecwidth.measuring.measure import measure


def test_width_is_the_lm_hidden_size_not_the_towers() -> None:
    config = tiny_config("musicflamingo")
    result = measure(config, device="cpu")
    assert result.widths == {"audio": config["text_config"]["hidden_size"]}
    assert result.widths["audio"] != config["audio_config"]["hidden_size"]


def test_the_item_holds_one_placeholder_per_shipped_row() -> None:
    adapter, model = built(tiny_config("musicflamingo"))
    item = adapter.dummy_item(model, "audio", "profile", max_tokens=40)
    with torch.inference_mode():
        shipped = adapter.encode(model, "audio", item)
    assert item["input_ids"].shape == (1, len(shipped))
    assert bool((item["input_ids"] == model.config.audio_token_id).all())


def test_running_the_layers_on_real_rows_gives_the_full_windows_rows() -> None:
    adapter, model = built(tiny_config("musicflamingo"))
    randomize(model.audio_tower, model.multi_modal_projector)
    item = adapter.dummy_item(model, "audio", "profile", max_tokens=9)
    with torch.inference_mode():
        shipped = adapter.encode(model, "audio", item)
        full = model.get_audio_features(**item).pooler_output
    assert len(shipped) == 9
    torch.testing.assert_close(shipped, full)
