"""The game math's figures on disk (dealing/games/figures.py): what one process solved another reads;
a figure is solved once however many processes ask at once; a file that is not ours is never read."""

import multiprocessing
import time
from fractions import Fraction
from pathlib import Path

import pytest

from dealing.games import figures
from dealing.games.figures import kept

SOLVES = {"count": 0}


@kept(maxsize=4)
def _solved(preset: str) -> dict:
    SOLVES["count"] += 1
    return {"preset": preset, "edge": Fraction(1, 3), "cells": (("H", 12), ("S", 17))}


@kept(maxsize=4)
def _slow(note: str) -> str:
    with open(note, "a") as out:  # one line per solve, whichever process solved
        out.write("solved\n")
    time.sleep(0.5)
    return "figure"


@pytest.fixture
def on_disk(settings, tmp_path):
    settings.GAMEMATH_FIGURES_DIR = str(tmp_path / "figures")
    SOLVES["count"] = 0
    _solved.cache_clear()
    _slow.cache_clear()
    yield tmp_path / "figures"
    _solved.cache_clear()
    _slow.cache_clear()


def a_new_process(fn):
    """What another process (a restarted server, a second worker) finds: its own cache empty."""
    fn.cache_clear()


def test_what_one_process_solved_the_next_reads_instead_of_solving_it(on_disk):
    first = _solved("salon")
    a_new_process(_solved)
    again = _solved("salon")
    assert again == first and again["edge"] == Fraction(1, 3)  # the figure exactly, not a rounding of it
    assert SOLVES["count"] == 1, sorted(p.name for p in on_disk.iterdir())
    _solved("online")  # another question is another figure
    assert SOLVES["count"] == 2
    assert len(list(on_disk.glob("*.pickle"))) == 2


def test_an_engine_edit_makes_every_figure_new(on_disk, monkeypatch):
    _solved("salon")
    a_new_process(_solved)
    monkeypatch.setattr(figures, "engine_digest", lambda: "an edited engine")
    _solved("salon")
    assert SOLVES["count"] == 2


def test_a_file_that_fails_its_signature_is_solved_again_never_read(on_disk, caplog):
    _solved("salon")
    (stored,) = on_disk.glob("*.pickle")
    blob = bytearray(stored.read_bytes())
    blob[-1] ^= 0xFF  # one bit of the pickle changed on disk
    stored.write_bytes(bytes(blob))
    a_new_process(_solved)
    assert _solved("salon")["edge"] == Fraction(1, 3)
    assert SOLVES["count"] == 2
    assert "fails its signature" in caplog.text
    a_new_process(_solved)
    _solved("salon")  # solved again and written whole: read from now on
    assert SOLVES["count"] == 2


def test_off_when_the_setting_is_empty(settings, tmp_path):
    settings.GAMEMATH_FIGURES_DIR = ""
    SOLVES["count"] = 0
    a_new_process(_solved)
    _solved("salon")
    a_new_process(_solved)
    _solved("salon")
    assert SOLVES["count"] == 2
    a_new_process(_solved)


def test_a_directory_it_cannot_write_leaves_the_figure_solved_here(settings, tmp_path, caplog):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    settings.GAMEMATH_FIGURES_DIR = str(blocked / "figures")
    SOLVES["count"] = 0
    a_new_process(_solved)
    assert _solved("salon")["preset"] == "salon"
    assert "unavailable" in caplog.text
    a_new_process(_solved)


def _ask(note: str, out) -> None:
    out.put(_slow(note))


def test_processes_asking_at_once_solve_the_figure_once(on_disk, tmp_path):
    note = str(tmp_path / "solves.txt")
    fork = multiprocessing.get_context("fork")
    answers = fork.Queue()
    workers = [fork.Process(target=_ask, args=(note, answers)) for _ in range(3)]
    for w in workers:
        w.start()
    got = [answers.get(timeout=30) for _ in workers]
    for w in workers:
        w.join(30)
    assert got == ["figure"] * 3
    assert Path(note).read_text().splitlines() == ["solved"]  # the others waited and read its figure
