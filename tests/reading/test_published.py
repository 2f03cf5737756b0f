"""Published architectures measured at full size on the CPU, against the engine's formulas.

Each expectation is written from the raw published config fields, the way a
serving engine sizes the transfer, never from the adapter under test.
"""

import json
import re

import pytest

import ecwidth
from ecwidth.reading.catalog import catalog_entry, catalog_names


def _raw(name: str) -> dict:
    return catalog_entry(name).config


def test_deepstack_model_ships_four_times_its_hidden_size():
    raw = _raw("qwen3-vl-8b-instruct")
    vision = raw["vision_config"]
    width = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))
    result = ecwidth.measure("qwen3-vl-8b-instruct", device="cpu")
    assert result.widths == {"image": width, "video": width}
    assert width == 4 * raw["text_config"]["hidden_size"]


def test_omni_packs_vision_but_not_audio():
    thinker = _raw("qwen3-omni-30b-a3b-instruct")["thinker_config"]
    vision = thinker["vision_config"]
    packed = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))
    result = ecwidth.measure("qwen3-omni-30b-a3b-instruct", device="cpu")
    assert result.widths == {"image": packed, "video": packed, "audio": thinker["audio_config"]["output_dim"]}


def test_llama4_ships_the_text_width_not_projector_output_dim():
    raw = _raw("llama-4-scout-17b-16e-instruct")
    result = ecwidth.measure("llama-4-scout-17b-16e-instruct", device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
    assert result.widths["image"] != raw["vision_config"]["projector_output_dim"]


@pytest.mark.parametrize("name", ["gemma-3-4b-it", "mistral-small-3-1-24b-instruct-2503"])
def test_projector_families_ship_the_text_width(name):
    assert ecwidth.measure(name, device="cpu").widths == {"image": _raw(name)["text_config"]["hidden_size"]}


@pytest.mark.parametrize("name", catalog_names())
def test_every_catalog_entry_records_the_modalities_its_adapter_reads(name):
    from ecwidth.families.adapter import MODALITY_ORDER, find_adapter
    from ecwidth.reading.configs import resolve_spec

    spec = resolve_spec(name)
    adapter = find_adapter(spec.model_type)
    # What a measurement encodes; for a family that only predicts, what the engine's rule gives.
    takes = adapter.config_modalities(spec.config) or tuple(
        m for m in MODALITY_ORDER if m in adapter.predict(spec.config)
    )
    assert takes and catalog_entry(name).modalities == takes


@pytest.mark.parametrize("name", catalog_names())
def test_every_catalog_date_is_a_day_or_a_month_and_says_where_it_comes_from(name):
    entry = catalog_entry(name)
    if entry.published is None:
        assert entry.published_from is None
    else:
        assert re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?", entry.published)
        assert entry.published_from


def test_the_catalog_is_listed_newest_first_with_undated_entries_last():
    published = [catalog_entry(name).published for name in catalog_names()]
    dated = [date for date in published if date]
    assert dated == sorted(dated, reverse=True)
    assert published == dated + [None] * (len(published) - len(dated))
    undated = [name for name in catalog_names() if not catalog_entry(name).published]
    assert undated == sorted(undated)


@pytest.mark.parametrize("name", ["qwen3-5-27b", "qwen3-5-397b-a17b"])
def test_qwen3_5_without_deepstack_ships_out_hidden_size(name):
    vision = _raw(name)["vision_config"]
    assert vision["deepstack_visual_indexes"] == []
    width = vision["out_hidden_size"]
    assert ecwidth.measure(name, device="cpu").widths == {"image": width, "video": width}


#: The compressed-tensors block of moonshotai/Kimi-K2.5's published config.json (text_config.quantization_config),
#: as in the verbatim copy at ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/.
KIMI_K2_5_QUANTIZATION = {
    "config_groups": {"group_0": {
        "input_activations": None, "output_activations": None, "targets": ["Linear"],
        "weights": {"actorder": None, "block_structure": None, "dynamic": False, "group_size": 32, "num_bits": 4,
                    "observer": "minmax", "observer_kwargs": {}, "strategy": "group", "symmetric": True, "type": "int"},
    }},
    "format": "pack-quantized",
    "ignore": ["lm_head", "re:.*self_attn.*", "re:.*shared_experts.*", "re:.*mlp\\.(gate|up|gate_up|down)_proj.*"],
    "kv_cache_scheme": None, "quant_method": "compressed-tensors", "quantization_status": "compressed",
}  # fmt: skip


def test_a_quantized_republication_measures_the_width_of_its_base(tmp_path):
    raw = _raw("qwen3-vl-2b-instruct")
    vision = raw["vision_config"]
    width = vision["out_hidden_size"] * (1 + len(vision["deepstack_visual_indexes"]))
    (tmp_path / "config.json").write_text(json.dumps({**raw, "quantization_config": KIMI_K2_5_QUANTIZATION}))
    assert ecwidth.measure(tmp_path, device="cpu").widths == {"image": width, "video": width}


def test_glm_ocr_ships_its_mergers_out_hidden_size():
    vision = _raw("glm-ocr")["vision_config"]
    width = vision["out_hidden_size"]
    assert width != vision["hidden_size"]
    result = ecwidth.measure("glm-ocr", device="cpu")
    assert result.widths == {"image": width, "video": width}
    assert result.predicted == result.widths


def test_gemma_4_12b_ships_the_text_width_for_every_modality_not_the_audio_embedders_input():
    raw = _raw("gemma-4-12b")
    assert raw["model_type"] == "gemma4_unified"
    width = raw["text_config"]["hidden_size"]
    result = ecwidth.measure("gemma-4-12b", device="cpu")
    assert result.widths == {"image": width, "video": width, "audio": width}
    assert result.predicted == result.widths
    assert raw["audio_config"]["output_proj_dims"] not in result.widths.values()  # 640: the embedder's input


def test_blip2_opt_from_its_diff_style_file_ships_the_text_width_in_num_query_tokens_rows():
    import torch

    from ecwidth.families.adapter import adapter_for
    from ecwidth.measuring.build import build_encoder
    from ecwidth.measuring.encode import dummy_shapes
    from ecwidth.reading.configs import resolve_spec

    raw = _raw("blip2-opt-2.7b")
    assert "patch_size" not in raw["vision_config"] and "hidden_size" not in raw["vision_config"]
    width = raw["text_config"]["hidden_size"]
    result = ecwidth.measure("blip2-opt-2.7b", device="cpu")
    assert result.widths == {"image": width} and result.predicted == result.widths
    spec = resolve_spec("blip2-opt-2.7b")
    model = build_encoder(adapter_for("blip-2"), spec.config, device=torch.device("cpu"), dtype=torch.bfloat16)
    assert dummy_shapes(model)["image"] == (raw["num_query_tokens"], width)


@pytest.mark.parametrize("engine", ["vllm==0.32.0", "vllm==0.33.0"])
def test_blip2_on_flan_t5_is_not_served_for_its_encoder_decoder_language_model(engine):
    from ecwidth.errors import NotServedError
    from ecwidth.measuring.predict import predict_widths

    assert _raw("blip2-flan-t5-xl")["text_config"]["is_encoder_decoder"]
    with pytest.raises(NotServedError, match="encoder-decoder language model"):
        ecwidth.measure("blip2-flan-t5-xl", device="cpu", engine=engine)
    with pytest.raises(NotServedError, match="encoder-decoder language model"):
        predict_widths("blip2-flan-t5-xl", engine=engine)
