"""Under the Leaves: its rules engine (``rules``) and, beside it, its game service."""
