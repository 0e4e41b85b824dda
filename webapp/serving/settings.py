"""Every setting of the serving wing, read once from the environment into one frozen object.

Why one object: the same numbers (grader workers, waiting bounds, rate limits) used to be read
in several modules with different defaults. Here each ``LAB_*`` variable is parsed once, with
one parser that says what is wrong with a bad value; constructors receive the object (or its
fields), so a test builds ``ServingSettings(...)`` instead of patching module globals.

The defaults are sized for a class: a lecture hall of 200 behind one school address waits in
line (``per_address_waiting``), and only a real flood is refused.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields


def env_number(name: str, default: float, cast: type = float, *, minimum: float = 1e-9,
               env: Mapping[str, str] | None = None) -> float:
    """``$name`` as a number (``cast``), ``default`` when unset; ValueError naming the variable
    when it is not a finite number of at least ``minimum``."""
    raw = (os.environ if env is None else env).get(name, "").strip()
    if not raw:
        return default
    try:
        value = cast(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if not math.isfinite(value) or value < minimum:
        raise ValueError(f"{name} must be a number >= {minimum:g}, got {raw!r}")
    return value


FLAG_WORDS = {"1": True, "on": True, "yes": True, "true": True,
              "0": False, "off": False, "no": False, "false": False}


def env_flag(name: str, default: bool, *, env: Mapping[str, str] | None = None) -> bool:
    """``$name`` as on/off (1/0, on/off, yes/no, true/false), ``default`` when unset; ValueError
    naming the variable for any other word."""
    raw = (os.environ if env is None else env).get(name, "").strip()
    if not raw:
        return default
    if raw.lower() not in FLAG_WORDS:
        raise ValueError(f"{name} must be 1 or 0 (on/off), got {raw!r}")
    return FLAG_WORDS[raw.lower()]


@dataclass(frozen=True)
class ServingSettings:
    """How many people share the machine and how far each may go. The comment after each field
    names its environment variable; :meth:`from_env` reads them all."""

    grading_slots: int = 2  # LAB_GRADER_WORKERS: gradings at once (the grader's warm workers)
    per_address_waiting: int = 200  # LAB_PER_ADDRESS: submissions one address may have in line
    per_learner_waiting: int = 3  # LAB_PER_LEARNER: one learner's clicks in line (one grades)
    # Each submission in line holds a thread of Gradio's "submit" pool, which app.py sizes from
    # this: the line refuses before the pool fills (red team: two addresses of 200 filled a
    # 256-wide pool and a stranger waited in Gradio's own queue behind them).
    max_waiting: int = 600  # LAB_MAX_WAITING: submissions in line from everyone together
    rate_limit: int = 10  # LAB_RATE_LIMIT: accepted submissions per learner per window
    address_rate_limit: int = 600  # LAB_ADDRESS_RATE_LIMIT: per address per window (a flood)
    rate_window_s: float = 60.0  # LAB_RATE_WINDOW_S
    new_learners_per_address: int = 300  # LAB_NEW_LEARNERS: new learner keys per address ...
    new_learners_window_s: float = 600.0  # LAB_NEW_LEARNERS_WINDOW_S: ... in this window
    train_slots: int = 1  # LAB_TRAIN_SLOTS: runs that train at once
    train_per_address: int = 50  # LAB_TRAIN_PER_ADDRESS: runs one address may have in line
    train_max_waiting: int = 150  # LAB_TRAIN_MAX_WAITING: runs in line in all (sizes the pool)
    train_offer_s: float = 20.0  # LAB_TRAIN_OFFER_S: past this wait, offer a cached shorter run
    forwarded_hops: int = 0  # LAB_FORWARDED_HOPS: trusted proxies (1 on a Space by default)
    # LAB_TRUSTED_PROXIES: the proxies' own addresses or networks ("10.0.0.0/8, 127.0.0.1"); with
    # hops > 0 the header is read only from these peers (empty: from any peer, as on a Space)
    trusted_proxies: tuple[str, ...] = ()
    queue_max: int = 4096  # LAB_QUEUE_MAX: Gradio's queue, every page's events together
    queue_per_address: int = 512  # LAB_QUEUE_PER_ADDRESS: of which one address may hold
    queue_per_session: int = 16  # LAB_QUEUE_PER_SESSION: of which one tab may hold
    # Above what a legitimate call may carry (a 5 MB notebook, JSON-escaped), so such a call still
    # gets the gradebook's clear "too large" message; only floods meet the 413.
    max_body_bytes: int = 12_000_000  # LAB_MAX_BODY_BYTES: an event call's request body
    # Every other route's body (webapp.serving.body_limit; red team, issue 29, item 9): Gradio's
    # other POST routes (/component_server, /cancel, ...) carry small JSON in this app.
    max_other_body_bytes: int = 1_000_000  # LAB_MAX_OTHER_BODY_BYTES
    # Uploads: an exercise file is at most 5 MB (the gradebook's check, with its clear message),
    # so a file a little past it still reaches that check; one address may send this many bytes
    # in a window, and Gradio deletes its copies this long after they arrived (delete_cache).
    max_upload_bytes: int = 6_000_000  # LAB_MAX_UPLOAD_BYTES: one uploaded file (and request)
    upload_bytes_per_address: int = 200_000_000  # LAB_UPLOAD_BYTES_PER_ADDRESS: ... per window
    upload_window_s: float = 600.0  # LAB_UPLOAD_WINDOW_S
    upload_keep_s: float = 600.0  # LAB_UPLOAD_KEEP_S: uploaded files are deleted after this
    # Finished events whose results nobody reads (gradio_patch, patch 4; issue 29, item 8): kept
    # this long, at most so many per page session and in all, oldest dropped first.
    unread_keep_s: float = 60.0  # LAB_UNREAD_KEEP_S
    unread_per_session: int = 8  # LAB_UNREAD_PER_SESSION
    unread_max: int = 64  # LAB_UNREAD_MAX: every session's unread results together
    # Per-session memory (webapp.train.sessions): a browser session's trained model and
    # kept runs live this long after their last change; closing the tab frees them at once.
    session_ttl_s: float = 1800.0  # LAB_SESSION_TTL_S
    max_kept_runs: int = 8  # LAB_MAX_KEPT_RUNS: runs one session keeps to compare (oldest go)
    light_sessions: bool = True  # LAB_LIGHT_SESSIONS: 0 keeps Gradio's per-session config copy
    malloc_arenas: int = 2  # LAB_MALLOC_ARENAS: glibc malloc arenas (0: glibc's own default)
    # Wrong instructor passwords: per address in 10 minutes (a lock for that address), and from
    # every client together in an hour (a throttle, never a lock-out)
    password_tries_per_address: int = 5  # LAB_PASSWORD_TRIES_PER_ADDRESS
    password_tries_per_hour: int = 20  # LAB_PASSWORD_TRIES_PER_HOUR

    def pools(self) -> dict[str, int]:
        """Gradio's queue pools: "submit" and "train" hold one thread per event waiting in the
        serving lines, so each is the line's whole bound plus the turns running and a reserve
        for refusals; "play" and "measure" are narrow (fair by address: gradio_patch)."""
        return {"play": 4, "measure": 1,
                "submit": self.max_waiting + self.grading_slots + 32,
                "train": self.train_max_waiting + self.train_slots + 16}

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "light_sessions":
                ok = isinstance(value, bool)
            elif f.name == "trusted_proxies":
                ok = isinstance(value, tuple) and all(isinstance(v, str) for v in value)
            elif f.name in ("forwarded_hops", "malloc_arenas"):  # 0 is a valid count here
                ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            else:
                ok = isinstance(value, (int, float)) and math.isfinite(value) and value > 0
            if not ok or (isinstance(value, bool) and f.name != "light_sessions"):
                raise ValueError(f"{f.name} must be a positive number, got {value!r}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServingSettings:
        """The settings a deployment chose (``env`` defaults to ``os.environ``)."""
        from grader.api import grader_workers
        from webapp.serving.who import parse_proxies

        e = os.environ if env is None else env
        d = cls()

        def num(name: str, default: float, cast: type = int, minimum: float = 1) -> float:
            return env_number(name, default, cast, minimum=minimum, env=e)

        hops_default = 1 if e.get("SPACE_ID") else 0
        return cls(
            grading_slots=grader_workers(e),  # the grader's own reading: one count
            per_address_waiting=num("LAB_PER_ADDRESS", d.per_address_waiting),
            per_learner_waiting=num("LAB_PER_LEARNER", d.per_learner_waiting),
            max_waiting=num("LAB_MAX_WAITING", d.max_waiting),
            rate_limit=num("LAB_RATE_LIMIT", d.rate_limit),
            address_rate_limit=num("LAB_ADDRESS_RATE_LIMIT", d.address_rate_limit),
            rate_window_s=num("LAB_RATE_WINDOW_S", d.rate_window_s, float, 1e-9),
            new_learners_per_address=num("LAB_NEW_LEARNERS", d.new_learners_per_address),
            new_learners_window_s=num("LAB_NEW_LEARNERS_WINDOW_S", d.new_learners_window_s,
                                      float, 1e-9),
            train_slots=num("LAB_TRAIN_SLOTS", d.train_slots),
            train_per_address=num("LAB_TRAIN_PER_ADDRESS", d.train_per_address),
            train_max_waiting=num("LAB_TRAIN_MAX_WAITING", d.train_max_waiting),
            train_offer_s=num("LAB_TRAIN_OFFER_S", d.train_offer_s, float, 1e-9),
            forwarded_hops=num("LAB_FORWARDED_HOPS", hops_default, int, 0),
            trusted_proxies=parse_proxies(e.get("LAB_TRUSTED_PROXIES", "")),
            queue_max=num("LAB_QUEUE_MAX", d.queue_max),
            queue_per_address=num("LAB_QUEUE_PER_ADDRESS", d.queue_per_address),
            queue_per_session=num("LAB_QUEUE_PER_SESSION", d.queue_per_session),
            max_body_bytes=num("LAB_MAX_BODY_BYTES", d.max_body_bytes),
            max_other_body_bytes=num("LAB_MAX_OTHER_BODY_BYTES", d.max_other_body_bytes),
            max_upload_bytes=num("LAB_MAX_UPLOAD_BYTES", d.max_upload_bytes),
            upload_bytes_per_address=num("LAB_UPLOAD_BYTES_PER_ADDRESS",
                                         d.upload_bytes_per_address),
            upload_window_s=num("LAB_UPLOAD_WINDOW_S", d.upload_window_s, float, 1e-9),
            upload_keep_s=num("LAB_UPLOAD_KEEP_S", d.upload_keep_s, float, 1),
            unread_keep_s=num("LAB_UNREAD_KEEP_S", d.unread_keep_s, float, 1e-9),
            unread_per_session=num("LAB_UNREAD_PER_SESSION", d.unread_per_session),
            unread_max=num("LAB_UNREAD_MAX", d.unread_max),
            session_ttl_s=num("LAB_SESSION_TTL_S", d.session_ttl_s, float, 1e-9),
            max_kept_runs=num("LAB_MAX_KEPT_RUNS", d.max_kept_runs),
            light_sessions=env_flag("LAB_LIGHT_SESSIONS", d.light_sessions, env=e),
            malloc_arenas=num("LAB_MALLOC_ARENAS", d.malloc_arenas, int, 0),
            password_tries_per_address=num("LAB_PASSWORD_TRIES_PER_ADDRESS",
                                           d.password_tries_per_address),
            password_tries_per_hour=num("LAB_PASSWORD_TRIES_PER_HOUR", d.password_tries_per_hour),
        )
