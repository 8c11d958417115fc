"""Impose: card faces onto sheets (paper, grid, bleed, marks, back modes)."""
