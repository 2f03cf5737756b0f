"""Video-LLaVA at tiny scale: image and video at the text width; a video frame keeps the CLS row an image drops."""

import ecwidth
from ecwidth.measure import dummy_shapes

from building import build_on_cpu
from tiny_configs import tiny_config


def test_images_and_videos_ship_at_the_text_hidden_size():
    raw = tiny_config("video_llava")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"], "video": raw["text_config"]["hidden_size"]}
    assert raw["vision_config"]["hidden_size"] != raw["text_config"]["hidden_size"]


def test_a_frame_keeps_its_cls_row_and_an_image_does_not():
    raw = tiny_config("video_llava")
    assert raw["vision_feature_select_strategy"] == "default"
    grid = (raw["vision_config"]["image_size"] // raw["vision_config"]["patch_size"]) ** 2
    shapes = dummy_shapes(build_on_cpu(raw), dummy="profile")
    assert shapes["image"][0] == grid
    assert shapes["video"][0] == raw["video_seq_length"] // (grid + 1) * (grid + 1)
