"""The reading tier: model sources, config files, field checks, and the catalog of published configs."""
