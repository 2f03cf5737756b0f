"""VideoLLaMA3 at tiny scale: the projector at the text width; images merge by 1, videos by 2."""

import ecwidth
from ecwidth.families.video_llama_3 import IMAGE_MERGE, VIDEO_MERGE
from ecwidth.measuring.encode import dummy_shapes
from tests.building import build_on_cpu
from tests.tiny_configs import tiny_config


def test_images_and_videos_ship_at_the_text_hidden_size():
    raw = tiny_config("video_llama_3")
    width = raw["text_config"]["hidden_size"]
    assert ecwidth.measure(raw, device="cpu").widths == {"image": width, "video": width}


def test_the_minimal_items_are_one_merge_block_each():
    shapes = dummy_shapes(build_on_cpu(tiny_config("video_llama_3")), dummy="minimal")
    assert IMAGE_MERGE != VIDEO_MERGE
    assert shapes["image"][0] == shapes["video"][0] == 1
