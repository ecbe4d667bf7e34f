"""The floor's incidents in the procedure drill (ochko, rules/ochko.md "Incidents" and "The shoe"):
woven into a round (the dealer's card flips during the deal, a card drawn by mistake, seen or not)
or put before it (a player demanding a new shuffle or asking for a paid burn, a new dealer taking
over). Between-round moves are checked with the engine's shoe checks (`engine.check_shoe`); the
few wrong moves no log can show are explained from the procedure itself and carry a drill code.

`IncidentSteps` is a part of the procedure's Builder (drills/procedure.py).
"""

from decimal import Decimal

from django.utils.translation import gettext as _

from dealing import engine

from . import table as tbl
from .moves import Candidate, amount_text, plain

# Mistakes no log can show: codes of the drill's own (engine codes are used wherever a log can).
DRILL_CODES = {
    "SHUFFLE_DEMAND": "a player's demand for a new shuffle handled against the procedure",
    "PAID_BURN": "a player's paid burn refused",
    "INCIDENT_HANDLING": "an exposed card kept in play instead of stopping the game",
}
INSPECTOR, PIT_BOSS = "I-1", "PB-1"


class IncidentSteps:
    """The incident and between-round steps of a procedure script (mixed into the Builder)."""

    def _insert_incident(self) -> None:
        kind = self.incident
        if kind in ("misdrawn_hidden", "misdrawn_exposed"):
            hits = [k for k, ev in enumerate(self.log) if ev["e"] == "hit"]
            if not hits:
                self.incident = None
                return
            at = self.rng.choice(hits)
            card = self.random_card()
            exposed = kind == "misdrawn_exposed"
            incident = {
                "e": "incident",
                "kind": "misdrawn_card",
                "card": card,
                "exposed": exposed,
                "resolution": "burned" if exposed else "under_shoe",
                "reported_by": INSPECTOR,
                "approved_by": PIT_BOSS,
            }
            self.log.insert(at, incident)
            self.misdrawn_box = self.log[at + 1]["box"]
        elif kind in ("shuffle_demand", "paid_burn", "dealer_change"):
            self.between = {"kind": kind}

    def _incident_step(self, prefix, right, after):
        ev = right[0]
        w = self.words
        card = tbl.card_label(ev["card"])
        unapproved = {**ev, "approved_by": None}
        if ev["kind"] == "dealer_card_exposed":
            prompt = _("As you deal your own card it flips face up: %(card)s. The inspector has seen it.") % {
                "card": card
            }
            right_label = _(
                "Stop the game and call the pit boss; burn the %(card)s in his presence and deal "
                "yourself a new card face down."
            ) % {"card": card}
            then = _("The pit boss approves; the %(card)s is burned and you take a new card.") % {"card": card}
            new_card = right[2:]
            candidates = [
                Candidate(
                    _("Burn the %(card)s yourself and deal yourself a new card; no need to call anyone.")
                    % {"card": card},
                    [unapproved] + right[1:],
                    "INCIDENT_UNAPPROVED",
                    rest=after,
                ),
                Candidate(
                    _("Put the %(card)s under the shoe and deal yourself a new card.") % {"card": card},
                    [{**ev, "resolution": "under_shoe"}] + new_card,
                    "INCIDENT_RESOLUTION",
                    rest=after,
                ),
                Candidate(
                    _("Turn the %(card)s face down again and carry on.") % {"card": card},
                    [],
                    "INCIDENT_HANDLING",
                    explain=_(
                        "An exposed dealer's card never stays in play: the inspector reports it, "
                        "and in the pit boss's presence it is burned and replaced by a new card."
                    ),
                ),
            ]
            return prompt, right_label, then, candidates
        box = getattr(self, "misdrawn_box", None)
        spot = w.spot(box)
        if not ev["exposed"]:
            prompt = _(
                "Reaching for %(box)s's card you pull two cards from the shoe. The extra card is still face "
                "down: nobody has seen it."
            ) % {"box": spot}
            right_label = _(
                "Put the extra card under the shoe (it is burned) and carry on; the inspector records "
                "it for the pit boss."
            )
            then = _("The card goes under the shoe; the pit boss signs the record.")
            candidates = [
                Candidate(
                    _("Give the extra card to %(box)s: it was his card anyway.") % {"box": spot},
                    [{**unapproved, "resolution": {"to": box}}],
                    "INCIDENT_RESOLUTION",
                    rest=after,
                ),
                Candidate(
                    _("Put it under the shoe and carry on; there is nothing to record."),
                    [unapproved],
                    "INCIDENT_UNAPPROVED",
                    rest=after,
                ),
                Candidate(
                    _("Turn it face up for the table to see, then burn it."),
                    [{**ev, "resolution": "burned"}],
                    "INCIDENT_RESOLUTION",
                    rest=after,
                ),
            ]
            return prompt, right_label, then, candidates
        prompt = _(
            "Reaching for %(box)s's card you pull two cards from the shoe; the extra one lands face up: %(card)s."
        ) % {"box": spot, "card": card}
        right_label = _(
            "Leave the %(card)s on the table and call the pit boss: he decides which box gets it or has it burned."
        ) % {"card": card}
        then = _("The pit boss has the %(card)s burned; the decision is recorded with his name.") % {"card": card}
        candidates = [
            Candidate(
                _("Put the %(card)s under the shoe and carry on.") % {"card": card},
                [{**unapproved, "resolution": "under_shoe"}],
                "INCIDENT_RESOLUTION",
                rest=after,
            ),
            Candidate(
                _("Give the %(card)s to %(box)s, who asked for a card.") % {"card": card, "box": spot},
                [{**unapproved, "resolution": {"to": box}}],
                "INCIDENT_UNAPPROVED",
                rest=after,
            ),
            Candidate(
                _("Burn the %(card)s yourself and carry on.") % {"card": card},
                [unapproved],
                "INCIDENT_UNAPPROVED",
                rest=after,
            ),
        ]
        return prompt, right_label, then, candidates

    # -- between rounds (the shoe) --

    def _between_step(self) -> dict:
        kind = self.between["kind"]
        table = self.doc["table"]
        low = Decimal(str(table["min"]))
        fee = low / 2
        player = self.rng.choice(["P-3", "P-7", "P-11", "P-15", "P-19"])
        rnd = {"e": "round", "round": self.doc}
        loaded = [{"e": "shuffle", "by": "D-1"}] + [self._burn("load") for _k in range(6)]
        if kind == "shuffle_demand":
            idle = self.rng.random() < 0.5
            if idle:
                prompt = _(
                    "Your table is not in play and its shoe is unfinished. %(player)s sits down and asks "
                    "for a new shuffle."
                ) % {"player": player}
                right = Candidate(
                    _("Shuffle a new shoe for him: load it and burn 6 cards, then deal."), [], "", shoe=loaded + [rnd]
                )
                wrong = [
                    Candidate(
                        _("Refuse: a player may never demand a new shuffle."),
                        [],
                        "SHUFFLE_DEMAND",
                        explain=_(
                            "A player who arrives at a table that is not in play, with its shoe "
                            "unfinished, may have a new shuffle."
                        ),
                    ),
                    Candidate(
                        _("Shuffle a new shoe for him and deal at once."),
                        [],
                        "BURN_COUNT",
                        shoe=[{"e": "shuffle", "by": "D-1"}, rnd],
                    ),
                ]
            else:
                prompt = _(
                    "Half the shoe is dealt. %(player)s, who has been playing all along, demands a new shuffle."
                ) % {"player": player}
                right = Candidate(
                    _("Refuse politely: the shoe is played to the end (call the pit boss if he insists)."),
                    [],
                    "",
                    shoe=loaded + [rnd],
                )
                wrong = [
                    Candidate(
                        _("Shuffle a new shoe to keep him happy."),
                        [],
                        "SHUFFLE_DEMAND",
                        explain=_(
                            "A player cannot demand a new shuffle; only a player who arrives at a "
                            "table that is not in play, with an unfinished shoe, may have one."
                        ),
                    ),
                    Candidate(
                        _("Burn a card for him instead, free of charge."),
                        [],
                        "BURN_FEE",
                        shoe=loaded + [{**self._burn("paid")}, rnd],
                    ),
                ]
        elif kind == "paid_burn":
            prompt = _("Between rounds %(player)s asks you to burn a card for him.") % {"player": player}
            right = Candidate(
                _("Burn one card; he pays %(fee)s — half the table minimum — into the float.")
                % {"fee": amount_text(fee)},
                [],
                "",
                shoe=loaded + [{**self._burn("paid"), "fee": fee}, rnd],
            )
            wrong = [
                Candidate(
                    _("Burn one card; he pays %(fee)s, the table minimum, into the float.") % {"fee": amount_text(low)},
                    [],
                    "BURN_FEE",
                    shoe=loaded + [{**self._burn("paid"), "fee": low}, rnd],
                ),
                Candidate(_("Burn one card free of charge."), [], "BURN_FEE", shoe=loaded + [self._burn("paid"), rnd]),
                Candidate(
                    _("Refuse: only the pit boss may order a burn."),
                    [],
                    "PAID_BURN",
                    explain=_(
                        "Between rounds a player may ask for one card to be burned, for a fee of "
                        "half the table minimum, paid into the float."
                    ),
                ),
            ]
        else:
            prompt = _("You take over the table from D-4 in the middle of the shoe.")
            change = [{"e": "dealer_change", "dealer": "D-1"}]
            right = Candidate(
                _("Burn one card, then deal."), [], "", shoe=loaded + change + [self._burn("dealer_change"), rnd]
            )
            wrong = [
                Candidate(
                    _("Deal at once: the shoe is already running."), [], "BURN_COUNT", shoe=loaded + change + [rnd]
                ),
                Candidate(
                    _("Burn six cards, as after loading a shoe."),
                    [],
                    "BURN_COUNT",
                    shoe=loaded + change + [self._burn("dealer_change") for _k in range(6)] + [rnd],
                ),
            ]
        choices = []
        if self._shoe_findings(right.shoe):
            raise AssertionError("the right between-round move must pass the shoe checks")
        choices.append({"label": right.label, "correct": True, "code": None, "explain": "", "engine": True})
        for cand in wrong:
            if cand.explain:
                choices.append(
                    {"label": cand.label, "correct": False, "code": cand.code, "explain": cand.explain, "engine": False}
                )
                continue
            found = [f for f in self._shoe_findings(cand.shoe) if f.code == cand.code]
            if found:
                explain, params = plain(found[0])
                choices.append(
                    {
                        "label": cand.label,
                        "correct": False,
                        "code": cand.code,
                        "explain": explain,
                        "params": params,
                        "engine": True,
                    }
                )
        self.rng.shuffle(choices)
        for k, choice in enumerate(choices, start=1):
            choice["key"] = str(k)
        return {
            "kind": "between",
            "at": 0,
            "end": 0,
            "narration": [],
            "prompt": prompt,
            "right": right.label,
            "then": "",
            "choices": choices,
            "listed": False,
        }

    def _burn(self, reason: str) -> dict:
        return {"e": "burn", "card": self.random_card(), "reason": reason}

    def _shoe_findings(self, items):
        table = self.doc["table"]
        doc = {
            "format": "shoe/1",
            "variant": self.variant,
            "table": {"min": table["min"], "max": table["max"]},
            "rules": self.doc.get("rules") or {},
            "items": items,
        }
        return engine.check_shoe(doc)
