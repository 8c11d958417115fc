"""Named paper and card sizes, in millimetres (width, height), portrait."""

from __future__ import annotations

PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "legal": (215.9, 355.6),
    "tabloid": (279.4, 431.8),
}

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 67.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "tile": (25.0, 25.0),
    "jumbo": (89.0, 127.0),
}
