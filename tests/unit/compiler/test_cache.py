"""What the compile cache reuses, what it forgets, and that its results stay exact."""

from __future__ import annotations

from backend.compiler import compile_program
from backend.compiler.cache import CacheStats, CompileCache
from bench.compile_speed import program_of_lines
from tests.threads import run_racing

PROGRAM = """CREATE TABLE orders (id BIGINT, amount INT, ts TIMESTAMP LATENESS INTERVAL '1' HOUR);
CREATE VIEW big AS SELECT id, amount FROM orders WHERE amount > 10;
CREATE VIEW hourly AS SELECT FLOOR(ts TO HOUR) AS h FROM orders GROUP BY FLOOR(ts TO HOUR);
CREATE VIEW bigger AS SELECT id FROM big WHERE amount > 100;
"""


def test_without_changes_nothing_is_parsed_bound_or_analysed_again() -> None:
    cache = CompileCache()
    compile_program(PROGRAM, cache)
    assert cache.last == CacheStats(0, 5, 0, 4, 0, 3)  # 4 statements and the last newline
    compile_program(PROGRAM, cache)
    assert cache.last == CacheStats(5, 0, 4, 0, 3, 0)
    assert cache.stats == CacheStats(5, 5, 4, 4, 3, 3)


def test_a_one_statement_edit_parses_binds_and_analyses_only_that_statement() -> None:
    cache = CompileCache()
    compile_program(program_of_lines(1000), cache)
    # A digit typed in the middle block's last view: what follows moves by one.
    edited = program_of_lines(1000, edited=25, limit="1000")
    result = compile_program(edited, cache)
    last = cache.last
    assert (last.parse_misses, last.bind_misses, last.analysis_misses) == (1, 1, 1)
    assert (last.bind_hits, last.analysis_hits) == (199, 149)
    assert result == compile_program(edited)


def test_an_edit_that_changes_a_table_binds_its_readers_again() -> None:
    cache = CompileCache()
    compile_program(PROGRAM, cache)
    result = compile_program(PROGRAM.replace("amount INT", "amount BIGINT"), cache)
    # big reads orders' shape; bigger reads big's, which changed too; hourly does not
    # read amount, but reads the relation orders, which changed: bound again.
    assert cache.last.bind_misses == 4
    assert result == compile_program(PROGRAM.replace("amount INT", "amount BIGINT"))


def test_diagnostics_of_moved_statements_have_their_new_lines() -> None:
    cache = CompileCache()
    program = PROGRAM + "CREATE VIEW broken AS SELECT amout FROM orders;\n"
    before = compile_program(program, cache).diagnostics_json()
    after = compile_program("-- a comment\n\n" + program, cache).diagnostics_json()
    assert cache.last.bind_misses == 1  # the first statement: its piece has the comment
    assert [d["start_line_number"] for d in before] == [5]
    assert [d["start_line_number"] for d in after] == [7]
    assert after == compile_program("-- a comment\n\n" + program).diagnostics_json()


def test_the_plan_of_a_result_has_the_spans_of_its_text_after_statements_moved() -> None:
    cache = CompileCache()
    compile_program(PROGRAM, cache)
    moved = "\n" * 3 + PROGRAM
    cached = compile_program(moved, cache)
    assert cached.plan is not None
    assert cached.plan == compile_program(moved).plan
    assert cached.plan.views[0].query.span.start == PROGRAM.index("SELECT id, amount") + 3


def test_pieces_not_used_by_the_last_two_compiles_are_forgotten() -> None:
    cache = CompileCache()
    compile_program(PROGRAM, cache)
    compile_program("CREATE TABLE a (x INT);", cache)
    assert cache.size == 6  # this program's piece and the previous one's five
    compile_program("CREATE TABLE b (x INT);", cache)
    assert cache.size == 2


