"""A tiny stand-in for a Molmo checkpoint's remote configuration code, written for ecwidth's tests.

Like the published ``MolmoConfig``: a flat OLMo-style config whose ``hidden_size`` is the language model's width.
"""

from transformers import PretrainedConfig


class MolmoConfig(PretrainedConfig):
    model_type = "molmo"

    def __init__(self, hidden_size=40, intermediate_size=64, num_hidden_layers=1, vocab_size=64, **kwargs):
        super().__init__(**kwargs)
        self.hidden_size = hidden_size
        self.intermediate_size = intermediate_size
        self.num_hidden_layers = num_hidden_layers
        self.vocab_size = vocab_size
