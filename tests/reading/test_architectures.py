"""Configs matched to their family as vLLM matches them: by the first ``architectures`` entry where the model type
is another model's, and refused in one line where no release serves the architecture."""

import json

import pytest

from ecwidth.cli.commands import main
from ecwidth.engines import registry
from ecwidth.errors import NotServedError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_a_config_carrying_a_text_models_type_is_filed_under_the_family_its_architecture_names():
    raw = tiny_config("fun_asr_qwen3")
    assert raw["model_type"] == "qwen3"  # as published: a plain Qwen3 config
    spec = resolve_spec(raw)
    assert spec.model_type == "fun_asr_qwen3" and spec.raw["model_type"] == "qwen3"  # the file is kept as given
    assert set(predict_widths(raw)) == {"audio"}


def test_the_same_model_type_under_a_text_architecture_stays_a_text_model():
    raw = {**tiny_config("fun_asr_qwen3"), "architectures": ["Qwen3ForCausalLM"]}
    assert resolve_spec(raw).model_type == "qwen3"
    assert predict_widths(raw) == {}  # no multimodal encoder: nothing to ship


@pytest.mark.parametrize("architecture", ["WhisperForConditionalGeneration", "CohereAsrForConditionalGeneration"])
def test_an_architecture_no_release_serves_is_one_error_line_saying_why(tmp_path, capsys, architecture):
    entry = registry.for_architecture(architecture)
    assert entry is not None and not entry.serves and not entry.family
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": entry.model_types[0], "architectures": [architecture]}))
    with pytest.raises(NotServedError, match=architecture):
        resolve_spec(path)
    assert main(["predict", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ecwidth: error:") and err.count("\n") == 1 and entry.why_not in err
