"""Benchmarks of Puerto Rico alone (its engine beside a peer's)."""
