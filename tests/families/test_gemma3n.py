"""Gemma 3n: both embedders end at the text hidden size; measured where timm imports, else answered by rule."""

import sys

import pytest

import ecwidth
from ecwidth.engines.releases import DEFAULT
from ecwidth.errors import UnmeasurableError
from ecwidth.families import adapter as adapter_module
from ecwidth.families.answers import architecture_records
from ecwidth.measuring.predict import predict_widths
from tests.tiny_configs import tiny_config

#: What stands in for an installed timm that cannot import beside this torch (PyPI's torchvision on a CPU build).
BROKEN_TIMM = 'raise RuntimeError("operator torchvision::nms does not exist")\n'


@pytest.fixture
def timm_that_fails_to_import(tmp_path, monkeypatch):
    (tmp_path / "timm").mkdir()
    (tmp_path / "timm" / "__init__.py").write_text(BROKEN_TIMM)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "timm", raising=False)
    adapter_module.import_problem.cache_clear()
    yield
    adapter_module.import_problem.cache_clear()


@pytest.fixture
def timm_missing(monkeypatch):
    monkeypatch.setattr(adapter_module, "import_problem", lambda package: f"{package} is not installed")


def test_image_and_audio_are_the_text_hidden_size_not_their_towers_widths():
    raw = tiny_config("gemma3n")
    width = raw["text_config"]["hidden_size"]
    assert predict_widths(raw) == {"image": width, "audio": width}
    assert width not in (raw["vision_config"]["hidden_size"], raw["audio_config"]["hidden_size"])


def test_the_widths_follow_the_text_model():
    raw = tiny_config("gemma3n")
    raw["text_config"]["hidden_size"] = 72
    raw["vision_config"]["hidden_size"] = 56
    assert predict_widths(raw) == {"image": 72, "audio": 72}


def test_without_timm_measure_refuses_and_says_why(timm_missing):
    with pytest.raises(UnmeasurableError, match="timm is not installed"):
        ecwidth.measure(tiny_config("gemma3n"), device="cpu")


def test_a_timm_that_is_installed_but_fails_to_import_leaves_the_rule_answering(timm_that_fails_to_import):
    with pytest.raises(UnmeasurableError, match="timm does not import here: RuntimeError: operator torchvision"):
        ecwidth.measure(tiny_config("gemma3n"), device="cpu")
    width = tiny_config("gemma3n")["text_config"]["hidden_size"]
    assert predict_widths(tiny_config("gemma3n")) == {"image": width, "audio": width}


def test_the_listing_says_the_rule_answers_and_which_package_measures():
    (row,) = [r for r in architecture_records(DEFAULT) if r["architecture"] == "Gemma3nForConditionalGeneration"]
    assert row["answered_by"] == {"image": "rule", "audio": "rule"} and row["measured_with"] == "timm"


@pytest.mark.skipif(bool(adapter_module.import_problem("timm")), reason="timm does not import here")
def test_where_timm_imports_both_towers_are_measured_at_the_text_width():
    raw = tiny_config("gemma3n")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"], "audio": raw["text_config"]["hidden_size"]}
    assert result.predicted_only == {}
