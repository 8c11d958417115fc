"""`spellpress check`'s design warnings for one game: each finding at its template box's file and line,
the same finding on many cards one line naming them."""

from __future__ import annotations

import sys
from collections import defaultdict

from spellpress.design.faces import faces, shop_faces
from spellpress.design.rules import Finding, check_faces
from spellpress.errors import Problem, Problems, grouped, report_line, report_lines
from spellpress.model.game import Game
from spellpress.wording import plural


def design_findings(game: Game) -> list[Problem]:
    """Each design finding on each face, at its template box, the face its subject (`serve` marks them):
    at the game's sizes, then those the print shops' sizes add."""
    own = check_faces(faces(game))
    seen = {_same(f) for f in own}
    found = own + [f for f in check_faces(shop_faces(game)) if _same(f) not in seen]
    problems = {Problem(f.box.location, f"design{' (' + f.face.at + ')' if f.face.at else ''}: {f.message}", f.face.who): None
                for f in found}
    return list(problems)


def _same(finding: Finding) -> tuple:
    """A finding as itself whatever it measured: found at the game's size, it is not said again at a shop's."""
    return finding.box.location, finding.rule, finding.face.who


def design_problems(game: Game) -> list[Problem]:
    """The game's design findings, one Problem a finding and template box, naming the faces it is on."""
    at: dict[str, list[Problem]] = defaultdict(list)
    for problem in design_findings(game):
        at[str(problem.location)].append(problem)
    # grouped by box first: errors.grouped alone would join one finding of two templates on one line
    return [_as_one(group) for problems in at.values() for group in grouped(problems)]


def _as_one(group: list[Problem]) -> Problem:
    """The group as one problem without a subject, so that report_lines does not group it again."""
    if len(group) == 1:
        return Problem(group[0].location, f"{group[0].subject}: {group[0].message}")
    prefix = f"{group[0].location}: "
    return Problem(group[0].location, report_line(group).removeprefix(prefix))


def design_warnings(game: Game, problems: Problems | None) -> str:
    """`check`: print the game's design findings as warnings on stderr, or with --strict add them to
    `problems` (errors, exit 2); what to add to the game's 'ok' line."""
    found = design_problems(game)
    if problems is not None:
        problems.items.extend(found)
    else:
        for line in report_lines(found):
            print(f"warning: {line}", file=sys.stderr)
    return f"; {plural(len(found), 'design warning')}" if found else ""
