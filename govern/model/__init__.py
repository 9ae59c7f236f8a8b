"""The normalized type model: nodes, canonical JSON, fingerprints and the inventory."""
