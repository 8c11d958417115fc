"""Print-shop output: presets (YAML data), CMYK PDF/X-1a, the ink check and the shop build."""
