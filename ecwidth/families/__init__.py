"""The family tier: the adapter contract (``adapter``), the dummy item kinds (``items``), how levels are
packed (``packing``), private helpers two or more families share (``_*.py``), and one module per family,
each registering its adapter on import."""
