"""The compiler's plan (docs/contracts.md) turned into Spark DataFrame operations.

Every relation flows as a DataFrame of weighted rows: columns c0..cN by position
(so no identifier from a program is ever parsed by Spark) plus WEIGHT, +1 for an
inserted row and -1 for a deleted one. Filters and projections are linear, so
applying them to a step's input changes yields exactly the view's changes.
"""

import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Any

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

WEIGHT = "__weight"
DECIMAL_TYPE = re.compile(r"DECIMAL\((\d+),\s*(\d+)\)")
SPARK_TYPES: dict[str, T.DataType] = {
    "BOOLEAN": T.BooleanType(),
    "TINYINT": T.ByteType(),
    "SMALLINT": T.ShortType(),
    "INTEGER": T.IntegerType(),
    "BIGINT": T.LongType(),
    "REAL": T.FloatType(),
    "DOUBLE": T.DoubleType(),
    "VARCHAR": T.StringType(),
    "DATE": T.DateType(),
    "TIMESTAMP": T.TimestampNTZType(),
    "TIME": T.StringType(),
    "NULL": T.NullType(),
    "INTERVAL DAY TO SECOND": T.DayTimeIntervalType(),
    "INTERVAL YEAR TO MONTH": T.YearMonthIntervalType(),
}
# Types the ingress stores as JSON strings and Spark casts after parsing.
PARSED_FROM_STRING = ("DECIMAL", "DATE", "TIMESTAMP")


class LoweringError(Exception):
    """The plan has something this runner cannot execute: a compiler/runner mismatch."""


def spark_type(sql_type: str) -> T.DataType:
    match = DECIMAL_TYPE.fullmatch(sql_type)
    if match:
        return T.DecimalType(int(match.group(1)), int(match.group(2)))
    try:
        return SPARK_TYPES[sql_type]
    except KeyError as err:
        raise LoweringError(f"no Spark type for {sql_type}") from err


def positional(index: int) -> str:
    return f"c{index}"


def _json_type(sql_type: str) -> T.DataType:
    return T.StringType() if sql_type.startswith(PARSED_FROM_STRING) else spark_type(sql_type)


def parse_rows(changes: DataFrame, relation: Mapping[str, Any]) -> DataFrame:
    """One input relation's changes: JSON rows from the input log -> typed columns."""
    columns = relation["columns"]
    schema = T.StructType([T.StructField(c["name"], _json_type(c["type"])) for c in columns])
    parsed = changes.where(F.col("relation") == relation["name"]).select(
        F.from_json("row", schema).alias("r"), F.col("weight").cast("int").alias(WEIGHT)
    )
    return parsed.select(
        *(
            F.col("r").getField(c["name"]).cast(spark_type(c["type"])).alias(positional(i))
            for i, c in enumerate(columns)
        ),
        WEIGHT,
    )


BINARY: dict[str, Callable[[Column, Column], Column]] = {
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "mod": lambda a, b: a % b,
    "like": F.like,
}
UNARY: dict[str, Callable[[Column], Column]] = {
    "not": lambda a: ~a,
    "neg": lambda a: -a,
    "is_null": lambda a: a.isNull(),
    "is_not_null": lambda a: a.isNotNull(),
    "upper": F.upper,
    "lower": F.lower,
    "abs": F.abs,
}
INTEGRAL = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT")


def _literal(value: Any, sql_type: str) -> Column:
    # Interval literals are whole numbers: microseconds, or months.
    if sql_type == "INTERVAL DAY TO SECOND":
        return F.lit(dt.timedelta(microseconds=value))
    if sql_type == "INTERVAL YEAR TO MONTH":
        return F.make_ym_interval(F.lit(0), F.lit(value))
    return F.lit(value).cast(spark_type(sql_type))


def lower_expr(expr: Mapping[str, Any]) -> Column:
    kind = expr["kind"]
    if kind == "column":
        return F.col(positional(expr["index"]))
    if kind == "literal":
        return _literal(expr["value"], expr["type"])
    if kind == "cast":
        return lower_expr(expr["expr"]).cast(spark_type(expr["type"]))
    if kind != "call":
        raise LoweringError(f"unknown expression kind {kind!r}")
    function, args = expr["function"], expr["args"]
    lowered = [lower_expr(a) for a in args]
    if function == "div":
        quotient = lowered[0] / lowered[1]
        return quotient.cast(spark_type(expr["type"])) if expr["type"] in INTEGRAL else quotient
    if function == "concat":
        return F.concat(*lowered)
    if function == "coalesce":
        return F.coalesce(*lowered)
    if function in UNARY and len(lowered) == 1:
        return UNARY[function](lowered[0])
    if function in BINARY and len(lowered) == 2:
        return BINARY[function](lowered[0], lowered[1])
    raise LoweringError(f"function {function!r} with {len(args)} arguments is not supported")


def lower_rel(rel: Mapping[str, Any], relations: Mapping[str, DataFrame]) -> DataFrame:
    """A plan node applied to the changes of its inputs in this step: its own changes."""
    op = rel["op"]
    if op == "scan":
        return relations[rel["relation"]]
    child = lower_rel(rel["input"], relations)
    if op == "filter":
        # A row passes only where the condition is TRUE (not NULL), as in SQL.
        return child.where(F.coalesce(lower_expr(rel["condition"]), F.lit(False)))
    if op == "project":
        return child.select(
            *(lower_expr(e).alias(positional(i)) for i, e in enumerate(rel["exprs"])), WEIGHT
        )
    raise LoweringError(f"unknown plan node {op!r}")
