"""Errors a step raises on its data: SQL data exceptions (SQLSTATE class 22), such as
a division by zero, a cast of text that is no number, or an overflow; and the checks
of Weir's own functions (ELEMENT of an array of more than one element).

Such an error fails the step whatever Weir does: the program must change (a
NULLIF, a CASE) or the data. It is reported in one line, as Spark words it less
its advice on functions and settings Weir's SQL does not have (`try_divide`,
`spark.sql.ansi.enabled`) and its stack.
"""

import re

from pyspark.errors import PySparkException

DATA_EXCEPTION = "22"  # the SQLSTATE class
RAISED_BY_WEIR = "P0001"  # raise_error: a function's own check, ELEMENT's of its array
SPARK_ADVICE = re.compile(r"\btry_\w+|spark\.sql\.|SQLSTATE")


def data_error(error: BaseException) -> str | None:
    """`error` in one line when it is a SQL data exception, for example
    "[DIVIDE_BY_ZERO] Division by zero. SQLSTATE: 22012"; None for any other error."""
    if not isinstance(error, PySparkException):
        return None
    state = error.getSqlState()
    if state is None or not (state.startswith(DATA_EXCEPTION) or state == RAISED_BY_WEIR):
        return None
    first_line = str(error).strip().splitlines()[0]
    sentences = re.split(r"(?<=\.) ", first_line)
    return " ".join(s for s in sentences if not SPARK_ADVICE.search(s)) + f" SQLSTATE: {state}"
