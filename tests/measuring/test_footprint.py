"""An item's real encode is sized before it runs, and refused where it would not fit (ecwidth.footprint)."""

import pytest
import torch
from torch.utils._pytree import tree_leaves

from ecwidth.errors import ResourceError
from ecwidth.measuring.footprint import LIVE_ROWS, item_activation_bytes, widest_layer
from ecwidth.measuring.measure import measure, measure_widths
from ecwidth.records.units import format_bytes
from tests.building import built
from tests.tiny_configs import tiny_config


def _floating_bytes(item: dict) -> int:
    return sum(
        t.numel() * t.element_size() for t in tree_leaves(item) if isinstance(t, torch.Tensor) and t.is_floating_point()
    )


@pytest.mark.parametrize("model_type", ["llava", "qwen3_vl", "qwen2_audio"])
@pytest.mark.parametrize("dummy", ["minimal", "profile"])
def test_estimate_covers_the_item_and_its_widest_rows(model_type, dummy):
    adapter, model = built(tiny_config(model_type))
    modality = adapter.modalities(model)[0]
    real = adapter.dummy_item(model, modality, dummy)
    largest = max((t for t in tree_leaves(real) if isinstance(t, torch.Tensor) and t.is_floating_point()),
                  key=torch.Tensor.numel)  # fmt: skip
    rows = largest.numel() // largest.shape[-1]
    expected = _floating_bytes(real) + rows * widest_layer(model, adapter.encoder_paths(model)) * LIVE_ROWS * 4
    assert item_activation_bytes(adapter, model, modality, dummy, None) == expected


def test_widest_layer_reads_the_config_widths():
    config = tiny_config("llava")
    adapter, model = built(config)
    vision, text = config["vision_config"], config["text_config"]
    assert widest_layer(model, adapter.encoder_paths(model)) == max(
        vision["intermediate_size"], vision["hidden_size"], text["hidden_size"]
    )


def test_an_item_past_the_limit_is_refused_before_it_is_made():
    adapter, model = built(tiny_config("llava"))
    needed = item_activation_bytes(adapter, model, "image", "minimal", None)
    with pytest.raises(ResourceError, match=r"minimal image item would hold about .* activations.*--max-memory"):
        measure_widths(model, max_memory=needed - 1)
    assert measure_widths(model, max_memory=needed) == {"image": tiny_config("llava")["text_config"]["hidden_size"]}


def test_a_tile_of_a_million_pixels_is_one_error_not_an_exhausted_machine():
    """LLaVA's profile item is one whole tile: a config with a 42000-pixel tile asks for 21 GB of pixels alone."""
    config = tiny_config("llava")
    side = config["vision_config"]["image_size"] = 14 * 3000  # the weights: 9e6 positions x 16 wide, 0.6 GB
    vision, text = config["vision_config"], config["text_config"]
    widest = max(vision["intermediate_size"], vision["hidden_size"], text["hidden_size"])
    pixels, rows = 3 * side * side * 4, 3 * side  # one [1, 3, side, side] float32 tile; a row per channel line
    with pytest.raises(ResourceError) as refused:
        measure(config, dummy="profile", shape_faithful=False, max_memory=2 * 2**30)  # encoded for real
    estimate = format_bytes(pixels + rows * widest * LIVE_ROWS * 4)
    assert f"profile image item would hold about {estimate} of activations" in str(refused.value)


# -- the encoder's weights from its config's fields, before anything is built ---------------------------------


def _laid_out_parameters(spec) -> int:
    """The encoder's exact parameter count, from the model laid out on meta as ``build_encoder`` lays it out."""
    from transformers.initialization import no_init_weights

    from ecwidth.families.adapter import find_adapter, resolve
    from ecwidth.measuring.build import parameters_on_meta, without_language_layers

    adapter = find_adapter(spec.model_type)
    config = spec.config if adapter.needs_language_layers else without_language_layers(spec.config)
    with parameters_on_meta(), no_init_weights():
        model = adapter.construct(config, torch.float32)
    params = {}
    for path in adapter.encoder_paths(model):
        module = resolve(model, path)
        params.update({id(p): p.numel() for p in (module.parameters() if module is not None else ())})
    return sum(params.values())


