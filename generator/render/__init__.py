"""Render: drawing operations into reportlab, each distinct face once as a Form."""
