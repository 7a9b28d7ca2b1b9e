"""The hub's side of the wire: the tables' decisions into the records, the pairings out
(issue 27)."""