def test_the_estimate_from_fields_is_a_lower_bound_of_every_catalog_encoder():
    from ecwidth.families.adapter import adapter_for
    from ecwidth.measuring.footprint import encoder_parameters_from_config
    from ecwidth.reading.catalog import catalog_names
    from ecwidth.reading.configs import resolve_spec

    specs = {}
    for name in catalog_names():  # one architecture of each model type and tower depth
        spec = resolve_spec(name)
        if not adapter_for(spec.model_type).config_modalities(spec.config):
            continue  # an engine-only family's rule: nothing is built, so no footprint is estimated
        specs.setdefault((spec.model_type, str(encoder_parameters_from_config(spec.config))), spec)
    for spec in specs.values():
        estimate = sum(count for count, _, _ in encoder_parameters_from_config(spec.config).values())
        exact = _laid_out_parameters(spec)
        assert estimate <= exact, (spec.name, estimate, exact)  # never above: a real config always passes
        # Not vacuous either (0: no layer fields to read); a conformer's second feed-forward half and convolution
        # module (Gemma 4 E2B's audio tower) are more than its fields describe, hence a quarter, not a half.
        assert estimate == 0 or estimate > 0.25 * exact, (spec.name, estimate, exact)


def test_the_estimate_reads_the_tower_s_own_width_and_leaves_the_language_model_out():
    from ecwidth.measuring.footprint import encoder_parameters_from_config

    config = {
        "text_config": {"num_hidden_layers": 80, "hidden_size": 8192, "intermediate_size": 28672},
        "vision_config": {"depth": 32, "hidden_size": 3584, "embed_dim": 1280, "mlp_ratio": 4},  # Qwen2-VL's
        "audio_config": {"encoder_layers": 32, "d_model": 1280, "encoder_ffn_dim": 5120},  # Whisper's
    }
    assert encoder_parameters_from_config(config) == {
        "vision_config": (32 * (2 * 1280**2 + 2 * 1280 * 5120), 32, 1280),
        "audio_config": (32 * (2 * 1280**2 + 2 * 1280 * 5120), 32, 1280),
    }
    assert encoder_parameters_from_config({"num_hidden_layers": 32, "hidden_size": 4096}) == {}  # flat: not known


def _check(config, max_memory=None):
    from ecwidth.measuring.footprint import check_config_fits

    check_config_fits(config, device=torch.device("cpu"), dtype=torch.float32, max_memory=max_memory, subject="m")


def test_weights_no_machine_holds_are_refused_naming_the_estimate_the_limit_and_the_override():
    deep = {"vision_config": {"depth": 10**6, "hidden_size": 1152, "intermediate_size": 4304}}
    with pytest.raises(ResourceError) as refused:
        _check(deep)
    message = str(refused.value)
    needed = 10**6 * (2 * 1152**2 + 2 * 1152 * 4304) * 4
    assert f"at least {format_bytes(needed)} in float32" in message and "of RAM on this machine" in message
    assert "vision_config: 1000000 layers 1152 wide" in message and "--max-memory" in message
    deep_but_real = {"vision_config": {"depth": 4000, "hidden_size": 1152, "intermediate_size": 4304}}
    with pytest.raises(ResourceError, match="set by --max-memory"):
        _check(deep_but_real, max_memory=2**30)
    _check(deep_but_real, max_memory=2**60)  # the override builds it anyway


def test_a_stack_deeper_than_any_real_model_is_refused_however_narrow():
    from ecwidth.errors import ConfigError
    from ecwidth.measuring.footprint import MAX_LAYERS

    _check({"vision_config": {"depth": MAX_LAYERS, "hidden_size": 8}})
    for config, where in [
        ({"vision_config": {"depth": MAX_LAYERS + 1, "hidden_size": 8}}, "vision_config.depth"),
        ({"text_config": {"num_hidden_layers": 10**6}}, "text_config.num_hidden_layers"),
        ({"vision_config": {"depths": [2, 2, 10**4, 2]}}, "vision_config.depths asks for 10006 layers"),
    ]:
        with pytest.raises(ConfigError, match=f"{where}.*at most {MAX_LAYERS}"):
            _check(config, max_memory=2**100)


def test_absurd_sizes_are_refused_in_microseconds_without_overflow():
    import time

    started = time.perf_counter()
    with pytest.raises(ResourceError, match=r"about 10\^"):
        _check({"vision_config": {"depth": 4000, "hidden_size": 10**200, "intermediate_size": 10**200}})
    assert time.perf_counter() - started < 0.1
