"""Simulate: play many seeded games of a rules engine and measure balance."""
