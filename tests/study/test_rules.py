"""Sizing rules against measured widths (ecwidth.study.rules)."""

import math

import pytest

from ecwidth.errors import ConfigError, TableError
from ecwidth.families.adapter import find_adapter
from ecwidth.measuring.measure import measure
from ecwidth.measuring.survey import survey
from ecwidth.reading.catalog import catalog_entry
from ecwidth.reading.configs import resolve_spec
from ecwidth.records.table import WidthTable
from ecwidth.study import labels, rules
from tests.width_tables import table_of

DEEPSTACK = "qwen3-vl-2b-instruct"  # smallest DeepStack tower in the catalog: 3 levels, out_hidden_size 2048


def needs_family(name: str) -> None:
    """Skip while the model's family adapter has not landed yet."""
    if find_adapter(catalog_entry(name).config["model_type"]) is None:
        pytest.skip(f"no adapter yet for {name}")


@pytest.fixture(scope="module")
def measured_deepstack() -> WidthTable:
    """qwen3-vl-2b measured for real on the CPU (the only measurement in this file)."""
    result = survey([DEEPSTACK], device="cpu", dtype="float32", progress=False)
    assert not result.failures
    return result.table


# -- the rules, from published configs -----------------------------------------------------


def test_sglang_sizer_under_allocates_qwen2_audio_and_applies_only_where_sglang_disaggregates():
    """SGLang sizes Qwen2-Audio's audio from ``audio_config.d_model``; the tower ships the projector's output."""
    raw = catalog_entry("qwen2-audio-7b-instruct").config
    sized = rules.sglang_sizer("qwen2-audio-7b-instruct", "audio")
    assert sized == raw["audio_config"]["d_model"]
    shipped = measure("qwen2-audio-7b-instruct", engine="sglang==0.5.23").widths["audio"]
    assert rules.classify(sized, shipped)[2] == rules.UNDER
    deepstack = catalog_entry(DEEPSTACK).config["vision_config"]
    packed = deepstack["out_hidden_size"] * (1 + len(deepstack["deepstack_visual_indexes"]))
    assert rules.sglang_sizer(DEEPSTACK, "image") == packed  # SGLang packs DeepStack as vLLM does
    assert rules.sglang_sizer("gemma-3-4b-it", "image") is None  # no encoder disaggregation for Gemma 3


def test_rules_read_published_config_fields():
    spec = resolve_spec("qwen3-vl-8b-instruct")
    assert rules.text_hidden_size(spec) == 4096
    assert rules.vision_out_hidden_size(spec) == 4096
    assert rules.config_deepstack_levels(spec) == 3
    assert rules.out_hidden_size_with_deepstack(spec, "image") == 4096 * 4
    assert rules.projector_output_field(spec, "image") is None  # qwen3-vl has no projector field
    assert rules.ecwidth_prediction(spec, "video") == 16384
    # The same rules accept a catalog name, a raw dict or a transformers config.
    assert rules.text_hidden_size("qwen3-vl-8b-instruct") == 4096
    assert rules.vision_out_hidden_size(catalog_entry("qwen3-vl-8b-instruct").config) == 4096
    assert rules.out_hidden_size_with_deepstack(spec.config) == 16384


def test_rules_that_do_not_apply_return_none():
    needs_family("gemma-3-4b-it")
    spec = resolve_spec("gemma-3-4b-it")  # SigLIP + projector: no out_hidden_size, no DeepStack
    assert rules.vision_out_hidden_size(spec) is None
    assert rules.out_hidden_size_with_deepstack(spec) is None
    assert rules.projector_output_field(spec, "image") is None
    assert rules.config_deepstack_levels(spec) == 0
    assert rules.text_hidden_size(spec) == 2560


def test_projector_field_is_per_modality():
    needs_family("llama-4-scout-17b-16e-instruct")
    llama4 = resolve_spec("llama-4-scout-17b-16e-instruct")
    assert rules.projector_output_field(llama4, "image") == 4096
    assert rules.projector_output_field(llama4, "audio") is None
    assert rules.projector_output_field(llama4, None) is None
    needs_family("qwen3-omni-30b-a3b-instruct")
    omni = resolve_spec("qwen3-omni-30b-a3b-instruct")  # omni: encoder configs live in thinker_config
    assert rules.projector_output_field(omni, "audio") == 2048
    assert rules.projector_output_field(omni, "image") is None
    assert rules.out_hidden_size_with_deepstack(omni, "audio") == 8192  # one width per model: 4x audio's


def test_classify_signs_and_factors():
    assert rules.classify(2048, 8192) == (-0.75, 4.0, "under")
    assert rules.classify(8192, 2048) == (3.0, 0.25, "over")
    assert rules.classify(4096, 4096) == (0.0, 1.0, "exact")
    error, factor, verdict = rules.classify(None, 4096)
    assert math.isnan(error) and math.isnan(factor) and verdict == "n/a"


# -- rules against measurement ----------------------------------------------------------------


