"""Audit runs, findings and reviews: every logged payout checked against the rules engine."""
