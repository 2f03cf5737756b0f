"""Shape-faithful encodes: the products with zero weights are skipped, and the packed item is the same, bit for bit."""

from __future__ import annotations

import gc
import warnings

import pytest
import torch
from torch import nn

from ecwidth.errors import UnmeasurableError
from ecwidth.families.adapter import adapter_for
from ecwidth.measuring.build import materialize
from ecwidth.measuring.encode import MetaFallbackWarning
from ecwidth.measuring.shapes import ZeroWeightMode, known_products, meta_activations, zero_storage_ptrs
from tests.building import build_on_cpu
from tests.tiny_configs import measurable_model_types, tiny_config

CPU = torch.device("cpu")


@pytest.fixture(autouse=True)
def _collect_after_each_model():
    yield
    gc.collect()


def _encode(adapter, model, modality, *, skip: bool) -> tuple[torch.Tensor, int]:
    torch.manual_seed(0)  # the same random pixels for both encodes
    item = adapter.dummy_item(model, modality, "minimal")
    with torch.inference_mode(), known_products(model, enabled=skip) as mode:
        packed = adapter.encode(model, modality, item)
    return packed, mode.skipped if mode else 0


@pytest.mark.parametrize("model_type", measurable_model_types())
def test_the_packed_item_equals_the_real_encode_bit_for_bit(model_type):
    adapter, model = adapter_for(model_type), build_on_cpu(tiny_config(model_type))
    skipped = 0
    for modality in adapter.modalities(model):
        try:
            real, _ = _encode(adapter, model, modality, skip=False)
        except UnmeasurableError:
            continue
        fast, skipped_here = _encode(adapter, model, modality, skip=True)
        assert torch.equal(real, fast) and real.dtype == fast.dtype, modality
        skipped += skipped_here
    assert skipped > 0, "no product with a zero weight was skipped"


def _zero_layers() -> nn.Module:
    layers = nn.ModuleDict(
        {"linear": nn.Linear(6, 5), "conv": nn.Conv2d(3, 4, 3, padding=1), "plain": nn.Linear(6, 5, bias=False)}
    )
    materialize(layers, CPU, torch.float32)
    return layers


def test_a_bias_comes_through_as_the_real_layer_adds_it():
    layers = _zero_layers()
    with torch.no_grad():  # the biases are zero by construction: give them values, where the weights stay zero
        layers["linear"].bias.copy_(torch.arange(5.0))
        layers["conv"].bias.copy_(torch.arange(4.0) - 2)
    x, image = torch.randn(2, 7, 6), torch.randn(3, 8, 8)  # a batch of rows; an unbatched image
    with torch.inference_mode():
        real = layers["linear"](x), layers["conv"](image), layers["conv"](image[None])
        with ZeroWeightMode(zero_storage_ptrs([layers])) as mode:
            fast = layers["linear"](x), layers["conv"](image), layers["conv"](image[None])
    assert mode.skipped == 3
    for r, f in zip(real, fast):
        assert torch.equal(r, f) and r.shape == f.shape


def test_products_against_zero_weights_by_any_surface_are_skipped():
    layers = _zero_layers()
    weight = layers["plain"].weight  # (5, 6)
    x = torch.randn(3, 6)
    with torch.inference_mode():
        ops = (
            lambda: x @ weight.T,
            lambda: torch.matmul(x[None], weight.T),
            lambda: torch.einsum("ij,kj->ik", x, weight),
            lambda: torch.bmm(x[None], weight.T[None]),
            lambda: torch.addmm(torch.ones(5), x, weight.T),
        )
        real = [op() for op in ops]
        with ZeroWeightMode(zero_storage_ptrs([layers])) as mode:
            fast = [op() for op in ops]
    assert mode.skipped == len(ops)
    for r, f in zip(real, fast):
        assert torch.equal(r, f)


class _Probe(nn.Module):
    """A module without weights around one with a bare weight; each records the dispatch mode it runs under."""

    def __init__(self) -> None:
        super().__init__()
        self.bare = _Bare()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        from torch.utils._python_dispatch import _get_current_dispatch_mode

        self.seen = _get_current_dispatch_mode()
        return self.bare(x.relu())


class _Bare(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.empty(5, 6))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        from torch.utils._python_dispatch import _get_current_dispatch_mode

        self.seen = _get_current_dispatch_mode()
        if not x.isfinite().all():
            raise ValueError("not finite")
        return x @ self.weight.T


def test_the_mode_runs_only_inside_the_modules_that_hold_a_zero_weight():
    probe = _Probe()
    materialize(probe, CPU, torch.float32)
    with torch.inference_mode(), known_products(probe) as mode:
        out = probe(torch.randn(2, 6))
    assert probe.seen is None and probe.bare.seen is mode
    assert mode.skipped == 1 and torch.equal(out, torch.zeros(2, 5))


