"""A first `make run` says what it is doing (issue #31 item 9): the demo floor prints each step as
it starts, flushed at once (make pipes the output, so an unflushed line would wait for the end), not
the hundreds of e-mails its findings notify; the game math is warmed once per process, each step
logged as it starts and ends, and only by the server's own command line of the run target."""

import io
import logging
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from casino import demo
from dealing import demo as dealing_demo
from gamemath import warm

ROOT = Path(__file__).resolve().parents[2]


class Lines(io.StringIO):
    """stdout that records what had been written each time it was flushed."""

    def __init__(self):
        super().__init__()
        self.flushed: list[str] = []

    def flush(self):
        self.flushed.append(self.getvalue())


@pytest.mark.django_db
def test_demo_floor_prints_each_step_as_it_goes_and_no_email(settings, monkeypatch):
    settings.DEBUG = True
    monkeypatch.setattr(dealing_demo, "PLAN", {"R-1": 6, "Escribas": 4})  # a tiny floor
    backend = django_settings.EMAIL_BACKEND
    seen_while_loading = []
    out = Lines()

    def slow_step() -> list[str]:
        # What the command had flushed when this loader ran: the lines before it, not after the load.
        seen_while_loading.append(out.getvalue())
        demo.progress("  half way through the slow step")
        return ["a slow thing"]

    demo.register_loader("zz-slow", slow_step, order=999)
    try:
        call_command("demo_floor", stdout=out)
    finally:
        demo.unregister_loader("zz-slow")
    text = out.getvalue()

    steps = re.findall(r"^demo floor (\d+)/(\d+): (\S+) …$", text, re.M)
    assert steps and steps[-1][2] == "zz-slow" and steps[-1][0] == steps[-1][1]
    # The rounds of a demo table are announced before they are dealt, and reported after.
    assert text.index("  dealing 6 demo rounds at R-1") < text.index("  created 6 demo rounds at R-1")
    # The loader's own line came while it ran, flushed; its "created" line after it.
    assert "demo floor 1/" in seen_while_loading[0] and "zz-slow …" in seen_while_loading[0]
    assert any("half way through the slow step" in f and "a slow thing" not in f for f in out.flushed)
    assert re.search(r"^demo floor \d+/\d+: zz-slow done in [\d.]+ s$", text, re.M)
    assert "Subject:" not in text  # no e-mail printed among the steps
    assert django_settings.EMAIL_BACKEND == backend  # the setting is given back


class Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_the_math_warms_once_per_process_with_each_step_logged(monkeypatch):
    ran = []
    monkeypatch.setattr(
        warm, "steps", lambda: [("toy math", lambda: ran.append("math")), ("toy charts", lambda: ran.append("charts"))]
    )
    monkeypatch.setattr(warm.Started, "already", False)  # a fresh process
    records = Records()
    logger = logging.getLogger("gamemath.warm")
    monkeypatch.setattr(logger, "level", logging.INFO)
    logger.addHandler(records)
    try:
        assert warm.start_from_env({"GAMEMATH_WARM": "1"}) == "now"
        assert warm.start_from_env({"GAMEMATH_WARM": "1"}) == "no"  # asked again (a second app registry)
        assert warm.start_from_env({"GAMEMATH_WARM": "background"}) == "no"
    finally:
        logger.removeHandler(records)

    assert ran == ["math", "charts"]
    logged = records.messages
    assert logged[:4] == [
        "game math warm-up 1/2: toy math …",
        logged[1],
        "game math warm-up 2/2: toy charts …",
        logged[3],
    ]
    assert logged[1].startswith("game math warm-up 1/2: toy math in ")
    assert logged[-1].startswith("game math warmed in ")


def test_make_run_warms_in_the_server_only_and_serves_without_a_reloader():
    """The run target's commands: only the server's sets GAMEMATH_WARM (migrate and the demo floor
    would each warm in a process of their own), and it runs no reloader that would warm again."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^run: .*?\n((?:\t.*\n|(?:  .*\n))+)", makefile, re.M).group(1)
    commands = [line for line in recipe.replace("\\\n", " ").splitlines() if not line.strip().startswith("@echo")]
    warming = [line for line in commands if "GAMEMATH_WARM" in line]
    assert len(warming) == 1 and "uvicorn" in warming[0]
    assert "--reload" not in warming[0] and "runserver" not in recipe


def test_the_math_that_lets_its_memos_go_is_warmed_before_the_math_that_keeps_its_solvers():
    from dealing import games

    names = [what for what, _step in warm.steps()]
    letting_go = {f"{g.variant} math" for g, m in games.filled("math") if getattr(m.load(), "WARM_LETS_GO", False)}
    keeping = {f"{g.variant} math" for g, m in games.filled("math")} - letting_go
    assert letting_go, "a math whose warm-up lets its memos go"
    assert max(names.index(n) for n in letting_go) < min(names.index(n) for n in keeping)
