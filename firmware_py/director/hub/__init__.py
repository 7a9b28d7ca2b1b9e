"""The tournament hub (``gametable hub``, docs/hub.md): the tables' results into the tournament
record over MQTT, the rounds' pairings out to the tables, and the broker's accounts."""
