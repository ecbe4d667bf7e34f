"""The dealing tests' floor (one person per role in Pits A and B, people of Pit C) for the
notifications' tests."""

from tests.dealing.conftest import api, deal, logged, pits, staff, tables  # noqa: F401
