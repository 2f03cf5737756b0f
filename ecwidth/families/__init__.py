"""One module per model family; each registers its adapter on import."""
