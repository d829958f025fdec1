"""Bytes (BINARY and VARBINARY, Feldera's binary.md) through steps: read and published
as the list of their numbers, every example of binary.md's table, grouping and MIN/MAX
in byte order, and casts from text and to and from UUIDs."""

import hashlib

from pyspark.sql import SparkSession

from tests.integration.runtime.replays import contents_after_steps

PROGRAM = """
CREATE TABLE t (id INT, b VARBINARY, f VARBINARY(4));
CREATE VIEW fns AS SELECT id, x'ab' || b AS joined, TO_HEX(b) AS hex, TO_INT(b) AS i,
  OCTET_LENGTH(b) AS n, POSITION(x'20' IN b) AS p, POSITION(x'45' IN b FROM 2) AS p3,
  SUBSTRING(b, 3) AS s,
  SUBSTRING(b FROM 3 FOR 2) AS s2, OVERLAY(b PLACING x'0203' FROM 2 FOR 3) AS o,
  LEFT(b, 2) AS l, RIGHT(b, 2) AS r, MD5(b) AS m, BIN2UTF8(b) AS u, SHA256(b) AS sha FROM t;
CREATE VIEW by_f AS SELECT f, COUNT(*) AS c, MIN(b) AS least_b, MAX(b) AS most_b FROM t GROUP BY f;
CREATE VIEW casts AS SELECT id, CAST(b AS VARCHAR) AS txt, CAST('@A' AS VARBINARY) AS utf8,
  SAFE_CAST(b AS UUID) AS u, CAST(UUID '00000000-0000-0000-0000-0000000000ff' AS VARBINARY) AS ub,
  CAST(b AS BINARY(3)) AS fixed3, CAST(b AS VARBINARY(1)) AS cut1
  FROM t WHERE id IN (1, 8);
"""


def _bytes(hex_digits: str) -> list[int]:
    return list(bytes.fromhex(hex_digits))


ROWS = [  # binary.md's examples' bytes
    {"id": 1, "b": _bytes("0abc"), "f": [1]},
    {"id": 2, "b": _bytes("102023"), "f": [1]},
    {"id": 3, "b": _bytes("1234567890"), "f": [0, 255]},
    {"id": 4, "b": _bytes("0123456789abcdef"), "f": [1]},
    {"id": 5, "b": _bytes("4041"), "f": [0, 255]},
    {"id": 6, "b": _bytes("abcdef"), "f": [1]},
    {"id": 7, "b": None, "f": [0]},
    {"id": 8, "b": _bytes("123e4567e89b12d3a456426655440000"), "f": []},
]


def test_every_example_of_binary_md_and_bytes_in_groups(spark: SparkSession) -> None:
    after_insert, after_delete = contents_after_steps(
        spark,
        PROGRAM,
        [{"t": [{"insert": row} for row in ROWS]}, {"t": [{"delete": ROWS[1]}]}],
    )
    fns = {row["id"]: row for row in after_insert["fns"]}
    assert fns[1]["joined"] == _bytes("ab0abc")  # x'ab' || x'cd' => x'ABCD', on a column
    assert (fns[1]["hex"], fns[1]["i"], fns[1]["n"]) == ("0abc", 2748, 2)
    assert fns[2]["p"] == 2  # POSITION(x'20' IN x'102023')
    assert (fns[4]["p3"], fns[8]["p3"], fns[2]["p3"]) == (3, 3, 0)  # x'45', from byte 2
    assert fns[3]["s2"] == _bytes("5678")  # SUBSTRING(x'1234567890' FROM 3 FOR 2)
    assert fns[3]["o"] == _bytes("12020390")  # OVERLAY(... PLACING x'0203' FROM 2 FOR 3)
    assert fns[2]["s"] == _bytes("23")  # as SUBSTRING(x'123456', 3) => x'56'
    assert fns[4]["m"] == "a1cd1d1fc6491068d91007283ed84489"  # MD5(x'0123456789ABCDEF')
    assert fns[5]["u"] == "@A"  # BIN2UTF8(x'4041')
    assert fns[5]["sha"] == hashlib.sha256(b"@A").hexdigest()
    assert (fns[6]["l"], fns[6]["r"]) == (_bytes("abcd"), _bytes("cdef"))  # LEFT, RIGHT
    assert fns[4]["u"] is None  # bytes that are no UTF-8
    assert fns[8]["i"] == 0x123E4567  # the first four bytes
    assert fns[4]["i"] == 0x01234567
    assert set(fns[7].values()) == {None, 7}  # NULL bytes: NULL everywhere
    assert fns[6]["p"] == 0
    by_f = sorted(after_insert["by_f"], key=lambda row: row["f"])  # in byte order
    assert by_f == [
        {"f": [], "c": 1, "least_b": ROWS[7]["b"], "most_b": ROWS[7]["b"]},
        {"f": [0], "c": 1, "least_b": None, "most_b": None},
        {"f": [0, 255], "c": 2, "least_b": ROWS[2]["b"], "most_b": ROWS[4]["b"]},
        {"f": [1], "c": 4, "least_b": ROWS[3]["b"], "most_b": ROWS[5]["b"]},
    ]
    assert max(after_delete["by_f"], key=lambda row: row["f"]) == {
        "f": [1],
        "c": 3,
        "least_b": ROWS[3]["b"],
        "most_b": ROWS[5]["b"],
    }
    assert after_delete["fns"] == [row for row in after_insert["fns"] if row["id"] != 2]
    assert after_insert["casts"] == [
        {
            "id": 1,
            "txt": "0abc",
            "utf8": [64, 65],
            "u": None,
            "ub": [0] * 15 + [255],
            "fixed3": [10, 188, 0],  # BINARY(n): padded with zero bytes
            "cut1": [10],
        },
        {
            "id": 8,
            "txt": "123e4567e89b12d3a456426655440000",
            "utf8": [64, 65],
            "u": "123e4567-e89b-12d3-a456-426655440000",
            "ub": [0] * 15 + [255],
            "fixed3": [0x12, 0x3E, 0x45],  # cut to n bytes
            "cut1": [0x12],
        },
    ]


BITS = """
CREATE TABLE t (g INT, b VARBINARY);
CREATE VIEW bits AS SELECT g, BIT_AND(b) AS a, BIT_OR(b) AS o, BIT_XOR(b) AS x,
  BIT_XOR(DISTINCT b) AS xd FROM t GROUP BY g;
"""


def test_bit_aggregates_of_bytes_go_byte_by_byte(spark: SparkSession) -> None:
    """Feldera's BIT_AND, BIT_OR and BIT_XOR of bytes; XOR cancels a value held twice."""
    rows = [
        {"g": 1, "b": _bytes("0ff0")},
        {"g": 1, "b": _bytes("ff01")},
        {"g": 1, "b": _bytes("ff01")},
        {"g": 2, "b": None},
    ]
    first, second = contents_after_steps(
        spark,
        BITS,
        [{"t": [{"insert": row} for row in rows]}, {"t": [{"delete": rows[1]}]}],
        order=lambda row: row["g"],
    )
    one = {"g": 1, "a": _bytes("0f00"), "o": _bytes("fff1"), "xd": _bytes("f0f1")}
    assert first["bits"] == [
        {**one, "x": _bytes("0ff0")},  # ff01 twice cancels out
        {"g": 2, "a": None, "o": None, "x": None, "xd": None},
    ]
    assert second["bits"][0] == {**one, "x": _bytes("f0f1")}
