"""Verification of the record history against the current source: every check yields findings as data."""
