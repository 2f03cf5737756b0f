"""GOT-OCR 2.0 (``got_ocr2``): the conv projector's output, the text width.

``GotOcr2Model.get_image_features`` runs the SAM-style tower (windowed
attention, a neck to ``vision_config.output_channels``), then
``GotOcr2MultiModalProjector`` (two stride-2 convs, the second to the text
width, and a linear). The projector is the last step before the LM, so a
native class would ship the same width.

Items: one ``image_size`` tile, the minimal item too (the tower's absolute
and relative position tables are fixed to it). Tiling (``crop_to_patches``)
is the processor's setting, so there is no token rule.
"""

from __future__ import annotations

from ecwidth.families._backend import ProcessorTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class GotOcr2Adapter(FamilyAdapter):
    model_types = ("got_ocr2",)
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": ProcessorTiles()}
    look_alikes = ("vision_config.hidden_size", "vision_config.output_channels")
