"""Game protection: a player's evaluation as surveillance files it (issue 38; docs/protection.md)."""
