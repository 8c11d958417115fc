"""Load: YAML definitions into a validated, immutable model."""
