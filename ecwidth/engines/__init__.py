"""The engine tier: what a serving engine takes as runtime options (and, per release, what it serves)."""
