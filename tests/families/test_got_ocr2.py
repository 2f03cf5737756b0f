"""GOT-OCR 2.0 at tiny scale: the conv projector's output, at the text width, not the tower's channels."""

import ecwidth
from tests.tiny_configs import tiny_config


def test_images_ship_at_the_text_hidden_size():
    raw = tiny_config("got_ocr2")
    vision = raw["vision_config"]
    result = ecwidth.measure(raw, device="cpu")
    assert result.widths == {"image": raw["text_config"]["hidden_size"]}
    assert result.widths["image"] != 2 * vision["output_channels"]  # the first conv's channels
