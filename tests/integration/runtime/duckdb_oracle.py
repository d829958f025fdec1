"""DuckDB as the oracles' batch SQL, ordering NULLs as Weir does."""

import duckdb


def connect() -> duckdb.DuckDBPyConnection:
    """A DuckDB connection whose unsaid NULL order is Weir's: NULLs the smallest, first
    ascending and last descending (DuckDB's own puts them last both ways)."""
    db = duckdb.connect()
    db.execute("SET default_null_order = 'nulls_first_on_asc_last_on_desc'")
    return db
