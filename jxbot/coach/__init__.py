"""The coach: an evaluator of decisions, the expert level built on it, and the review of a hand (docs/coach.md)."""
