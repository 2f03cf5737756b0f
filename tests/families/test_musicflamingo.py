"""Music Flamingo at tiny scale: the projector's output, text_config.hidden_size wide, time-stamped by its placeholders."""

from __future__ import annotations

import torch

from ecwidth.measuring.measure import measure_widths
from tests.building import build_on_cpu, built, randomize
from tests.tiny_configs import tiny_config


def test_audio_reaches_the_lm_at_the_text_hidden_size() -> None:
    config = tiny_config("musicflamingo")
    with torch.inference_mode():
        assert measure_widths(build_on_cpu(config)) == {"audio": config["text_config"]["hidden_size"]}


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
