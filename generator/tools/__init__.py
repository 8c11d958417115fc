"""Maintenance tools for the project's own assets (not used when building games)."""
