"""Nemotron-Parse 3.5: remote code, read as data and never run; the decoder's width predicted for its visual prefix."""

import copy

import pytest

from ecwidth.engines.releases import VLLM_0_32
from ecwidth.errors import ConfigError, NotServedError
from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_the_prefix_is_predicted_at_the_decoders_width():
    raw = tiny_config("nemotron_parse")
    assert predict_widths(raw) == {"image": raw["decoder"]["d_model"]}


def test_its_remote_code_config_is_read_without_trusting_remote_code():
    raw = tiny_config("nemotron_parse")
    assert raw["auto_map"]
    spec = resolve_spec(raw)  # trust_remote_code stays off: nothing is imported, the JSON is read
    assert spec.config.decoder.d_model == raw["decoder"]["d_model"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "mbart"


def test_the_profile_page_is_its_patch_rows_a_quarter_wide_plus_a_summary_row():
    raw = tiny_config("nemotron_parse")
    (height, width), patch = raw["image_size"], raw["encoder"]["patch_size"]
    expected = (height // patch) * (width // patch // 4) + 1
    assert adapter_for("nemotron_parse").profile_tokens(resolve_spec(raw).config, "image") == expected


@pytest.mark.parametrize(
    ("path", "value"),
    [("decoder.add_cross_attention", True), ("decoder.causal_vision_prefix", False), ("navit_packing", False)],
)
def test_a_config_the_engines_prefix_class_refuses_is_refused(path, value):
    raw = copy.deepcopy(tiny_config("nemotron_parse"))
    *parents, leaf = path.split(".")
    owner = raw
    for part in parents:
        owner = owner[part]
    owner[leaf] = value
    with pytest.raises(ConfigError, match=path.replace(".", r"\.")):
        resolve_spec(raw)


def test_vllm_0_32_does_not_serve_it():
    with pytest.raises(NotServedError, match="RadioMBartPrefixForCausalLM"):
        predict_widths(tiny_config("nemotron_parse"), engine=VLLM_0_32)
