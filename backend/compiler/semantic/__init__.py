"""Semantics: types, the catalog, and the binder (syntax tree to typed plan)."""
