"""Video-LLaVA at tiny scale: image and video at the text width; a video frame keeps the CLS row an image drops."""

from building import build_on_cpu
from tiny_configs import tiny_config

import ecwidth
from ecwidth.measuring.measure import dummy_shapes


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


def test_the_engine_line_says_images_need_the_processor_setting_the_backend_reads():
    import numpy as np
    from transformers.models.video_llava.image_processing_video_llava import VideoLlavaImageProcessor

    from ecwidth.families.adapter import adapter_for

    returned = VideoLlavaImageProcessor()(images=[np.zeros((32, 32, 3), dtype=np.uint8)], return_tensors="pt")
    backend_reads_it = "pixel_values" in returned or "image_patches" in returned  # its _process_image_input's keys
    engine = adapter_for("video_llava").engine
    assert ("return_legacy_image_output" in engine) != backend_reads_it
