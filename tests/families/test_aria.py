"""Aria at tiny scale: projector queries at the text width; the query count follows the crop's patches."""

import torch

from ecwidth.families.items import ItemSize
from ecwidth.reading.configs import resolve_spec
from tests.building import built
from tests.tiny_configs import tiny_config


def test_queries_follow_the_patch_count():
    adapter, model = built(tiny_config("aria"))  # {4 patches: 2 queries, 16 patches: 4 queries}
    with torch.inference_mode():
        minimal = adapter.encode(model, "image", adapter.dummy_item(model, "image", "minimal"))
        profile = adapter.encode(model, "image", adapter.dummy_item(model, "image", "profile"))
    assert minimal.shape == (2, 48)
    assert profile.shape == (4, 48)
    config = resolve_spec(tiny_config("aria")).config
    assert adapter.embed_tokens(config, ItemSize("image", 30, 700)) == 4  # padded to the full crop
    assert adapter.profile_tokens(config, "image") == 4
