"""The engine's Ochko documents shaped for the pages: the chart as a grid, the Bet decision as a table.

Nothing here computes a figure: every number is one of the engine's decimal strings, carried as is
(the templates only round it for reading).
"""

from django.utils.translation import gettext_lazy as _

from . import selectors

ACTION_LETTERS = {"stand": "S", "hit": "H", "dark": "D"}
ACTION_LABELS = {"stand": _("Stand"), "hit": _("Hit"), "dark": _("Dark card")}
OPTION_LABELS = {**ACTION_LABELS, "fold": _("Fold")}
UP_LABELS = {"T": "10"}  # the pages write the ten as players read it; the engine's code is T


def card_label(rank: str) -> str:
    return UP_LABELS.get(rank, rank)


def chart(document: dict) -> dict:
    """A `strategy/1` chart as rows of cells in the up cards' order, each with its action's letter."""
    ups = document["up_cards"]
    rows = []
    for row in document["rows"]:
        cells = []
        for up in ups:
            cell = row["cells"].get(up)
            if cell is None:
                cells.append(None)
                continue
            cells.append(
                {
                    **cell,
                    "up": card_label(up),
                    "letter": ACTION_LETTERS[cell["action"]],
                    "label": ACTION_LABELS[cell["action"]],
                    "mixed": cell["agree"] != "1",
                }
            )
        hand = card_label(row["hand"])
        rows.append({"hand": hand, "kind": row["kind"], "cells": cells})
    return {
        "bet": document["bet"],
        "ups": [card_label(u) for u in ups],
        "rows": rows,
        "legend": [{"action": a, "letter": ACTION_LETTERS[a], "label": ACTION_LABELS[a]} for a in ACTION_LETTERS],
    }


def option_label(name: str) -> str:
    """`bet:3` → "Bet 3"; stand / hit / dark / fold by their names on the table."""
    if name.startswith("bet:"):
        return str(_("Bet %(k)s") % {"k": name[4:]})
    return str(OPTION_LABELS.get(name, name))


def options(answer: dict) -> list[dict]:
    """An `ev/1` answer's options in the engine's order, the best one marked."""
    return [
        {"name": name, "label": option_label(name), "ev": value, "best": name == answer["best"]}
        for name, value in answer["options"].items()
    ]


def bet_decision(document: dict, rules: dict | None) -> list[dict]:
    """Per first card: every option before the dealer opens (fold, bet:1 … bet:10) and the best one."""
    lines = []
    for rank, decision in document["bet_decision"].items():
        answer = selectors.ev(cards=[f"{rank}S"], rules=rules)
        lines.append(
            {
                "card": card_label(rank),
                "decision": decision,
                "options": options(answer),
                "best_label": option_label(decision["action"]),
            }
        )
    return lines


def edge_chart_data(effects: list[dict]) -> dict:
    """The house-edge bar chart's series, as the engine's decimal strings (the script only draws them)."""
    return {
        "labels": [f"{e['rules']['dark_win_bet']} / {e['rules']['dark_double_bust_bet']}" for e in effects],
        "house_edge": [e["edge"]["house_edge"] for e in effects],
        "edge_per_wagered": [e["edge"]["edge_per_wagered"] for e in effects],
        "without_dark": [e["without_dark"]["house_edge"] for e in effects],
        "words": {
            "house_edge": str(_("House edge per Ante")),
            "edge_per_wagered": str(_("Per unit wagered")),
            "without_dark": str(_("Without the dark card")),
            # xgettext:no-python-format — a per cent sign, not a directive ("% o"), whatever the translation
            "axis": str(_("House edge, % of the Ante")),
        },
    }
