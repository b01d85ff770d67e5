"""Sky Garden: rules engine (``services.skygarden.rules``) and its game service."""