def test_results_stay_exact_when_the_hint_budget_runs_out() -> None:
    # 100 unknown names among 100 candidates: the "did you mean" budget runs out
    # part way, so which statements get a hint depends on all those before them.
    text = "".join(f"CREATE TABLE orders_{i} (id INT, amount INT);\n" for i in range(100))
    text += "".join(f"CREATE VIEW v_{i} AS SELECT id FROM ordrs_{i};\n" for i in range(100))
    cache = CompileCache()
    hints = [d.hint for d in compile_program(text, cache).diagnostics]
    assert hints[0] is not None and hints[-1] is None
    for edited in (
        text.replace("ordrs_3;", "ordrs_x3;"),  # an early statement spends more
        text.replace("ordrs_3;", "orders_3;"),  # or less
        text + "CREATE VIEW w AS SELECT id FROM ordrs_0;",
    ):
        assert compile_program(edited, cache) == compile_program(edited)


def test_one_cache_compiles_correctly_from_several_threads_at_once() -> None:
    cache = CompileCache()
    texts = [PROGRAM.replace("> 10", f"> {i}") for i in range(8)]
    expected = {text: compile_program(text).to_json() for text in texts}
    failures: list[object] = []

    def compile_all() -> None:
        for _ in range(20):
            for text in texts:
                try:
                    if compile_program(text, cache).to_json() != expected[text]:
                        failures.append(text)
                except Exception as exception:  # a thread's exception would go unseen
                    failures.append(exception)

    run_racing(compile_all)
    assert failures == []
    # Every statement of every compile counted once: no compile saw another's counts.
    assert cache.stats.bind_hits + cache.stats.bind_misses == 4 * 20 * len(texts) * 4
    assert cache.stats.bind_hits > 0


def test_a_statement_that_read_a_place_elsewhere_follows_that_place() -> None:
    # v's diagnostic notes where t is declared (later): moving only t's statement
    # must move the note, although v's text and place did not change.
    cache = CompileCache()
    program = "CREATE VIEW v AS SELECT a FROM t;\nCREATE TABLE t (a INT);\n"
    compile_program(program, cache)
    moved = program.replace("\nCREATE TABLE", "\n\n-- t:\nCREATE TABLE")
    result = compile_program(moved, cache)
    assert result.diagnostics[0].notes[0].span.start == moved.index("t (a INT)")
    assert result == compile_program(moved)


def test_a_view_with_a_lateness_statement_stays_exact_when_either_moves() -> None:
    # The view's binding reports a LATENESS of the wrong type at the LATENESS
    # statement: moving only one of them must move the report, or not.
    table, view = "CREATE TABLE t (ts INT);\n", "CREATE VIEW v AS SELECT ts FROM t;\n"
    lateness = "LATENESS v.ts INTERVAL '1' HOUR;\n"
    for program in (table + view + lateness, lateness + table + view):
        cache = CompileCache()
        assert [d.code.value for d in compile_program(program, cache).diagnostics] == ["SQL206"]
        for edited in (
            program.replace("LATENESS", "\nLATENESS"),
            program.replace("CREATE VIEW", "-- v\nCREATE VIEW"),
            # Another statement before the view: the view's own text is unchanged.
            program.replace("CREATE VIEW", "CREATE TABLE u (x INT);\nCREATE VIEW"),
            "\n" + program,
        ):
            assert compile_program(edited, cache) == compile_program(edited)
            compile_program(program, cache)


def test_a_query_statement_is_bound_again_when_its_number_changes() -> None:
    # A query's name, query_N, depends on the queries before it and on the names the
    # program declares: the text of the query itself does not change.
    cache = CompileCache()
    program = "CREATE TABLE t (a INT);\nSELECT a FROM t;\nSELECT a + 1 AS b FROM t;\n"
    names = [r.name for r in compile_program(program, cache).catalog.relations]
    assert names == ["t", "query_1", "query_2"]
    for edited in (
        program.replace("SELECT a FROM", "SELECT 0 AS z;\nSELECT a FROM"),
        program.replace("SELECT a FROM t;\n", ""),
        program + "CREATE VIEW query_1 AS SELECT 1 AS one;\n",
    ):
        result = compile_program(edited, cache)
        assert result == compile_program(edited)
        compile_program(program, cache)
    renamed = program + "CREATE VIEW query_1 AS SELECT 1 AS one;\n"
    assert [r.name for r in compile_program(renamed, cache).catalog.relations] == [
        "t",
        "query_2",
        "query_3",
        "query_1",
    ]
