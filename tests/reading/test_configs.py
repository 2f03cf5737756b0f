"""``resolve_spec``: the one coercion of a catalog name, path, dict, spec or transformers config."""

import json

import pytest

from ecwidth.errors import ConfigError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec

NAME = "qwen3-vl-8b-instruct"


def test_every_form_of_a_model_resolves_to_the_same_config(tmp_path):
    spec = resolve_spec(NAME)
    (tmp_path / "config.json").write_text(json.dumps(spec.raw))
    for model in (spec, spec.raw, tmp_path, tmp_path / "config.json", str(tmp_path / "config.json"), spec.config):
        resolved = resolve_spec(model)
        assert resolved.model_type == "qwen3_vl"
        assert resolved.config.vision_config.out_hidden_size == 4096
        assert predict_widths(model) == {"image": 16384, "video": 16384}
    assert resolve_spec(spec) is spec
    from_config = resolve_spec(spec.config)
    assert from_config.config is spec.config  # a config object is taken as it is
    assert from_config.raw["vision_config"]["deepstack_visual_indexes"] == [8, 16, 24]


def test_anything_else_is_a_config_error_that_lists_what_works():
    with pytest.raises(ConfigError, match="cannot use a int as a model: pass a catalog name"):
        resolve_spec(42)
    with pytest.raises(ConfigError, match="no catalog model named"):
        resolve_spec("qwen3-vl-8b-instruc")


def test_reading_a_config_serializes_none_of_its_sub_configs(monkeypatch):
    import transformers

    from tests.tiny_configs import tiny_config

    serialized = []
    original = transformers.PretrainedConfig.to_json_string

    def counted(config, *args, **kwargs):
        serialized.append(config)
        return original(config, *args, **kwargs)

    monkeypatch.setattr(transformers.PretrainedConfig, "to_json_string", counted)
    spec = resolve_spec(tiny_config("qwen3_omni_moe"))  # thinker, talker and code-to-wave sub-configs, nested
    assert serialized == []
    assert repr(spec.config).startswith("Qwen3OmniMoeConfig {")  # the repr is transformers' own again


def test_a_rejected_sub_config_value_is_still_a_config_error_and_the_repr_comes_back():
    import transformers

    from tests.tiny_configs import tiny_config

    raw = tiny_config("llava")
    with pytest.raises(ConfigError, match="transformers rejects"):
        resolve_spec({**raw, "vision_config": {**raw["vision_config"], "hidden_act": 7}})
    assert repr(transformers.LlavaConfig()).startswith("LlavaConfig {")


def test_a_diff_style_config_takes_what_the_config_class_supplies_and_is_refused_only_what_neither_does():
    import copy

    from ecwidth.families.adapter import adapter_for
    from tests.tiny_configs import tiny_config

    # Written for the test: Gemma 4's required vision patch size left out, as a diff-style hub file leaves
    # out every field equal to its class's default; transformers' Gemma4VisionConfig supplies it.
    raw = copy.deepcopy(tiny_config("gemma4"))
    del raw["vision_config"]["patch_size"]
    assert "vision_config.patch_size" in adapter_for("gemma4").required_paths(raw)
    assert resolve_spec(raw).config.vision_config.patch_size  # the class default stands in, as for the engine
    # Inkling2's merger width has no class default: the file must say it.
    raw = copy.deepcopy(tiny_config("inkling2"))
    del raw["vision_config"]["text_hidden_size"]
    with pytest.raises(ConfigError, match=r"needs 'vision_config\.text_hidden_size', which the config lacks"):
        resolve_spec(raw)
