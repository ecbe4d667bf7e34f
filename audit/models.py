"""Models of audit: audit runs, findings, reviews (to come)."""
