"""Limits on what a definition may ask for, each far above any real game (docs/yaml.md lists them).

They turn a typo or a hostile file (a count of ten million, a 600-level YAML nest, an
expression that multiplies a string ten million times) into an exit-2 message with the
number, instead of minutes of work and a crash.
"""

MAX_COPIES_PER_CARD = 1_000  # a real deck prints at most a few dozen of one card
MAX_CARDS_PER_GAME = 10_000  # the shipped games have 60-250 cards; 10,000 poker cards is about 1,100 sheets
# characters of text in all of a game's cards (each card once, not each copy): a poker card holds about 600 at its
# smallest size; text fitting costs about 1 ms of CPU per 1,000 characters, so check takes seconds at the limit
MAX_GAME_TEXT = 10_000_000
MAX_YAML_DEPTH = 64  # the shipped files nest at most 6 levels
MAX_EXPRESSION_SOURCE = 20_000  # characters of one template value that holds {{ }} or {% %}
MAX_EXPRESSION_OUTPUT = 20_000  # characters one expression may produce (a card's text is a few hundred)
MAX_RANGE_ITEMS = 10_000  # items one expression may draw from range() and lipsum() together
EXPRESSION_SECONDS = 2.0  # wall time one expression may take when run on the main thread
MAX_HAND = 12  # cards in an analysed hand: a 12-card analysis of A Word to the Wise takes about 90 s on 2 cores
MAX_IMAGE_PIXELS = 60_000_000  # an A4 page at 600 dpi is 35 million pixels
MAX_ICON_BYTES = 2_000_000  # the shipped icons are 1-10 kB
MAX_ICON_ELEMENTS = 20_000
MAX_ICON_PATH_NUMBERS = 50_000  # the shipped icons' paths hold under 1,000 numbers; each is drawn anew on every face
# An icon's <use> elements counted as svglib expands them (each copies what it names): 1.8 KB of nested <use>
# made 10 million copies (80 s, 261 MB); svglib itself stops at 10,000 expansions and draws the icon incomplete
# svglib's own limit is 10,000 (more are dropped from the drawing); each takes svglib about a millisecond
MAX_ICON_USE_EXPANSIONS = 2_000
MAX_ICON_COORDINATE = 10_000_000  # any number of an icon (viewBox, coordinates, sizes); the shipped ones stay under 1,000
# A game's own word list: `letters` and `simulate` take about as long as with the shipped lists, not minutes
# (issue 31 item 9; figures in docs/yaml.md "Limits", bench/word_lists.py). The work per hand grows with the
# words it makes (density) and the list's size; the shipped lists are 0.7-3.1 MB, density 11-13.
MAX_WORD_FILE_BYTES = 4_000_000  # real lists of about 4 MB and density 8-10: 1.1-1.5x the shipped list's time
MAX_WORD_LIST_DENSITY = 16  # letter sets a 7-letter hand makes (words/density.py): SCOWL to size 70 is 15.7
MAX_WORD_LETTERS = 64  # letters in one word of a word list: the longest dictionary words have about 45
MAX_WORKBOOK_BYTES = 50_000_000  # an XLSX or ODS unpacked; a 10,000-card sheet of 10 columns is about 6 MB
MAX_SHEET_ROWS = 20_000  # rows from 1 to the last used one: a sheet of cards holds at most 10,000 cards
MAX_SHEET_COLUMNS = 200  # columns from A to the last used one (GR)
MAX_SHEET_CELLS = 500_000  # rows x columns from A1 to the last used cell, all read into memory at once (10,000 x 50)
