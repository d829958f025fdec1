"""The typed logical plan."""