def test_a_module_that_raises_inside_the_mode_leaves_no_mode_behind():
    from torch.utils._python_dispatch import _get_current_dispatch_mode

    probe = _Probe()
    materialize(probe, CPU, torch.float32)
    with torch.inference_mode(), known_products(probe):
        with pytest.raises(ValueError):
            probe(torch.full((2, 6), float("nan")))
        assert _get_current_dispatch_mode() is None
        probe(torch.randn(2, 6))
    assert _get_current_dispatch_mode() is None


def test_a_non_finite_input_runs_the_real_product_whose_nan_is_what_ships():
    layers = _zero_layers()
    x = torch.randn(2, 6)
    x[0, 3] = float("inf")
    with torch.inference_mode(), ZeroWeightMode(zero_storage_ptrs([layers])) as mode:
        out = layers["linear"](x)
    assert mode.skipped == 0
    assert out[0].isnan().all() and not out[1].isnan().any()


def test_weights_not_made_by_materialize_are_never_taken_for_zeros():
    linear = nn.Linear(6, 5)
    with torch.no_grad():
        linear.weight.zero_()  # zero in value, but not by construction: recognised by identity only
    assert zero_storage_ptrs([linear]) == frozenset()
    x = torch.randn(2, 6)
    with torch.inference_mode(), ZeroWeightMode(zero_storage_ptrs([linear])) as mode:
        linear(x)
    assert mode.skipped == 0


def test_measure_is_shape_faithful_by_default_and_agrees_with_it_off():
    from ecwidth.measuring.measure import measure

    config = tiny_config("qwen3_vl")
    on, off = (
        measure(config, device="cpu", dtype="float32"),
        measure(config, device="cpu", dtype="float32", shape_faithful=False),
    )
    assert on.widths == off.widths and on.widths


PROFILE_ON_META = ("qwen3_vl", "qwen2_5_vl", "qwen3_omni_moe", "exaone4_5")


@pytest.mark.parametrize("model_type", PROFILE_ON_META)
def test_the_real_profile_item_runs_on_meta_with_the_minimal_width_and_the_engine_token_count(model_type):
    from ecwidth.measuring.encode import dummy_shapes

    adapter, model = adapter_for(model_type), build_on_cpu(tiny_config(model_type))
    with warnings.catch_warnings():
        warnings.simplefilter("error", MetaFallbackWarning)  # these families run on meta: no fallback
        profile = dummy_shapes(model, dummy="profile")
    minimal = dummy_shapes(model, dummy="minimal")
    for modality, (tokens, width) in profile.items():
        assert width == minimal[modality][1], modality
        assert tokens == adapter.profile_tokens(model.config, modality), modality  # uncapped: the engine's item


def test_a_family_that_reads_an_activation_falls_back_to_the_real_encode_and_says_so():
    from ecwidth.measuring.encode import dummy_shapes

    model = build_on_cpu(tiny_config("idefics3"))  # drops all-zero tiles: it reads the pixels' values
    with pytest.warns(MetaFallbackWarning, match="cannot run on the meta device"):
        profile = dummy_shapes(model, dummy="profile", max_tokens=64)
    assert {m: w for m, (_, w) in profile.items()} == {m: w for m, (_, w) in dummy_shapes(model).items()}


def test_meta_execution_keeps_integer_metadata_real_and_activations_on_meta():
    layers = _zero_layers()
    with torch.inference_mode(), meta_activations(layers):
        lengths = torch.tensor([3, 4])
        offsets = torch.arange(int(lengths.sum()), device="meta")  # an index: made for real on the host
        features = torch.randn(int(lengths.sum()), 6)  # an activation: on meta
        out = layers["linear"](features)
    assert offsets.device.type == "cpu" and offsets.tolist() == list(range(7))
    assert features.device.type == "meta" and out.device.type == "meta" and out.shape == (7, 5)


def test_varlen_attention_is_given_for_the_block_and_each_config_gets_its_own_back():
    from ecwidth.measuring.shapes import META_ATTENTION, varlen_attention

    model = build_on_cpu(tiny_config("qwen2_5_vl"))
    configs = {id(m.config): m.config for m in model.modules() if hasattr(m, "config")}
    before = {key: config._attn_implementation for key, config in configs.items()}
    with varlen_attention(model):
        assert {config._attn_implementation for config in configs.values()} == {META_ATTENTION}
    assert {key: config._attn_implementation for key, config in configs.items()} == before


def test_a_tower_whose_other_attention_branch_reads_a_mask_runs_on_meta_flash_style():
    """LFM2-VL's SigLIP2 builds its padding mask from values unless attention is flash-style (``varlen_attention``)."""
    from ecwidth.measuring.encode import dummy_shapes

    model = build_on_cpu(tiny_config("lfm2_vl"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", MetaFallbackWarning)
        profile = dummy_shapes(model, dummy="profile")
    assert {m: w for m, (_, w) in profile.items()} == {m: w for m, (_, w) in dummy_shapes(model).items()}
