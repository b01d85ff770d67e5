"""Wingspan (base game): rules engine and game service."""
