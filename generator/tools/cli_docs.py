"""Write docs/cli.md from the command-line parser, so the docs never drift from the code.

    python -m spellpress.tools.cli_docs > docs/cli.md
"""

from __future__ import annotations

import argparse
import os

EXAMPLES = {
    "build": ["spellpress build", "spellpress build word-to-the-wise --paper letter --backs duplex-short",
              "spellpress build path/to/my-game --bleed 0.125in --back-offset 0.5,-0.3 --png --tts --print-shop"],
    "check": ["spellpress check", "spellpress check path/to/my-game", "spellpress check --strict path/to/my-game"],
    "list": ["spellpress list"],
    "new": ["spellpress new my-game", "spellpress new my-game --size mini",
            "spellpress new my-wise --from word-to-the-wise"],
    "calibrate": ["spellpress calibrate --paper letter --backs duplex-short"],
    "simulate": ["spellpress simulate word-to-the-wise --games 10000 --players 4",
                 "spellpress simulate lost-words --players 3 --workers 2 --check --json",
                 "spellpress simulate spelled --dask local",
                 "spellpress simulate magic-spell --players 3 --agents ismcts,heuristic --budget 32 --games 60"],
    "sweep": ["spellpress sweep word-to-the-wise --vary cards.consonants.q.count=1,2,3 --games 1000",
              "spellpress sweep spelled --vary rules.health=20,25,30 --vary rules.hand_size=5,6 --dask local --json"],
    "report": ["spellpress report word-to-the-wise --games 2000"],
    "serve": ["spellpress serve word-to-the-wise", "cd path/to/my-game && spellpress serve --port 8080",
              "spellpress serve path/to/my-game --pull-every 30"],
    "pull": ["spellpress pull path/to/my-game", "cd path/to/my-game && spellpress pull"],
    "letters": ["spellpress letters word-to-the-wise", "spellpress letters evocabulary --hand 7 --samples 2000 --seed 3 --json",
                "spellpress letters word-to-the-wise --suggest-counts 108"],
}


def markdown() -> str:
    from spellpress.cli import parser

    os.environ["COLUMNS"] = "80"  # usage lines wrap at the terminal's width: make them stable
    top = parser()  # every command
    lines = ["# Command line", "", "Generated from the parser by `python -m spellpress.tools.cli_docs`; do not edit by hand.", "",
             "Exit codes: 0 success, 2 a mistake in the input (every problem listed as file:line:column), 1 a bug.", ""]
    subparsers = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        lines += [f"## spellpress {name}", "", sub.description or next(
            (c.help or "" for c in subparsers._choices_actions if c.dest == name), ""), "", "```", sub.format_usage().strip(),
            "```", ""]
        lines += ["| argument | meaning |", "| --- | --- |"]
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            names = (", ".join(action.option_strings) or action.metavar or action.dest).replace("|", "\\|")
            meaning = (action.help or "").replace("%%", "%").replace("|", "\\|")  # argparse prints %% as %
            if action.choices and not isinstance(action.choices, dict):
                meaning += f" (one of: {', '.join(map(str, action.choices))})"
            lines.append(f"| `{names}` | {meaning} |")
        if name in EXAMPLES:
            lines += ["", "Examples:", "", "```sh", *EXAMPLES[name], "```"]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")
