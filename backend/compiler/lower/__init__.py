"""Lowering: the typed plan to the serialisable spec the runner executes."""
