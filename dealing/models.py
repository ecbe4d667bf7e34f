"""Models of dealing: shoes, rounds, stakes, incidents, approvals (to come)."""
