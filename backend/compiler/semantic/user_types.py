"""CREATE TYPE (Calcite's and Feldera's user-defined types): a name for a type.

`CREATE TYPE address AS (street VARCHAR, city VARCHAR)` names a ROW type whose
fields are nullable unless declared NOT NULL; `CREATE TYPE ids AS INT ARRAY` names
any other type. A type is usable in every statement after its own, wherever a type
is written (a column, a field of another type, CAST, a function's parameters), and
a ROW type's name is also its constructor: `address('Broadway', 'New York')`. The
plan and the catalog hold the type itself, never its name, so nothing after the
binder knows of them.
"""

from __future__ import annotations

from backend.compiler.diagnostics import Code, error
from backend.compiler.semantic.environment import Environment
from backend.compiler.semantic.type_names import is_built_in, resolve_type
from backend.compiler.semantic.types import SqlType
from backend.compiler.syntax import statements as stmt


def bind_type(statement: stmt.CreateType, env: Environment) -> tuple[str | None, SqlType | None]:
    """The name the statement defines (None when it cannot have it: a built-in type's,
    an earlier type's) and the type (None after an error)."""
    name = statement.name.value
    taken = (
        f"{name.upper()} is a built-in type: a type of the program needs a name of its own"
        if is_built_in(name)
        else f"Type {name.upper()} is already defined"
        if env.user_type(name)[0]
        else None
    )
    defined = resolve_type(statement.type, env.diagnostics, env.suggestions, env.user_type)
    if taken is not None:
        env.report(error(Code.UNKNOWN_TYPE, taken, statement.name.span))
        return None, None
    return name, defined
