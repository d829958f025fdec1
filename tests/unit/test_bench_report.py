from bench.__main__ import with_section


def test_a_benchmark_section_is_replaced_and_the_analysis_around_it_kept() -> None:
    doc = "# B\n\nintro\n<!-- bench:t -->\nold table\n<!-- /bench:t -->\nanalysis\n"
    updated = with_section(doc, "t", "| new |\n")
    assert updated == "# B\n\nintro\n<!-- bench:t -->\n| new |\n<!-- /bench:t -->\nanalysis\n"
    assert with_section(updated, "u", "x").endswith("<!-- bench:u -->\nx\n<!-- /bench:u -->\n")
