"""measure_widths on a rank, through the adapter interface, with the toy family."""

import pytest
import torch

import ecwidth
from ecwidth import EncodeError
from ecwidth.families.adapter import adapter_for, supported_model_types
from tests.toy import ToyAdapter, ToyConfig, ToyEncoder


@pytest.mark.parametrize("levels", [0, 1, 3])
def test_width_is_the_last_dim_of_the_packed_item(levels):
    config = ToyConfig(levels=levels)
    widths = ecwidth.measure_widths(ToyEncoder(config))
    # Image ships main + one slice per level; audio ships main alone.
    assert widths == {"image": config.out * (1 + levels), "audio": config.out}


def test_profile_item_gives_the_same_width_as_minimal():
    model = ToyEncoder(ToyConfig())
    assert ecwidth.measure_widths(model, dummy="profile") == ecwidth.measure_widths(model)


def test_only_requested_modalities_are_encoded():
    assert list(ecwidth.measure_widths(ToyEncoder(ToyConfig()), ["audio"])) == ["audio"]


def test_unknown_modality_is_refused_with_the_accepted_ones():
    with pytest.raises(ValueError, match="'video'.*accepts"):
        ecwidth.measure_widths(ToyEncoder(ToyConfig()), ["video"])


def test_unknown_dummy_size_is_refused():
    with pytest.raises(ValueError, match="dummy size"):
        ecwidth.measure_widths(ToyEncoder(ToyConfig()), dummy="huge")


def test_rank_without_encoder_reports_nothing():
    assert ecwidth.measure_widths(None) == {}
    assert ecwidth.measure_widths(ToyEncoder(ToyConfig(), with_encoder=False)) == {}


def test_model_of_a_family_without_adapter_reports_nothing():
    text_only = torch.nn.Linear(2, 2)
    text_only.config = ToyConfig(model_type="some_text_model")
    assert ecwidth.measure_widths(text_only) == {}


def test_encoder_failure_names_the_modality_and_suggests_minimal(monkeypatch):
    def out_of_memory(self, model, modality, item):
        raise torch.OutOfMemoryError("CUDA out of memory")

    monkeypatch.setattr(ToyAdapter, "encode", out_of_memory)
    with pytest.raises(EncodeError, match="profile 'image'.*--dummy minimal"):
        ecwidth.measure_widths(ToyEncoder(ToyConfig()), dummy="profile")


def test_a_minimal_item_that_fails_points_at_the_configs_sizes(monkeypatch):
    def mismatch(self, model, modality, item):
        raise RuntimeError("a and b must have same reduction dim, but got [1, 27] X [24, 24].")

    monkeypatch.setattr(ToyAdapter, "encode", mismatch)
    with pytest.raises(EncodeError, match=r"\[24, 24\]\. Check the config's sizes against .*published config.json"):
        ecwidth.measure_widths(ToyEncoder(ToyConfig()), dummy="minimal")


def test_registry_serves_the_adapter_by_model_type():
    assert "ecwidth_toy" in supported_model_types()
    assert isinstance(adapter_for("ecwidth_toy"), ToyAdapter)


def test_an_unknown_model_type_names_the_closest_ones_in_one_short_line():
    with pytest.raises(ecwidth.UnknownModelTypeError) as caught:
        adapter_for("qwen3vl")
    message = str(caught.value)
    assert "closest: qwen3_vl" in message and "ecwidth models --families" in message
    assert len(message) < 200 and "\n" not in message
    with pytest.raises(ecwidth.UnknownModelTypeError, match="lists all") as caught:
        adapter_for("zzzz")
    assert "closest" not in str(caught.value)


def test_modalities_are_matched_case_insensitively():
    from ecwidth.measuring.measure import measure
    from tests.tiny_configs import tiny_config

    assert set(measure(tiny_config("qwen3_vl"), ["IMAGE"], device="cpu").widths) == {"image"}


def test_a_measurement_that_fails_leaves_the_collector_as_it_found_it():
    import gc

    from ecwidth.errors import ResourceError
    from ecwidth.measuring.measure import measure
    from tests.tiny_configs import tiny_config

    before = gc.get_freeze_count()
    with pytest.raises(ResourceError):  # refused inside the build, after the collector is frozen for it
        measure(tiny_config("llava"), device="cpu", dtype="float32", max_memory=1)
    assert gc.get_freeze_count() == before
