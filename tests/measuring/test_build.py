"""Builds at published size: the encoder gets zero storage, and the language model's layers are never made.

Every family's model is constructed with its language model's decoder layers
removed (``without_language_layers``): that is where the MoE models keep
their experts, which some families fill with ``torch.zeros`` at full size
while they are constructed, before the parameter hook moves them to meta
(Llama-4 Scout: 5.5 GB and minutes). Nothing else stands in its way.
"""

from __future__ import annotations

import gc

import pytest
import torch

from ecwidth.families.adapter import adapter_for, resolve
from ecwidth.measuring.build import build_encoder
from ecwidth.measuring.memory import peak_memory
from ecwidth.reading.catalog import catalog_names
from ecwidth.reading.configs import resolve_spec

#: Real bytes a build may leave outside the encoder: the LM's rotary and sinusoidal position tables, never a layer.
OUTSIDE_ENCODER_LIMIT = 16 * 2**20
#: RSS a build may touch on its way: Python objects for the modules, never a layer's weights.
BUILD_RSS_LIMIT = 96 * 2**20


@pytest.mark.parametrize("name", catalog_names())
def test_a_published_build_holds_storage_only_for_its_encoder(name):
    spec = resolve_spec(name)
    adapter = adapter_for(spec.model_type)
    if not adapter.config_modalities(spec.config):
        pytest.skip(f"{spec.model_type} is answered by the engine's rule: nothing is built")
    with peak_memory("cpu") as peak:
        model = build_encoder(adapter, spec.config, device=torch.device("cpu"), dtype=torch.bfloat16)
    if peak.rss_is_per_block:
        assert peak.rss_bytes - peak.start_rss_bytes < BUILD_RSS_LIMIT
    inside = {
        id(tensor)
        for path in adapter.encoder_paths(model)
        for tensor in (*resolve(model, path).parameters(), *resolve(model, path).buffers())
    }
    outside = sum(
        tensor.nbytes
        for tensor in (*model.parameters(), *model.buffers())
        if id(tensor) not in inside and tensor.device.type != "meta"
    )
    assert outside < OUTSIDE_ENCODER_LIMIT, f"{outside} real bytes outside the encoder"
    text = spec.config.get_text_config()
    if text is not spec.config and hasattr(text, "num_hidden_layers"):
        assert text.num_hidden_layers > 0  # the published config itself is left as it was
    del model
    gc.collect()
