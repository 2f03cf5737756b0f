"""OpenVLA: engine only; PrismaticProjector's output, the Llama hidden size, predicted."""

import pytest

import ecwidth
from ecwidth.errors import UnmeasurableError
from ecwidth.measuring.predict import predict_widths
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config

#: PrismaticVisionBackbone.embed_dim: DINOv2 (1024) + SigLIP (1152) fused, or DINOv2 alone.
FUSED_PATCH_WIDTH, DINO_PATCH_WIDTH = 2176, 1024


@pytest.mark.parametrize("fused", [True, False])
def test_image_is_the_text_hidden_size_fused_or_not(fused):
    raw = tiny_config("openvla")
    raw["use_fused_vision_backbone"] = fused
    assert predict_widths(raw) == {"image": raw["text_config"]["hidden_size"]}
    assert raw["text_config"]["hidden_size"] not in (FUSED_PATCH_WIDTH, DINO_PATCH_WIDTH)


def test_the_width_follows_the_text_model_and_an_absent_one_is_llamas_default():
    raw = tiny_config("openvla")
    raw["text_config"]["hidden_size"] = 72
    assert predict_widths(raw) == {"image": 72}
    raw["text_config"] = {"model_type": "llama", "vocab_size": 32064, "pad_token_id": 32000}  # the published diff
    assert predict_widths(raw) == {"image": 4096}


def test_measure_refuses_and_says_why():
    with pytest.raises(UnmeasurableError, match="no transformers class can build"):
        ecwidth.measure(tiny_config("openvla"), device="cpu")


def test_the_published_auto_map_is_read_without_running_code():
    raw = tiny_config("openvla")
    assert raw["auto_map"]
    spec = resolve_spec(raw)
    assert spec.config.text_config.hidden_size == raw["text_config"]["hidden_size"]
    with pytest.raises(AttributeError, match="read-only"):
        spec.config.model_type = "llama"
