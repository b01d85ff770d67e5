"""Benchmarks: each writes its figures into a marked section of docs/BENCHMARKS.md."""
