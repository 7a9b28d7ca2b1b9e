"""The tournament's records: one event's (its teams, rounds, results, rooms, closing) and the day's
that names the events (issue 27)."""
