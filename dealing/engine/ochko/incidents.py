"""The incident procedure (rules/ochko.md, "Incidents during a round"; seed 004): where each kind of
card must go. One answer for a round log's `incident` event and for an incident record filed on the
floor (the Django side asks through `engine.incident_findings`)."""

from ..findings import Finding
from ..sentences import finding

# The rules page's line each resolution rule holds a record to (rules/ochko.md, Incidents during a round).
RULE_LINES = {
    "exposed_dealer_card": (
        "rules/ochko.md, Incidents during a round: Dealer's card exposed while dealing … the exposed card "
        "is burned and the dealer takes a new face-down card."
    ),
    "unseen_card": (
        "rules/ochko.md, Incidents during a round: Card drawn from the shoe by mistake, not exposed: it goes "
        "under the shoe (burned) and play goes on."
    ),
    "exposed_card": (
        "rules/ochko.md, Incidents during a round: Card drawn by mistake and exposed: it stays on the table "
        "and is placed where the pit boss decides (to a named box, or burned)."
    ),
}


def resolution_word(resolution) -> str:
    """burned, under_shoe or to_box (a placement {"to": <box>} or the record's word)."""
    return "to_box" if isinstance(resolution, dict) else str(resolution)


def out_of_procedure(kind: str, exposed: bool, resolution) -> dict | None:
    """The INCIDENT_RESOLUTION params when the resolution is not the procedure's, else None.

    - an exposed dealer card is burned (seed 004: «засвеченная карта дилера сжигается»);
    - a misdrawn card nobody saw goes under the shoe — burned: either word (the rules page's
      "under the shoe (burned)");
    - a misdrawn card that was seen stays on the table: placed on a box or burned by the pit boss,
      never slipped under the shoe.
    """
    word = resolution_word(resolution)
    if kind == "dealer_card_exposed":
        if word != "burned":
            params: dict = {"rule": "exposed_dealer_card", "resolution": word}
            if isinstance(resolution, dict):
                params["to"] = resolution.get("to")
            return params
        return None
    if not exposed:
        if word not in ("under_shoe", "burned"):
            params = {"rule": "unseen_card", "resolution": word}
            if isinstance(resolution, dict):
                params["to"] = resolution.get("to")
            return params
        return None
    if word == "under_shoe":
        return {"rule": "exposed_card"}
    return None


def incident_findings(kind: str, exposed: bool, resolution) -> list[Finding]:
    """An incident record's departures from the procedure, as findings (none when it holds)."""
    params = out_of_procedure(kind, exposed, resolution)
    return [] if params is None else [finding("INCIDENT_RESOLUTION", params)]
