"""Gemma 4 at tiny scale: every modality through its embedder to the text width; token rules as vLLM counts."""

from ecwidth.families.adapter import adapter_for
from ecwidth.families.items import ItemSize
from ecwidth.measuring.measure import measure
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_every_modality_is_the_text_width_not_the_tower_or_projection_width():
    config = tiny_config("gemma4")
    expected = config["text_config"]["hidden_size"]
    result = measure(config, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected, "audio": expected}
    assert result.predicted == result.widths


def test_no_audio_config_no_audio():
    config = tiny_config("gemma4")
    config["audio_config"] = None
    assert measure(config, device="cpu", dtype="float32").widths.keys() == {"image", "video"}


def test_token_rules_follow_vllm():
    config = resolve_spec(tiny_config("gemma4")).config  # 16 px patches pooled 3 x 3: 48 px a token
    adapter = adapter_for("gemma4")
    # 224² scaled to 2520 patches: floor(16.7) = 16 tokens a side; a video frame at 70 soft tokens: 8 a side.
    assert adapter.profile_tokens(config, "image") == 256
    assert adapter.profile_tokens(config, "video") == 32 * 64
    assert adapter.embed_tokens(config, ItemSize("video", 224, 224, frames=4)) == 4 * 64
    # 30 s: 3000 mel frames, two stride-2 convs: 750; the 512-sample dummy clip: 3 frames, 1 token.
    assert adapter.embed_tokens(config, ItemSize("audio", seconds=30)) == 750
    assert adapter.profile_tokens(config, "audio") == 1
