"""Game records (docs/RECORDS.md): building them from the store, their
canonical JSON, and the archive that keeps finished games after Redis
forgets them."""
