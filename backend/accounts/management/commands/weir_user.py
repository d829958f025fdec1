from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from backend.accounts.services import api_key_create, user_ensure


class Command(BaseCommand):
    help = "Create or update a user in a team; optionally print a new API key for it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--team", required=True)
        parser.add_argument("--password")
        parser.add_argument("--api-key", metavar="NAME", help="create a key with this name")
        parser.add_argument("--scope", choices=["read", "write"], default="write")

    def handle(self, *args: Any, **options: Any) -> None:
        user = user_ensure(
            username=options["username"], password=options["password"], team=options["team"]
        )
        if options["api_key"]:
            _, key = api_key_create(user=user, name=options["api_key"], scope=options["scope"])
            self.stdout.write(key)
