"""Who may act as the instructor: Hugging Face sign-in on LAB_INSTRUCTORS, or the shared password
with its per-address and overall try limits (see instructor.py's docstring for the policy). Every
instructor action (the page's views and exports, comments, scores, regrades) checks it here."""

from __future__ import annotations

import logging

import gradio as gr

from webapp.lab import Lab
from webapp.pages import sign_in
from webapp.pages.common import tr
from webapp.services import instructor_access, key_stamps
from webapp.serving.ratelimit import FailureLimiter, locked_message
from webapp.views import gradebook_lang

log = logging.getLogger("transformer_lab.app")


def tries(lab: Lab) -> FailureLimiter:
    """The wrong-password limiter (the serving wing's: per address, shared by the replicas)."""
    return lab.serving.password_tries


def mode() -> str:
    """'allow_list' (Space sign-in + LAB_INSTRUCTORS), 'password', or 'disabled' (no password,
    or one shorter than instructor_access.MIN_PASSWORD_CHARS)."""
    if instructor_access.instructors() and sign_in.oauth_available():
        return "allow_list"
    if instructor_access.password_set() and not instructor_access.password_weak():
        return "password"
    return "disabled"


def check_password() -> None:
    """Refuse to start with a weak LAB_INSTRUCTOR_PASSWORD (RuntimeError, logged), unless Space
    sign-in with LAB_INSTRUCTORS opens the view, in which case the password is ignored (warned)."""
    weak = instructor_access.password_weak()
    if not weak:
        return
    if instructor_access.instructors() and sign_in.oauth_available():
        log.warning("ignoring the instructor password (Space sign-in opens the view): %s", weak)
        return
    log.error("refusing to start: %s", weak)
    raise RuntimeError(f"refusing to start: {weak}. The app starts once it is changed.")


def _refuse(key: str, lang: str, **fields: object) -> str:
    return "⚠️ " + tr(key, lang, **fields)


def authorize(lab: Lab, password: str | None, profile: gr.OAuthProfile | None, address: str,
              lang: str = "en", browser_key: str | None = None,
              remember: bool = True) -> tuple[str | None, str]:
    """(who, "") for an instructor, else (None, the refusal to show). Checked refusals are logged.
    ``remember=False`` (the class view's redraws, every 30 s): a success does not write the
    client's trust again; the sign-in that opened the view just did.

    ``browser_key``: the browser's own key (sign_in.py); a browser that logged in before is
    counted by that key, not by an address it may share with a classroom."""
    how = mode()
    book = lab.submitter.book
    if how == "disabled":
        return None, _refuse("instructor.off", lang)
    if how == "allow_list":
        user = sign_in.username(profile)
        if user is None:
            return None, _refuse("instructor.sign_in", lang)
        if not instructor_access.is_instructor(user):
            book.log_access(f"hf:{user}", "refused", "not on LAB_INSTRUCTORS")
            return None, _refuse("instructor.not_listed", lang, user=user)
        return f"hf:{user}", ""
    hashes = instructor_access.trust_hashes(address, browser_key)
    days = instructor_access.TRUST_DAYS
    known = {kind for kind, h in hashes.items() if book.trusted_client(h, days)}
    # A browser's wrong tries are its own: a classmate guessing from the school's one address
    # locked the teacher's new browser out for 10 minutes (red team, issue 29, item 4). A client
    # with no browser key (a script) is counted by its address, as it can mint sessions freely.
    browser = "browser" in hashes
    client = f"browser {hashes['browser'][:24]}" if browser else address
    # A client is trusted by its own login: a browser by its key, a script by its address. An
    # address's trust covered every browser behind it, so a student at the school where the
    # teacher once logged in sprayed at ~40 compares a second (fourth red team).
    trusted = "browser" in known if browser else "address" in known
    ok, wait = tries(lab).attempt(client, lambda: instructor_access.password_ok(password),
                               trusted=trusted, over_cap_gate=_spray_gate(lab, browser_key, address)
                               if browser else None)
    if ok:
        for h in hashes.values() if remember else ():
            book.trust_client(h)
        return gradebook_lang.access_text("gb.who.password", address), ""
    if wait > 0:  # locked out: the password was not even compared, and nothing is logged
        return None, "⚠️ " + locked_message(wait)["zh" if lang == "zh" else "en"]
    book.log_access(gradebook_lang.access_text("gb.who.password", address), "refused", "wrong password")
    return None, _refuse("instructor.wrong", lang)


def _spray_gate(lab: Lab, browser_key: str | None, address: str):
    """What an untrusted browser's try must also pass once the global cap is reached: a key
    costs nothing to mint, so one per guess made each guess a fresh client (third red team:
    ~100 compares a second). Keys this server did not stamp an hour or more earlier share one
    small rate (a browser that never guessed wrong is still compared when it has room); keys
    stamped before that share a small allowance per address (a stock of aged keys grew by 300
    an hour: fourth red team). webapp.services.key_stamps."""
    serving = lab.serving
    if key_stamps.aged(lab.submitter.book, browser_key):
        return lambda: serving.aged_key_tries.check(f"aged:{address}")
    return lambda: serving.fresh_key_tries.check("fresh keys")