def test_hidden_size_rules_under_allocate_deepstack_by_exactly_one_plus_levels(measured_deepstack):
    comparison = rules.compare_rules(measured_deepstack)
    assert list(comparison.columns) == list(rules.COMPARISON_COLUMNS)
    assert set(comparison["modality"]) == {"image", "video"}
    by_rule = {rule: part for rule, part in comparison.groupby("rule")}
    assert set(by_rule) == set(rules.RULE_NAMES)
    levels = rules.config_deepstack_levels(DEEPSTACK)
    assert levels == 3
    for rule in ("text hidden_size", "vision out_hidden_size"):
        part = by_rule[rule]
        assert (part["verdict"] == "under").all(), part
        assert (part["measured_over_rule"] == 1 + levels).all()  # measured width is (1 + levels)x the rule's
        assert (part["relative_error"] == -levels / (1 + levels)).all()
        assert (part["consequence"] == "crash or corruption").all()
    for rule in ("out_hidden_size × (1 + DeepStack)", "ecwidth prediction"):
        assert (by_rule[rule]["verdict"] == "exact").all(), by_rule[rule]
        assert (by_rule[rule]["rule_width"] == by_rule[rule]["measured_width"]).all()
    assert (by_rule["projector output field"]["verdict"] == "n/a").all()
    assert by_rule["projector output field"]["rule_width"].isna().all()


def test_measured_width_is_what_the_deepstack_rule_says(measured_deepstack):
    spec = resolve_spec(DEEPSTACK)
    assert measured_deepstack.widths(DEEPSTACK) == {
        "image": rules.out_hidden_size_with_deepstack(spec),
        "video": rules.out_hidden_size_with_deepstack(spec),
    }
    assert measured_deepstack.widths(DEEPSTACK)["image"] == 4 * rules.text_hidden_size(spec)


def test_over_allocation_is_flagged_as_waste():
    # A width smaller than every rule (as if a family shipped less): every applicable rule over-allocates.
    table = table_of({DEEPSTACK: {"image": 1024, "video": 8192}})
    comparison = rules.compare_rules(table)
    image = comparison[comparison["modality"] == "image"].set_index("rule")
    assert image.loc["text hidden_size", "verdict"] == "over"
    assert image.loc["text hidden_size", "relative_error"] == pytest.approx(1.0)
    assert image.loc["out_hidden_size × (1 + DeepStack)", "relative_error"] == pytest.approx(7.0)
    assert image.loc["out_hidden_size × (1 + DeepStack)", "consequence"] == "wasted memory"
    misses = rules.misses(comparison)
    assert set(misses["verdict"]) == {"under", "over"}
    assert misses["verdict"].iloc[0] == "under"  # under-allocation (a crash) is listed first
    assert misses["verdict"].iloc[-1] == "over"
    assert misses["relative_error"].iloc[-1] == pytest.approx(1.0)  # the smallest over-allocation comes last


def test_compare_rules_refuses_predicted_widths():
    with pytest.raises(TableError, match="predicted"):
        rules.compare_rules(table_of({DEEPSTACK: {"image": 8192, "video": 8192}}, source="predicted"))


def test_compare_rules_takes_specs_for_models_outside_the_catalog():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    with pytest.raises(ConfigError):
        rules.compare_rules(table, specs={DEEPSTACK: "no-such-model"})
    other = catalog_entry("qwen3-vl-8b-instruct").config
    comparison = rules.compare_rules(table, specs={DEEPSTACK: other})
    assert set(comparison.loc[comparison["rule"] == "text hidden_size", "rule_width"]) == {4096}


def test_rule_matrix_collapses_modalities_and_marks_deepstack():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    matrix = rules.rule_matrix(rules.compare_rules(table))
    assert list(matrix.columns) == list(rules.RULE_NAMES)
    assert list(matrix.index) == [f"{DEEPSTACK} (image, video) ◆ 3 DeepStack levels"]
    assert matrix.iloc[0]["text hidden_size"] == -0.75
    assert math.isnan(matrix.iloc[0]["projector output field"])
    split = rules.rule_matrix(rules.compare_rules(table), collapse=False)
    assert len(split) == 2
    # Modalities with different widths never share a row.
    uneven = rules.rule_matrix(rules.compare_rules(table_of({DEEPSTACK: {"image": 8192, "video": 2048}})))
    assert len(uneven) == 2


def test_rule_summary_counts_each_verdict():
    table = table_of({DEEPSTACK: {"image": 8192, "video": 8192}})
    summary = rules.rule_summary(rules.compare_rules(table))
    assert summary.loc["text hidden_size", "under"] == 2
    assert summary.loc["text hidden_size", "worst_under_factor"] == 4.0
    assert summary.loc["ecwidth prediction", "exact"] == 2
    assert summary.loc["projector output field", "n/a"] == 2
    assert summary[["exact", "under", "over", "n/a"]].sum(axis=1).eq(2).all()


def test_packing_marks_count_maps_and_tell_layer_maps_from_deepstack_levels():
    """Granite 4 Vision ships layer maps only (width = maps × hidden); Qwen3-VL a main slice and DeepStack levels."""
    granite = catalog_entry("granite-vision-4.1-4b").config
    maps = len(granite["deepstack_layer_map"]) + len(granite["spatial_target_layers"])
    hidden = granite["text_config"]["hidden_size"]
    assert labels.packing_mark(maps, maps * hidden, hidden) == f"◆ {maps} layer maps"
    assert labels.packing_mark(3, 4 * 2048, 2048) == "◆ 3 DeepStack levels"
    assert labels.packing_mark(0, 2048, 2048) == ""
    assert "×" not in labels.packing_mark(3, 4 * 2048, 2048)  # "×" is for ratios
