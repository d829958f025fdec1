"""The `text` path converter: a URL segment that names something (a table, a view, a
pump, a key prefix). Like Django's `str`, without NUL characters: PostgreSQL text holds
none, so no stored name has one, and a URL with one matches no route (404)."""

from django.urls import register_converter


class TextConverter:
    regex = "[^/\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TextConverter, "text")
