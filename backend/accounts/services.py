"""Writes to accounts: users in teams, API keys."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from backend.accounts.keys import new_key
from backend.accounts.models import ApiKey, Team
from backend.core.errors import ApplicationError, NotFound


@transaction.atomic
def user_ensure(*, username: str, password: str | None, team: str) -> AbstractBaseUser:
    """The user, created if missing, a member of `team` (created if missing)."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if password is not None:
        user.set_password(password)
        user.save()
    elif created:
        user.set_unusable_password()
        user.save()
    team_obj, _ = Team.objects.get_or_create(name=team)
    team_obj.members.add(user)
    return user


def api_key_create(*, user: AbstractBaseUser, name: str, scope: str) -> tuple[ApiKey, str]:
    """A new key and its full text, which is never stored and cannot be shown again."""
    if scope not in ApiKey.Scope.values:
        raise ApplicationError(f"Unknown scope '{scope}': use 'read' or 'write'")
    key, prefix, secret_hash = new_key()
    api_key = ApiKey.objects.create(
        user=user, name=name, prefix=prefix, secret_hash=secret_hash, scope=scope
    )
    return api_key, key


def api_key_revoke(*, user: AbstractBaseUser, prefix: str) -> ApiKey:
    api_key = ApiKey.objects.filter(user=user, prefix=prefix, revoked_at=None).first()
    if api_key is None:
        raise NotFound(f"No live API key '{prefix}'")
    api_key.revoked_at = timezone.now()
    api_key.save(update_fields=["revoked_at"])
    return api_key
