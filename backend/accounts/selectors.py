"""Reads of users' teams and keys."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils import timezone

from backend.accounts.keys import secret_matches, split_key
from backend.accounts.models import ApiKey, Team


def user_teams(*, user: AbstractBaseUser) -> QuerySet[Team]:
    return Team.objects.filter(members=user).order_by("name")


def api_key_verify(*, key: str) -> ApiKey | None:
    """The live key matching `key` (and note that it was used), else None."""
    parts = split_key(key)
    if parts is None:
        return None
    prefix, secret = parts
    api_key = ApiKey.objects.select_related("user").filter(prefix=prefix, revoked_at=None).first()
    if api_key is None or not secret_matches(secret, api_key.secret_hash):
        return None
    if not api_key.user.is_active:
        return None
    ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=timezone.now())
    return api_key


def api_keys_of(*, user: AbstractBaseUser) -> QuerySet[ApiKey]:
    return ApiKey.objects.filter(user=user).order_by("-created_at")
