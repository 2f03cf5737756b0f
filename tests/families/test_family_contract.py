"""The contract every registered model type keeps, run over the tiny config of each (``tests/tiny/``).

A family test file keeps only what is specific to its family; this module
checks what all of them share: it measures, the width equals the config's
prediction, a missing required field is named, minimal and profile items
agree, and a pipeline stage without the encoder reports nothing. A family
that can only predict (an ``engine_only`` one, with no transformers class, or
one whose items are LM token embeddings) keeps a shorter contract: it
predicts every modality it declares, and refuses to measure, saying why.
"""

from __future__ import annotations

import copy
import gc

import pytest
import torch
from building import build_on_cpu
from tiny_configs import measurable_model_types, tiny_config, tiny_model_types

from ecwidth.errors import ConfigError, UnmeasurableError
from ecwidth.families.adapter import adapter_for, lookup, resolve, supported_model_types
from ecwidth.measuring.measure import dummy_shapes, measure, measure_widths
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec

MODEL_TYPES = measurable_model_types()
PREDICTED_ONLY = [t for t in tiny_model_types() if t not in MODEL_TYPES]
#: Tokens a profile item is capped at: enough to leave the minimal item's shape, small enough for a CPU.
PROFILE_CAP = 64


@pytest.fixture(autouse=True)
def _collect_after_each_model():
    yield
    gc.collect()


def test_every_registered_model_type_has_a_tiny_config():
    untested = [t for t in supported_model_types() if t not in tiny_model_types() and t != "ecwidth_toy"]
    assert not untested, f"add tests/tiny/<model_type>.json for {untested}"


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_measures_a_positive_width_per_modality_equal_to_the_prediction(model_type):
    result = measure(tiny_config(model_type), device="cpu", dtype="float32")
    adapter = adapter_for(model_type)
    assert tuple(result.widths) == adapter.config_modalities(resolve_spec(tiny_config(model_type)).config)
    assert result.widths, "a multimodal family measured no modality"
    assert all(isinstance(w, int) and w > 0 for w in result.widths.values())
    assert result.predicted == result.widths


@pytest.mark.parametrize("model_type", PREDICTED_ONLY)
def test_a_predicted_only_family_predicts_its_modalities_and_refuses_to_measure(model_type):
    predicted = predict_widths(tiny_config(model_type))
    assert set(predicted) == set(adapter_for(model_type).predicted_only)
    assert predicted and all(isinstance(w, int) and w > 0 for w in predicted.values())
    with pytest.raises(UnmeasurableError, match="is predicted only"):
        measure(tiny_config(model_type), device="cpu")


@pytest.mark.parametrize("model_type", tiny_model_types())
def test_a_missing_required_field_is_a_config_error_naming_it(model_type):
    raw = tiny_config(model_type)
    fields = adapter_for(model_type).required_paths(raw)
    assert fields, f"{model_type} declares no required field"
    for field in fields:
        assert lookup(raw, field) is not None, f"the tiny config lacks its own required {field!r}"
        broken = copy.deepcopy(raw)
        *parents, leaf = field.split(".")
        owner = broken
        for part in parents:
            owner = owner[part]
        del owner[leaf]
        with pytest.raises(ConfigError, match=field.replace(".", r"\.")):
            resolve_spec(broken)


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_minimal_and_profile_items_give_the_same_width(model_type):
    model = build_on_cpu(tiny_config(model_type))
    minimal = dummy_shapes(model, dummy="minimal")
    profile = dummy_shapes(model, dummy="profile", max_tokens=PROFILE_CAP)
    assert {m: w for m, (_, w) in profile.items()} == {m: w for m, (_, w) in minimal.items()}
    for modality, (tokens, _) in profile.items():
        assert tokens >= minimal[modality][0], modality


@pytest.mark.parametrize("model_type", MODEL_TYPES)
def test_a_pipeline_stage_without_the_encoder_reports_nothing(model_type):
    model = build_on_cpu(tiny_config(model_type))
    adapter = adapter_for(model_type)
    path = adapter.encoder_paths(model)[0]
    parent, _, name = path.rpartition(".")
    setattr(resolve(model, parent) if parent else model, name, None)
    assert not adapter.has_encoder(model)
    with torch.inference_mode():
        assert measure_widths(model) == {}
