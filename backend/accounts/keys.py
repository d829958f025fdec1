"""API key format: `weir_<prefix>_<secret>`. The prefix finds the key, the secret proves it.

Keys are random (256-bit secrets), so a plain SHA-256 is a sound hash at rest:
there is nothing to brute-force that a slow password hash would protect.
"""

import hashlib
import hmac
import secrets

KEY_PREFIX = "weir"


def new_key() -> tuple[str, str, str]:
    """(the full key to show once, its prefix, the hash of its secret)."""
    prefix = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    return f"{KEY_PREFIX}_{prefix}_{secret}", prefix, hash_secret(secret)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def split_key(key: str) -> tuple[str, str] | None:
    """(prefix, secret) of a well-formed key, else None."""
    parts = key.split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_PREFIX or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


def secret_matches(secret: str, secret_hash: str) -> bool:
    return hmac.compare_digest(hash_secret(secret), secret_hash)
