import pytest

from backend.accounts.keys import split_key
from backend.accounts.models import ApiKey
from backend.accounts.selectors import api_key_verify
from backend.accounts.services import api_key_create, api_key_revoke, user_ensure


@pytest.mark.django_db
def test_a_key_is_stored_only_as_a_hash_and_verifies_until_revoked() -> None:
    user = user_ensure(username="ci", password=None, team="builders")
    api_key, key = api_key_create(user=user, name="deploys", scope="write")
    prefix, secret = split_key(key) or ("", "")
    stored = ApiKey.objects.get(pk=api_key.pk)
    assert stored.prefix == prefix
    assert secret not in stored.secret_hash and len(stored.secret_hash) == 64
    assert api_key_verify(key=key) == stored
    assert api_key_verify(key=f"weir_{prefix}_{secret}x") is None
    assert api_key_verify(key="not-a-key") is None
    api_key_revoke(user=user, prefix=prefix)
    assert api_key_verify(key=key) is None


@pytest.mark.django_db
def test_an_inactive_users_keys_stop_working() -> None:
    user = user_ensure(username="gone", password=None, team="builders")
    _, key = api_key_create(user=user, name="old", scope="read")
    user.is_active = False
    user.save()
    assert api_key_verify(key=key) is None
