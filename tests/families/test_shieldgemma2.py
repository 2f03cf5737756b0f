"""ShieldGemma 2 at tiny scale: served as Gemma 3, so the text width, not SigLIP's."""

from ecwidth.families.adapter import adapter_for
from ecwidth.reading.configs import resolve_spec
from tests.tiny_configs import tiny_config


def test_served_by_the_gemma3_adapter_with_its_token_rule():
    config = tiny_config("shieldgemma2")
    adapter = adapter_for("shieldgemma2")
    assert adapter is adapter_for("gemma3")
    assert adapter.profile_tokens(resolve_spec(config).config, "image") == config["mm_tokens_per_image"]
