"""The GeoPlunge games, each a pure state machine: ``apply(state, action) -> state``."""
