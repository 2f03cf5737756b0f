"""The serving tier: transfer sizing, the producer hook, and measuring across a job's ranks."""
