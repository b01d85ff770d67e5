"""Example bot policies (see docs/BOTS.md); run one with
``roost bots GAME_ID --policy clients.bots.examples.<module>:<Class>``."""
