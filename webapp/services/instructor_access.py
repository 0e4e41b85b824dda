"""Who may open the instructor view: a Hugging Face username on LAB_INSTRUCTORS, or the shared
LAB_INSTRUCTOR_PASSWORD (compared in constant time, refused when too short), and the keyed
hashes that remember a client that logged in before (no gradio)."""

from __future__ import annotations

import hashlib
import hmac

from gradebook import identity as ids
from webapp.settings import WebSettings

PASSWORD_ENV = WebSettings.variables()["instructor_password"].name  # LAB_INSTRUCTOR_PASSWORD
INSTRUCTORS_ENV = WebSettings.variables()["instructors"].name  # LAB_INSTRUCTORS
MIN_PASSWORD_CHARS = 12  # with 5 tries per address per 10 minutes, guessing must be hopeless
TRUST_DAYS = WebSettings.read("instructor_trust_days")


def _password() -> str:
    """LAB_INSTRUCTOR_PASSWORD now (read at each use: changing it logs every instructor out)."""
    return WebSettings.read("instructor_password")


def password_set() -> bool:
    """Whether LAB_INSTRUCTOR_PASSWORD is set at all (strong or not)."""
    return bool(_password())


def password_weak() -> str | None:
    """Why LAB_INSTRUCTOR_PASSWORD is too weak to open the instructor view, or None."""
    expected = _password()
    if expected and len(expected) < MIN_PASSWORD_CHARS:
        return (f"{PASSWORD_ENV} has {len(expected)} characters; use at least "
                f"{MIN_PASSWORD_CHARS} (for example four random words), or unset it to run "
                "without an instructor password")
    return None


def trust_hashes(address: str | None, browser_key: str | None) -> dict[str, str]:
    """Keyed hashes naming a client that may log in as instructor: its address and, when it
    sent a valid one, its browser key. Keyed by the password, so the stored hashes reveal no
    address, and a new password forgets every earlier login."""
    secret = hashlib.sha256(_password().encode("utf-8", "replace")).digest()
    out = {}
    if address:
        out["address"] = hmac.new(secret, f"address\x00{address}".encode("utf-8", "replace"),
                                  hashlib.sha256).hexdigest()
    if ids.valid_browser_key(browser_key):
        out["browser"] = hmac.new(secret, f"browser\x00{browser_key}".encode(),
                                  hashlib.sha256).hexdigest()
    return out


def password_ok(typed: str | None) -> bool:
    """Constant-time comparison with LAB_INSTRUCTOR_PASSWORD; always False when it is unset."""
    expected = _password()
    if not expected or password_weak() or not isinstance(typed, str):
        return False
    return hmac.compare_digest(typed.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def instructors() -> frozenset[str]:
    """LAB_INSTRUCTORS as case-folded HF usernames (HF treats usernames case-insensitively)."""
    raw = WebSettings.read("instructors").replace(",", " ")
    return frozenset(name.strip().casefold() for name in raw.split() if name.strip())


def is_instructor(username: str | None) -> bool:
    """Whether a *verified* HF username is on LAB_INSTRUCTORS."""
    return bool(username) and str(username).casefold() in instructors()
