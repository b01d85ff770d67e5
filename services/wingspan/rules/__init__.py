"""Wingspan rules engine (pure Python, no I/O at play time)."""

from .engine import ENGINE, WingspanEngine

__all__ = ["ENGINE", "WingspanEngine"]
