"""The engine's blackjack documents shaped for the pages: the chart as coloured grids, the soft and
hard hands side by side, the rule effects as a bar chart's series. Nothing here computes a figure:
every number is one of the engine's decimal strings, carried as is (templates only round them)."""

from django.utils.translation import gettext_lazy as _

ACTION_LABELS = {
    "stand": _("Stand"),
    "hit": _("Hit"),
    "double": _("Double"),
    "split": _("Split"),
    "surrender": _("Surrender"),
}
OPTION_LABELS = {**ACTION_LABELS, "insurance": _("Insurance (per unit of it)"), "even_money": _("Even money")}
CHART_TITLES = {"hard": _("Hard totals"), "soft": _("Soft totals"), "pairs": _("Pairs")}
LEGEND = (
    ("H", "hit", _("Hit")),
    ("S", "stand", _("Stand")),
    ("Dh", "double", _("Double, else hit")),
    ("Ds", "double", _("Double, else stand")),
    ("P", "split", _("Split")),
    ("Rh", "surrender", _("Surrender, else hit")),
)
RULE_LABELS = {
    "hit_soft_17": _("Dealer hits soft 17"),
    "blackjack_pays": _("Blackjack pays"),
    "surrender": _("Late surrender"),
    "resplit_aces": _("Resplit aces"),
    "hit_split_aces": _("Hit split aces"),
    "max_hands": _("Split to (hands)"),
    "double_after_split": _("Double after split"),
    "double": _("Double on"),
    "decks": _("Decks"),
}


def card_label(rank: str) -> str:
    return "10" if rank == "T" else rank


def grids(document: dict) -> list[dict]:
    """The hard, soft and pairs charts: rows of cells in the up cards' order."""
    ups = [card_label(u) for u in document["up_cards"]]
    out = []
    for key in ("hard", "soft", "pairs"):
        rows = []
        for row in document[key]:
            hand = row["hand"].replace("T", "10")
            cells = [
                {**cell, "up": card_label(cell["up"]), "label": ACTION_LABELS[cell["action"]]} for cell in row["cells"]
            ]
            rows.append({"hand": hand, "cells": cells})
        out.append({"kind": key, "title": CHART_TITLES[key], "ups": ups, "rows": rows})
    return out


def legend(document: dict) -> list[dict]:
    codes = {cell["code"] for key in ("hard", "soft", "pairs") for row in document[key] for cell in row["cells"]}
    return [{"code": code, "action": action, "label": label} for code, action, label in LEGEND if code in codes]


def soft_and_hard(document: dict, totals=(17, 18)) -> list[dict]:
    """The same totals soft and hard: every option's EV per up card (the chart's cell values)."""
    ups = [card_label(u) for u in document["up_cards"]]
    lines = []
    for total in totals:
        for key in ("soft", "hard"):
            row = next(r for r in document[key] if r["total"] == total)
            for option in ("stand", "hit", "double"):
                values = [cell["options"].get(option) for cell in row["cells"]]
                best = [cell["action"] == option for cell in row["cells"]]
                lines.append(
                    {
                        "hand": row["hand"],
                        "kind": key,
                        "option": option,
                        "label": ACTION_LABELS[option],
                        "cells": [{"up": u, "ev": v, "best": b} for u, v, b in zip(ups, values, best)],
                    }
                )
    return lines


def options(answer: dict) -> list[dict]:
    return [
        {"name": name, "label": OPTION_LABELS.get(name, name), "ev": value, "best": name == answer["best"]}
        for name, value in answer["options"].items()
    ]


def rule_label(row: dict) -> str:
    value = row["value"]
    if isinstance(value, bool):
        value = _("yes") if value else _("no")
    return f"{RULE_LABELS.get(row['rule'], row['rule'])}: {value}"


def effects(document: dict) -> list[dict]:
    return [{**row, "label": rule_label(row)} for row in document["rows"]]


def edge_chart_data(document: dict) -> dict:
    """The rule effects as one series of bars: the change of the optimal house edge per rule."""
    rows = [row for row in document["rows"] if not row["unchanged"]]
    return {
        "labels": [rule_label(row) for row in rows],
        "series": [
            {
                "label": str(_("Change of the house edge (points of %)")),
                "values": [row["change"] for row in rows],
                "color": "#a3262a",
            }
        ],
        # xgettext:no-python-format
        "words": {"axis": str(_("Change of the house edge, % of the bet"))},
    }
