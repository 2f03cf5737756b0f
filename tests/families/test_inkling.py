"""Inkling at tiny scale: the engine's towers end in decoder_dmodel, which transformers would replace by the text width."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ecwidth.errors import ConfigError
from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.measuring.predict import predict_widths
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


def small_tower() -> dict:
    """Written for the test: 4-pixel patches plan four steps (input, 2, 4, then 2 frames); two layers take them."""
    cfg = tiny()
    cfg["vision_config"].update(patch_size=4, temporal_patch_size=2, n_layers=2, decoder_dmodel=32)
    return cfg


def test_a_tower_smaller_than_its_plan_is_refused_in_one_line_without_scipy(monkeypatch) -> None:
    import sys

    for name in ("scipy", "scipy.optimize"):  # as if scipy were not installed, even where a test imported it
        monkeypatch.setitem(sys.modules, name, None)
    cfg = small_tower()
    with pytest.raises(ConfigError, match=r"2 layers.*scipy.optimize.linear_sum_assignment.*pip install scipy") as info:
        measure(cfg, device="cpu")
    assert "\n" not in str(info.value)
    assert predict_widths(cfg) == {"image": 32, "audio": cfg["audio_config"]["decoder_dmodel"]}  # builds nothing


def test_a_tower_smaller_than_its_plan_measures_decoder_dmodel_with_scipy(monkeypatch) -> None:
    import scipy.optimize  # in the `measure` extra: transformers plans such a tower with it

    assignments = []
    solve = scipy.optimize.linear_sum_assignment
    monkeypatch.setattr(scipy.optimize, "linear_sum_assignment", lambda cost: assignments.append(cost) or solve(cost))
    cfg = small_tower()
    result = measure(cfg, device="cpu")
    assert assignments  # the tower took the scipy plan: fewer layers than steps
    widths = {"image": cfg["vision_config"]["decoder_dmodel"], "audio": cfg["audio_config"]["decoder_dmodel"]}
    assert result.widths == widths and result.predicted == widths
    assert result.lm_hidden_size not in widths.values()  # the engine's width, not transformers' text width


def test_the_engine_reads_the_raw_file_so_no_class_default_stands_in() -> None:
    cfg = tiny()
    del cfg["audio_config"]["decoder_dmodel"]
    with pytest.raises(ConfigError, match=r"audio_config\.decoder_dmodel"):
        resolve_spec(cfg)
