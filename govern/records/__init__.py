"""Change records: declarations, prose, consistency records, snapshots and the record history."""
