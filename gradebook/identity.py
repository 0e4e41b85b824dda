"""Who a submission belongs to: opaque learner ids, browser keys, recovery codes, name folding.

Plain Python (no gradio). The rules:

- A **guest** is a browser. It keeps a random key (256 bits) in localStorage; the gradebook
  stores only ``sha256(key)``. The guest's learner id is derived from the key (``g:`` + 20
  hex digits) unless the key was linked to another id with a recovery code. A typed name is
  only a label (``"alice (guest)"``): two guests called alice have two ids.
- A **signed-in** learner's id is ``hf:<username>``, the username verified by Hugging Face.
- A name passed to the **API** is a label only (``"alice (api)"``, id ``api:<hash of the
  folded label>``): it groups that script's rows and never opens anybody's history.
- A **recovery code** (100 bits, shown once to its owner) is stored as ``sha256(code)``.

Guest and API labels always carry their suffix, which no Hugging Face username can (no spaces
or parentheses), and may not fold to the name of a signed-in learner (see :func:`fold`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass

from gradebook import lookalikes
from gradebook.input_checks import ANONYMOUS, clean_learner
from grader.words import say
from transformer_lab.message import Refused

GUEST_SUFFIX = " (guest)"
API_SUFFIX = " (api)"
KEY_BYTES = 32  # a browser key: 256 random bits, 43 URL-safe base64 characters
_KEY_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")
# Crockford's base32: no I, L, O, U, so a code read aloud or retyped is hard to get wrong.
_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_CHARS = 20  # 100 bits: guessing one of a class's codes online is hopeless
_CODE_TYPOS = str.maketrans({"O": "0", "I": "1", "L": "1", "U": "V"})
# ASCII characters that pass for letters, for fold(). Look-alikes outside ASCII come from
# Unicode's confusables data (lookalikes.py), not from a hand-made list.
_ASCII_LOOKALIKES = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "3": "e", "5": "s",
                                   "$": "s"})
_HF_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@dataclass(frozen=True)
class Learner:
    """Who a submission is stored under: an opaque ``id`` and a display ``label``."""

    id: str
    label: str
    kind: str  # "guest", "member" (on the teacher's class list), "signed_in" or "api"

    @property
    def owns_history(self) -> bool:
        """Guests, members and signed-in learners see their history; an API label never does."""
        return self.kind in ("guest", "member", "signed_in")


@dataclass(frozen=True)
class Claim:
    """What a request says about its sender, before any check.

    ``username`` must come from a verified sign-in (Gradio's OAuthProfile), never from a
    text box; ``browser_key`` from the browser's own storage; ``typed`` is the label box.
    """

    typed: str | None = None
    browser_key: str | None = None
    username: str | None = None
    via_api: bool = False


def _digest(tag: str, text: str) -> str:
    return hashlib.sha256(f"transformer-lab {tag}\x00{text}".encode()).hexdigest()


def new_browser_key() -> str:
    """A fresh random browser key (kept only by the browser)."""
    return secrets.token_urlsafe(KEY_BYTES)


def valid_browser_key(key: object) -> bool:
    """Whether ``key`` has the shape of a key made by :func:`new_browser_key`."""
    return isinstance(key, str) and bool(_KEY_RE.match(key))


def key_hash(key: str) -> str:
    """What the gradebook stores for a browser key linked by a recovery code."""
    return _digest("browser key", key)


def guest_id(key: str) -> str:
    """The learner id a browser key has until a recovery code links it elsewhere."""
    return "g:" + _digest("guest id", key)[:20]


def signed_in_id(username: str) -> str:
    """The learner id of a verified Hugging Face username."""
    return "hf:" + username


def api_id(label: str) -> str:
    """The learner id of API submissions under one label (the same for every lookalike)."""
    return "api:" + _digest("api label", fold(label))[:16]


def new_recovery_code() -> str:
    """A fresh recovery code, e.g. ``7K3QX-M9P2D-...`` (four groups of five)."""
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_CHARS))
    return "-".join(raw[i:i + 5] for i in range(0, CODE_CHARS, 5))


def normalise_recovery_code(text: object) -> str | None:
    """The code's 20 characters (spaces, dashes and case ignored, O/I/L read as 0/1), or None."""
    if not isinstance(text, str) or len(text) > 100:
        return None
    raw = re.sub(r"[\s-]", "", text).upper().translate(_CODE_TYPOS)
    if len(raw) != CODE_CHARS or any(ch not in _CODE_ALPHABET for ch in raw):
        return None
    return raw


def recovery_hash(code: str) -> str:
    """What the gradebook stores for a recovery code (the code itself is never stored)."""
    raw = normalise_recovery_code(code)
    if raw is None:
        raise ValueError("not a recovery code")
    return _digest("recovery code", raw)


def fold(name: str) -> str:
    """A skeleton for comparing names: case, accents, width, look-alike letters (Unicode's
    confusables, see lookalikes.py), separators and a trailing "(guest)"/"(api)" ignored.
    ``fold("Ａdа_1 (guest)") == fold("adal") == fold("ɑdɑl")``."""
    text = unicodedata.normalize("NFKC", name or "").strip()
    for suffix in (GUEST_SUFFIX, API_SUFFIX):
        while text.lower().endswith(suffix):
            text = text[: -len(suffix)].rstrip()
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = lookalikes.skeleton(text).translate(_ASCII_LOOKALIKES)
    return re.sub(r"[\s._\-'@()]+", "", text)


def legacy_signed_in(label: str) -> bool:
    """Whether a row stored before learner ids came from a signed-in learner: the app stored
    typed names with " (guest)" and signed-in users under their bare HF username."""
    return label != ANONYMOUS and bool(_HF_NAME_RE.match(label))


def _imitation(base: str) -> Refused:
    return Refused("bad_name", **say("name.imitation", base=base))


def label_for(typed: str | None, suffix: str, signed_in_folds: frozenset[str] = frozenset()) -> str:
    """A guest or API label: the cleaned name plus ``suffix``; Refused for an odd
    name, one over the length cap, one that folds to a signed-in learner's name, or one with a
    word mixing scripts (UTS #39: Latin may only share a word with Han, kana, Bopomofo, Hangul)."""
    base = clean_learner(typed)
    if base.endswith(suffix):
        base = base[: -len(suffix)].rstrip() or ANONYMOUS
    if base == ANONYMOUS:  # no name: the shared label, told apart by the id
        return ANONYMOUS
    if fold(base) in signed_in_folds:
        raise _imitation(base)
    mixed = lookalikes.mixed_script_word(base)
    if mixed is not None:  # "aլice": Latin and Armenian in one word imitates somebody
        raise Refused("bad_name", **say("name.mixed_script", word=mixed))
    return clean_learner(base + suffix)  # re-checked: the suffix must fit the length cap


def resolve(claim: Claim, linked_id: str | None = None,
            signed_in_folds: frozenset[str] = frozenset(), member: str | None = None) -> Learner:
    """The Learner a claim stands for. ``linked_id``: the id the gradebook links this
    browser key to (after a recovery code or a class link), if any; ``member``: that id's name
    on the teacher's class list (gradebook.roster), which is then its label whatever is
    typed. Raises Refused."""
    if claim.username:
        name = str(claim.username)
        return Learner(id=signed_in_id(name), label=name, kind="signed_in")
    if claim.via_api:
        label = label_for(claim.typed, API_SUFFIX, signed_in_folds)
        return Learner(id=api_id(label), label=label, kind="api")
    if not valid_browser_key(claim.browser_key):
        raise Refused("no_identity", **say("name.no_browser_key"))
    if linked_id and member:
        return Learner(id=linked_id, label=member, kind="member")
    label = label_for(claim.typed, GUEST_SUFFIX, signed_in_folds)
    return Learner(id=linked_id or guest_id(str(claim.browser_key)), label=label, kind="guest")
