"""``resolve_spec``: the one coercion of a catalog name, path, dict, spec or transformers config."""

import json

import pytest

from ecwidth.configs import resolve_spec
from ecwidth.errors import ConfigError
from ecwidth.predict import predict_widths

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
