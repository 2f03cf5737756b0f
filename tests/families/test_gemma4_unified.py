"""Gemma 4 Unified at tiny scale: encoder-free embedders, every modality at the text width."""

from tiny_configs import tiny_config

from ecwidth.measuring.measure import measure


def test_every_modality_is_the_text_width_not_the_embedder_inputs():
    config = tiny_config("gemma4_unified")
    expected = config["text_config"]["hidden_size"]
    assert expected not in (
        config["vision_config"]["mm_embed_dim"],
        config["vision_config"]["output_proj_dims"],
        config["audio_config"]["audio_embed_dim"],
    )
    result = measure(config, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected, "audio": expected}
    assert result.predicted == result.widths
