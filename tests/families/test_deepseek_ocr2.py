"""DeepSeek-OCR-2 at tiny scale: the projector's output at the text width, the queries and the view separator."""

from __future__ import annotations

import torch

from tests.building import built
from tests.tiny_configs import tiny_config


def test_a_small_view_ships_the_smaller_query_set_and_the_zeroed_separator() -> None:
    adapter, model = built(tiny_config("deepseek_ocr2"))
    with torch.inference_mode():
        shipped = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
    assert len(shipped) == model.vision_tower.query_768_resolution.num_embeddings + 1
    assert not shipped[-1].any()
