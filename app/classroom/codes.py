"""Class codes and teacher keys.

A code is 10 characters from an alphabet without the letters and digits that read alike on a
projected slide (0/o, 1/l/i): 31 ** 10 ≈ 2 ** 49.5 codes, so a guesser throttled to one miss a
second (app/routes/classes.py) would need thousands of years to find one of a thousand classes.
A teacher key is 32 random bytes (``secrets.token_urlsafe``); only its SHA-256 is stored, and it
is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 10
_LETTERS = frozenset(ALPHABET)


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str | None:
    """``text`` as a code (capitals read as small letters, as from a slide), or None when it
    cannot be one: then no store is asked."""
    code = text.lower()
    return code if len(code) == CODE_LENGTH and set(code) <= _LETTERS else None


def new_key() -> str:
    return secrets.token_urlsafe(32)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_matches(given: str | None, stored_hash: str) -> bool:
    """Whether ``given`` is the key whose hash is stored, compared in constant time."""
    return given is not None and hmac.compare_digest(key_hash(given), stored_hash)
