"""Streaming analyses over the typed plan: stream or table, waterlines, output mode."""
