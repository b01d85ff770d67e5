"""The platform: knows Redis, gRPC, logging and metrics, and no game rules."""
