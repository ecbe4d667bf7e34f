"""House rules of a table, as the rules engine reads them.

A table stores only its overrides (`Table.rules`); the engine owns the defaults, the presets and
what each option accepts. This module is the one place the floor asks the engine about them.
"""

from contextlib import contextmanager

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from dealing import engine


class VariantUnavailable(Exception):
    """The engine has no module for this variant yet, so its rules cannot be read."""


@contextmanager
def _variant_module(variant: str):
    # The engine imports a variant's module on first use; a variant whose module has not been
    # written yet surfaces as that import failing (or as "unknown_variant").
    try:
        yield
    except ModuleNotFoundError as exc:
        if exc.name != f"{engine.__name__}.{variant}":
            raise
        raise VariantUnavailable(variant) from exc
    except engine.RoundError as exc:
        if exc.code == "unknown_variant":
            raise VariantUnavailable(variant) from exc
        raise


def in_force(variant: str, rules: dict | None) -> dict:
    """The house rules in force (defaults or preset, plus overrides).

    Raises `engine.RoundError` for a bad override, `VariantUnavailable` when the variant's engine
    module is not there.
    """
    with _variant_module(variant):
        return engine.house_rules(variant, rules)


def options(variant: str) -> list[dict]:
    """The options a table of this variant may set. Raises `VariantUnavailable` like `in_force`."""
    with _variant_module(variant):
        return engine.options(variant)


def validate(variant: str, rules) -> dict:
    """The rules in force; ValidationError with the engine's sentence when `rules` are not valid."""
    try:
        return in_force(variant, rules)
    except engine.RoundError as exc:
        raise ValidationError(exc.message, code=exc.code) from exc
    except VariantUnavailable:
        raise ValidationError(
            _("The house rules of %(variant)s cannot be checked yet: the rules engine has no %(variant)s module.")
            % {"variant": variant},
            code="variant_unavailable",
        ) from None
