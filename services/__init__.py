"""Roost server side: the platform (core), the rules engines and the game services."""
