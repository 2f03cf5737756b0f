"""The measuring tier: build an encoder cheaply, encode a dummy item, predict, survey many models."""
