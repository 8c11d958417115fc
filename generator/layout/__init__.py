"""Layout: a card's template and fields into pure geometry (boxes in mm, text runs, icons)."""
