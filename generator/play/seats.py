"""Who a request of the table comes from: the host at the local seats, or a remote seat by its secret."""

from __future__ import annotations

import secrets

from starlette.requests import Request
from starlette.responses import Response

from spellpress.play.table import REMOTE, Table
from spellpress.web.responses import json_error

SEAT_HEADER = "X-Spellpress-Seat"  # a remote seat's secret


def seat_keys(table: Table) -> dict[str, int]:
    """A new secret for each remote seat: its invitation link carries it, and only it shows that seat."""
    return {secrets.token_urlsafe(18): seat for seat, spec in enumerate(table.seats) if spec.kind == REMOTE}


class Seats:
    """`keys`: each remote seat's secret (seat_keys). A request with a secret acts and sees as that seat
    only; one with none is the host's, at the local seats; a wrong secret is refused."""

    def __init__(self, table: Table, keys: dict[str, int]):
        self.table = table
        self.keys = keys
        self.joined: set[int] = set()

    def requester(self, request: Request) -> int | None:
        """The remote seat a request comes from (its secret), None for the host; KeyError for a wrong secret."""
        key = request.headers.get(SEAT_HEADER, request.query_params.get("seat"))  # EventSource sends no header
        return None if key is None else self.keys[key]

    def refused(self, request: Request) -> Response | None:
        try:
            seat = self.requester(request)
        except KeyError:
            return json_error(403, "not a seat of this table")
        if seat is None and not self.table.humans:
            return json_error(403, "every person plays by their seat's link")
        return None

    def whose(self, seat: int | None, asking: int | None) -> Response | None:
        """Refused unless the seat is the asker's: a remote seat's own, or a local one for the host."""
        if seat is None or (seat if self.table.seats[seat].kind == REMOTE else None) == asking:
            return None
        return json_error(403, f"seat {seat + 1} is not yours")

    def seen_by(self, seat: int | None) -> dict:
        """The table as the seat sees it (the host: as the local seats do); a remote seat's first look joins it."""
        if seat is not None and seat not in self.joined:
            self.joined.add(seat)
            print(f"seat {seat + 1} ({self.table.seats[seat].label}) joined", flush=True)
        return {**self.table.view(seat), "joined": sorted(self.joined)}
