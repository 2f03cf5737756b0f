"""Video-LLaVA at tiny scale: image and video at the text width; a video frame keeps the CLS row an image drops."""

import numpy as np
from transformers.models.video_llava.image_processing_video_llava import VideoLlavaImageProcessor

import ecwidth
from ecwidth.families.video_llava import BACKEND_IMAGE_KWARGS
from ecwidth.measuring.encode import dummy_shapes
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config

#: The keys the Transformers backend's ``_process_image_input`` takes an image from.
BACKEND_IMAGE_KEYS = ("pixel_values", "image_patches")


def test_images_and_videos_ship_at_the_text_hidden_size():
    raw = tiny_config("video_llava")
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"], "video": raw["text_config"]["hidden_size"]}


def test_a_frame_keeps_its_cls_row_and_an_image_does_not():
    raw = tiny_config("video_llava")
    assert raw["vision_feature_select_strategy"] == "default"
    grid = (raw["vision_config"]["image_size"] // raw["vision_config"]["patch_size"]) ** 2
    shapes = dummy_shapes(build_on_cpu(raw), dummy="profile")
    assert shapes["image"][0] == grid
    assert shapes["video"][0] == raw["video_seq_length"] // (grid + 1) * (grid + 1)


def test_images_reach_the_backend_only_with_the_processor_kwargs():
    images = [np.zeros((32, 32, 3), dtype=np.uint8)]
    default = VideoLlavaImageProcessor()(images=images, return_tensors="pt")
    served = VideoLlavaImageProcessor()(images=images, return_tensors="pt", **BACKEND_IMAGE_KWARGS)
    assert any(key in served for key in BACKEND_IMAGE_KEYS)
    assert bool(BACKEND_IMAGE_KWARGS) != any(key in default for key in BACKEND_IMAGE_KEYS)
