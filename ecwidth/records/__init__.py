"""The record tier: width tables and their files, reconciling reports, byte units; no torch needed."""
