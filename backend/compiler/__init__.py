"""Weir's streaming-SQL compiler: pure Python, no Django, no I/O.

>>> from backend.compiler import compile_program
>>> compile_program("CREATE TABLE t (id INT)").to_json()["plan"]["version"]
1
"""

from backend.compiler.diagnostics import Diagnostic
from backend.compiler.driver import CompileResult, compile_program

__all__ = ["CompileResult", "Diagnostic", "compile_program"]
