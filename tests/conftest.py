"""Fixtures every test may use: users per role, logged-in clients, a small floor, a browser.

def test_x(client_for, floor):
    client = client_for("dealer")              # logged in, in both pits of `floor`
    client = client_for("dealer", pits=[])     # logged in, no pit
    anonymous = client_for(None)
    admin = client_for("superuser")
"""

import os
from dataclasses import dataclass

import pytest
from django.db import connections
from django.test import Client

from casino.models import Pit, Table
from casino.roles import ROLES
from tests.factories import PitFactory, StaffFactory, SuperuserFactory, TableFactory, UserFactory

CHROMIUM = "/usr/bin/chromium"


@dataclass
class Floor:
    """Two pits with an ochko table each."""

    pit_a: Pit
    pit_b: Pit
    table_a: Table
    table_b: Table

    @property
    def pits(self) -> list[Pit]:
        return [self.pit_a, self.pit_b]


@pytest.fixture(scope="session", autouse=True)
def figures_shared_by_the_runs_processes(tmp_path_factory):
    """The game math's figures on disk (dealing/games/figures.py) in a directory this run's processes
    share: what one xdist worker solved the others read instead of solving it again. A run of its own,
    a directory of its own: figures never outlive the run that solved them."""
    from django.conf import settings

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    settings.GAMEMATH_FIGURES_DIR = str(shared / "figures")


@pytest.fixture
def floor(db) -> Floor:
    pit_a = PitFactory(name="Pit A")
    pit_b = PitFactory(name="Pit B")
    return Floor(pit_a, pit_b, TableFactory(name="R-1", pit=pit_a), TableFactory(name="R-2", pit=pit_b))


@pytest.fixture
def make_user(db):
    """make_user(role, pits=...) → a user with that role ("superuser", a role name, or None for
    no role) and a staff profile in `pits`."""

    def make(role: str | None = None, *, pits=(), username: str | None = None, **fields):
        extra = {"username": username} if username else {}
        if role == "superuser":
            user = SuperuserFactory(**extra, **fields)
        else:
            user = UserFactory(role=role, **extra, **fields)
        StaffFactory(user=user, pits=list(pits))
        return user

    return make


@pytest.fixture
def client_for(make_user, request):
    """client_for(role, pits=None) → a test Client logged in with that role; `None` is anonymous.

    By default the user works in every pit of the `floor` fixture when the test uses it.
    """

    def login(role: str | None, *, pits=None) -> Client:
        client = Client()
        if role is None:
            return client
        if pits is None:
            pits = request.getfixturevalue("floor").pits if "floor" in request.fixturenames else []
        user = make_user(role, pits=pits)
        client.force_login(user)
        client.user = user
        return client

    return login


@pytest.fixture
def without_engine_module(monkeypatch):
    """without_engine_module("blackjack"): the engine behaves as before that variant's module existed."""
    from dealing import engine

    real = engine.variant

    def pretend(*missing: str):
        def variant(name):
            if name in missing:
                raise ModuleNotFoundError(f"No module named 'dealing.engine.{name}'", name=f"dealing.engine.{name}")
            return real(name)

        monkeypatch.setattr(engine, "variant", variant)

    return pretend


@pytest.fixture(params=ROLES)
def role(request) -> str:
    """Each of the five roles in turn."""
    return request.param


@pytest.fixture
def browser_page(live_server, monkeypatch):
    """A Playwright page in the system Chromium, against `live_server`; skips when it is absent."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    playwright_sync = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs an event loop in this thread; Django refuses ORM calls from a
    # thread with a running loop unless told that this is deliberate (tests only).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page
        context.close()
        browser.close()
        # ORM calls made while Playwright's loop runs get connections of their own (Django keeps
        # connections per async context); close them here, in that context, or they outlive the
        # test database.
        connections.close_all()


def current_database_url() -> str:
    """The URL of the database this test runs on, for processes it starts (a worker, gunicorn)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        # The SQLite test database lives in this process's memory: no other process can open it.
        pytest.skip("starts a server process, which needs the test database on PostgreSQL (DATABASE_URL)")
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def eager():
    """Tasks run in the calling process, also when CELERY_BROKER_URL is set (CI): for tests about
    services and tasks, not the broker. What this process queued for the broker before is sent
    first: Celery's switch is global, and its dispatcher thread would otherwise follow it."""
    from celery import current_app

    from audit import dispatch

    dispatch.flush()
    conf = current_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _tables_by_name_of_this_test():
    """The process's cache of tables by name (dealing.services.chain_link.Link.table_rows) holds rows
    of an earlier test's database. On SQLite a rolled-back test gives its ids out again, so an earlier
    "R-1" can carry this test's "R-1"'s id: the round is checked against it, the table's lock reads
    another row, and the round is checked again (right in production, where a table changed; a second
    replay that tests counting replays would see)."""
    from dealing.services.chain_link import Link

    Link.table_rows.clear()


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A request in Russian leaves Russian active in the test's thread (LocaleMiddleware activates
    the language and nothing resets it in tests); the next test would print Russian."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _checkpoint_dir_of_each_test(settings, tmp_path_factory):
    """Each test writes its checkpoints to a directory of its own (its database is its own too):
    a checkpoint another test signed would not match this test's chains."""
    settings.CHECKPOINT_DIR = tmp_path_factory.mktemp("checkpoints")


@pytest.fixture(autouse=True)
def _media_root_of_each_test(settings, tmp_path_factory):
    """Uploaded files (incidents' attachments) go to a directory of each test's own, never the
    checkout's media/."""
    settings.MEDIA_ROOT = str(tmp_path_factory.mktemp("media"))
