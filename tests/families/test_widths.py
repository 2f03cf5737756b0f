"""The width of each family whose rule is one config field, measured from its tiny config: one table.

Each row names the field of the raw config the engine ships per modality
(read here, never from the adapter), so a family whose measured width drifts
from its engine's rule fails its row. Families whose width takes code (DeepStack
levels, option channels, fields that only look like the width) keep tests of
their own beside them.
"""

import pytest

from ecwidth.measuring.measure import measure
from tests.tiny_configs import tiny_config

#: model type -> (the raw config's dotted field the engine ships, the modalities it ships it for).
WIDTH_FIELDS = {
    "aria": ("text_config.hidden_size", ("image",)),
    "audioflamingo3": ("text_config.hidden_size", ("audio",)),
    "blip-2": ("text_config.hidden_size", ("image",)),
    "deepseek_ocr2": ("text_config.hidden_size", ("image",)),
    "exaone4_5": ("vision_config.out_hidden_size", ("image", "video")),  # the merger's output
    "fun_asr_nano": ("adaptor_config.hidden_size", ("audio",)),
    "glmasr": ("text_config.hidden_size", ("audio",)),
    "hyperclovax_vision_v2": ("text_config.hidden_size", ("image", "video")),
    "lighton_ocr": ("text_config.hidden_size", ("image",)),
    "minimax_m3_vl": ("text_config.hidden_size", ("image", "video")),
    "molmo2": ("adapter_config.text_hidden_size", ("image", "video")),  # not text_config.hidden_size
    "moss_transcribe_diarize": ("text_config.hidden_size", ("audio",)),
    "muse_glimmer": ("text_config.hidden_size", ("image", "video")),
    "paligemma": ("projection_dim", ("image",)),  # the top-level one, copied over vision_config's
    "qwen2_audio": ("text_config.hidden_size", ("audio",)),
    "qwen3_asr": ("audio_config.output_dim", ("audio",)),
    "shieldgemma2": ("text_config.hidden_size", ("image",)),
    "vibevoice_asr": ("text_config.hidden_size", ("audio",)),
    "voxtral": ("text_config.hidden_size", ("audio",)),
}


def field(raw: dict, dotted: str) -> int:
    value = raw
    for part in dotted.split("."):
        value = value[part]
    return value


@pytest.mark.parametrize("model_type", sorted(WIDTH_FIELDS))
def test_the_measured_width_is_the_field_the_engine_ships(model_type):
    raw = tiny_config(model_type)
    dotted, modalities = WIDTH_FIELDS[model_type]
    result = measure(raw, device="cpu", dtype="float32")
    assert result.widths == dict.fromkeys(modalities, field(raw, dotted)) == result.predicted
