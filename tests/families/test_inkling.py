"""Inkling at tiny scale: the engine's towers end in decoder_dmodel, which transformers would replace by the text width."""

from __future__ import annotations

import json
from pathlib import Path

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec

TINY = Path(__file__).parents[1] / "tiny" / "inkling_mm_model.json"


def tiny() -> dict:
    return json.loads(TINY.read_text())


def test_width_is_decoder_dmodel_even_where_it_is_not_the_text_width() -> None:
    cfg = tiny()
    cfg["vision_config"]["decoder_dmodel"], cfg["audio_config"]["decoder_dmodel"] = 24, 56
    result = measure(cfg, device="cpu")
    assert result.widths == {"image": 24, "audio": 56}
    assert result.lm_hidden_size == cfg["text_config"]["hidden_size"] not in (24, 56)
    assert result.predicted == result.widths


def test_a_tower_without_decoder_dmodel_is_not_built_by_the_engine() -> None:
    cfg = tiny()
    del cfg["audio_config"]
    assert measure(cfg, device="cpu").widths == {"image": cfg["vision_config"]["decoder_dmodel"]}


def test_image_token_counts_follow_the_patchifier() -> None:
    config = resolve_spec(tiny()).config  # patch 2
    adapter = adapter_for("inkling_mm_model")
    # 8×8 doubles to 16×16: 8 rows of 16 // 2 + 1 = 9 patches; 4000 px stays (over 2048, no upscale).
    assert adapter.embed_tokens(config, ItemSize("image", 8, 8)) == 8 * 9
    assert adapter.embed_tokens(config, ItemSize("image", 3, 4000)) == 2 * 2001
    assert adapter.profile_tokens(config, "image") == 8 * 9  # vLLM's dummy: 4 patches a side
