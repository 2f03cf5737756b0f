"""DiffusionGemma at tiny scale: Gemma 4's vision path, image and video, at the text width; no audio."""

import torch

from ecwidth.measuring.measure import measure
from tests.building import built
from tests.tiny_configs import tiny_config


def test_image_and_video_at_the_text_width():
    config = tiny_config("diffusion_gemma")
    expected = config["text_config"]["hidden_size"]
    result = measure(config, device="cpu", dtype="float32")
    assert result.widths == {"image": expected, "video": expected}
    assert result.predicted == result.widths


def test_a_video_ships_its_frames_tokens_concatenated():
    adapter, model = built(tiny_config("diffusion_gemma"))
    with torch.inference_mode():
        video = adapter.encode(model, "video", adapter.dummy_item(model, "video", "profile", max_tokens=128))
    assert video.shape == (2 * 64, 48)  # two 8 x 8-token frames within the cap
