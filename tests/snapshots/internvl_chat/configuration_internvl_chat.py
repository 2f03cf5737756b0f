"""A tiny stand-in for an InternVL chat checkpoint's remote configuration code, written for ecwidth's tests.

It keeps the published schema (``vision_config``, ``llm_config``, ``downsample_ratio``) so that ecwidth's
``--trust-remote-code`` path loads it the way transformers loads a hub snapshot's own code.
"""

from transformers import CONFIG_MAPPING, PretrainedConfig


class InternVisionConfig(PretrainedConfig):
    model_type = "intern_vit_6b"

    def __init__(
        self,
        hidden_size=24,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=48,
        image_size=28,
        patch_size=14,
        num_channels=3,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.intermediate_size = intermediate_size
        self.image_size = image_size
        self.patch_size = patch_size
        self.num_channels = num_channels


class InternVLChatConfig(PretrainedConfig):
    model_type = "internvl_chat"
    sub_configs = {"vision_config": InternVisionConfig}

    def __init__(self, vision_config=None, llm_config=None, downsample_ratio=0.5, **kwargs):
        super().__init__(**kwargs)
        self.vision_config = InternVisionConfig(**(vision_config or {}))
        llm_config = dict(llm_config or {"model_type": "qwen2"})
        self.llm_config = CONFIG_MAPPING[llm_config.pop("model_type")](**llm_config)
        self.downsample_ratio = downsample_ratio

    def to_dict(self):
        output = super().to_dict()
        output["vision_config"] = self.vision_config.to_dict()
        output["llm_config"] = self.llm_config.to_dict()
        return output
