"""Syntax: the tokenizer, the syntax tree and the parser."""
