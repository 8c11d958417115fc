"""Builds never replace what Spellpress did not write, leave no half-described result, and honour the umask."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spellpress.cli import main
from spellpress.errors import UserError
from spellpress.write.atomic import EXPORT_MARKER, atomic_folder, clean_stale_staging, write_bytes
from tests.conftest import ROOT, WISE


def designer_files(folder: Path) -> dict[str, bytes]:
    """A designer's own png/ and tts/ folders inside the game folder: art and notes."""
    files = {"png/art.png": b"\x89PNG hand-drawn art", "png/notes.txt": b"ideas", "tts/mine.json": b"{}"}
    for name, data in files.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_bytes(data)
    return files


@pytest.mark.parametrize("out_of", ["parent", "game", "inside"])
def test_an_output_folder_in_a_game_folder_is_refused_and_nothing_is_touched(game_copy, tmp_path, monkeypatch, capsys, out_of):
    folder = game_copy(WISE)
    files = designer_files(folder)
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    out = {"parent": folder.parent, "game": folder, "inside": folder / "prints"}[out_of]
    monkeypatch.chdir(tmp_path)
    code = main(["build", str(folder), "--out", str(out), "--png", "--tts"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "game folder" in err and "choose another --out" in err and "Traceback" not in err
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before
    for name, data in files.items():
        assert (folder / name).read_bytes() == data


def test_letters_and_report_refuse_a_game_folder_too(game_copy, tmp_path, monkeypatch, capsys):
    folder = game_copy(WISE)
    monkeypatch.chdir(tmp_path)
    assert main(["letters", str(folder), "--out", str(folder.parent), "--samples", "50"]) == 2
    assert "choose another --out" in capsys.readouterr().err
    assert not list(folder.glob("*letters*"))


def test_an_export_folder_spellpress_did_not_write_is_never_replaced(tmp_path):
    mine = tmp_path / "png"
    mine.mkdir()
    (mine / "art.png").write_bytes(b"art")
    with pytest.raises(UserError, match="was not written by Spellpress"):
        with atomic_folder(mine) as staging:
            (staging / "card.png").write_bytes(b"new")
    assert (mine / "art.png").read_bytes() == b"art"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["png"]  # no staging left


def test_an_export_folder_spellpress_wrote_is_replaced_whole(tmp_path):
    target = tmp_path / "png"
    with atomic_folder(target) as staging:
        (staging / "a.png").write_bytes(b"1")
    assert (target / EXPORT_MARKER).is_file()
    with atomic_folder(target) as staging:
        (staging / "b.png").write_bytes(b"2")
    assert sorted(p.name for p in target.iterdir()) == [EXPORT_MARKER, "b.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["png"]


@pytest.mark.slow
def test_png_and_tts_rebuild_into_their_own_folders(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second build replaces the first build's folders
        assert main(["build", str(WISE), "--out", "out", "--png", "--tts"]) == 0, capsys.readouterr().err
    for name in ("png", "tts"):
        assert (tmp_path / "out" / "word-to-the-wise" / name / EXPORT_MARKER).is_file()


def test_the_manifest_lists_every_file_with_its_hash(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["build", str(WISE), "--out", "out", "--png", "--print-shop"]) == 0, capsys.readouterr().err
    game_out = tmp_path / "out" / "word-to-the-wise"
    manifest = json.loads((game_out / "manifest.json").read_text())
    listed = manifest["files"]
    assert "word-to-the-wise-a4.pdf" in listed and "word-to-the-wise-print-shop.pdf" in listed
    on_disk = {p.relative_to(game_out).as_posix() for p in (game_out / "png").rglob("*.png")}
    assert len(on_disk) > 40 and on_disk <= set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256((game_out / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.slow
def test_a_build_killed_midway_leaves_no_manifest_describing_other_files(tmp_path):
    """Kill a PNG build after its PDF is written: the old manifest must be gone, not left describing other files."""
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "spellpress", "build", str(WISE), "--out", str(out)], check=True, env=env,
                   capture_output=True)
    game_out = out / "word-to-the-wise"
    assert (game_out / "manifest.json").is_file()
    mark = f"{os.getpid()}-{time.monotonic_ns()}"
    slow = subprocess.Popen([sys.executable, "-m", "spellpress", "build", str(WISE), "--out", str(out), "--png", "--tts",
                             "--paper", "letter"],
                            env={**env, "SPELLPRESS_TEST_MARK": mark}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    letter_pdf = game_out / "word-to-the-wise-letter.pdf"
    deadline = time.monotonic() + 60
    while not letter_pdf.exists() and time.monotonic() < deadline and slow.poll() is None:
        time.sleep(0.01)
    slow.send_signal(signal.SIGKILL)  # the build alone, as the out-of-memory killer would: its workers must follow
    slow.wait()
    deadline = time.monotonic() + 10
    while _processes_marked(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_marked(mark) == [], "export workers outlived their killed build"
    if (game_out / "manifest.json").exists():  # the build finished before the kill: then it must describe it all
        manifest = json.loads((game_out / "manifest.json").read_text())
        assert manifest["paper"] == "letter"
        for name, digest in manifest["files"].items():
            assert hashlib.sha256((game_out / name).read_bytes()).hexdigest() == digest
    # the next build cleans whatever staging the killed one left
    subprocess.run([sys.executable, "-m", "spellpress", "build", str(WISE), "--out", str(out)], check=True, env=env,
                   capture_output=True)
    assert not [p for p in game_out.iterdir() if ".staging-" in p.name]


def _processes_marked(mark: str) -> list[int]:
    """Live processes whose environment carries `mark`: a build and every worker it forked."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if state != "Z" and f"SPELLPRESS_TEST_MARK={mark}".encode() in environ:
            found.append(int(entry.name))
    return found


def test_staging_left_by_a_dead_process_is_cleaned_and_a_live_ones_kept(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f".png.staging-{dead.pid}-abc").mkdir()
    (tmp_path / f".x.pdf.staging-{dead.pid}-abc.part").write_bytes(b"half")
    (tmp_path / f".png.staging-{os.getpid()}-def").mkdir()
    (tmp_path / "designer.staging-notes").write_text("not ours")
    clean_stale_staging(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f".png.staging-{os.getpid()}-def", "designer.staging-notes"])


def test_written_files_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        write_bytes(tmp_path / "a.pdf", b"%PDF")
        with atomic_folder(tmp_path / "png") as staging:
            (staging / "x.png").write_bytes(b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "a.pdf").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "png").stat().st_mode & 0o777 == 0o755


@pytest.mark.slow
def test_every_file_a_build_writes_follows_the_umask(tmp_path, monkeypatch, capsys):
    """PDFs and manifests were written 0600 (from mkstemp) whatever the umask; exports and the cache too must follow it."""
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o027)
    try:
        assert main(["build", str(WISE), "--out", "out", "--png", "--tts", "--no-cache"]) == 0, capsys.readouterr().err
    finally:
        os.umask(old)
    modes = {p.relative_to(tmp_path).as_posix(): p.stat().st_mode & 0o777 for p in (tmp_path / "out").rglob("*")}
    assert {"out/word-to-the-wise/word-to-the-wise-a4.pdf", "out/word-to-the-wise/manifest.json"} <= set(modes)
    wrong = {name: oct(mode) for name, mode in modes.items() if mode != (0o750 if (tmp_path / name).is_dir() else 0o640)}
    assert wrong == {}
