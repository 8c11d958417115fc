"""An app's static files: only the names in its table, never a path taken from a URL."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from spellpress.web.responses import not_found


class StaticFiles:
    """The files of `folder` named in `files` (name -> media type), and nothing else."""

    def __init__(self, folder: Path, files: dict[str, str]):
        self.folder = folder
        self.files = files

    async def serve(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.files:
            return not_found()
        return FileResponse(self.folder / name, media_type=self.files[name], headers={"Cache-Control": "no-cache"})
