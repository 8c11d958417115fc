"""`spellpress check`'s design warnings for one game: each finding at its template box's file and line,
the same finding on many cards one line naming them."""

from __future__ import annotations

from collections import defaultdict

from spellpress.design.faces import faces
from spellpress.design.rules import check_faces
from spellpress.errors import Problem, grouped, report_line
from spellpress.model.game import Game


def design_findings(game: Game) -> list[Problem]:
    """Each design finding on each face, at its template box, the face its subject (`serve` marks them)."""
    found = {Problem(f.box.location, f"design: {f.message}", f.face.who): None for f in check_faces(faces(game))}
    return list(found)


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
