"""How the plots and rule matrices name a row: the model, its modalities, its packing mark and its options."""

from __future__ import annotations

from collections.abc import Iterable


def packing_mark(deepstack_levels: int, width: int, lm_hidden_size: int) -> str:
    """How a packed row is marked: a count of the maps on the last dim, never "×", which ratios keep.

    ``"◆ 3 DeepStack levels"`` where the maps follow a main slice (Qwen3-VL: width
    = out_hidden_size × (1 + levels)); ``"◆ 8 layer maps"`` where every slice is a
    layer map and there is no main one (Granite 4 Vision: width = maps × hidden size).
    """
    if not deepstack_levels:
        return ""
    if width == deepstack_levels * lm_hidden_size:
        return f"◆ {deepstack_levels} layer maps"
    return f"◆ {deepstack_levels} DeepStack level{'s' if deepstack_levels > 1 else ''}"


def row_label(model: str, modalities: Iterable[str], mark: str = "", options: str = "engine defaults") -> str:
    """``"qwen3-vl-8b-instruct (image, video) ◆ 3 DeepStack levels"``: how the plots and matrices name a row.

    ``mark`` is ``packing_mark``'s. Rows measured with a runtime option set carry
    it: ``"... ◆ 3 DeepStack levels [video_pruning_rate=0.5]"``.
    """
    setting = f" [{options}]" if options != "engine defaults" else ""
    return f"{model} ({', '.join(modalities)})" + (f" {mark}" if mark else "") + setting
