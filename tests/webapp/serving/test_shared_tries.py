"""Wrong instructor passwords and wrong recovery codes are counted by the serving wing, once for
all replicas: two wings built on one PostgreSQL server (two app processes behind one address)
refuse the try past the limit wherever it lands. Against a real server: TEST_DATABASE_URL, as
.ci/run sets it."""

from __future__ import annotations

import pytest
from pg_support import fresh_schema

from webapp.serving.settings import ServingSettings
from webapp.serving.wing import Serving


@pytest.fixture
def pg_url():
    with fresh_schema("tries_test") as url:
        yield url


def wrong() -> bool:
    return False


def test_two_replicas_share_one_count_of_wrong_recovery_codes_and_passwords(pg_url):
    s = ServingSettings(password_tries_per_address=3)
    a, b = Serving.build(s, pg_url), Serving.build(s, pg_url)
    try:
        # Ten wrong codes on replica A, the eleventh on B: refused with a wait, never verified.
        assert all(not a.recovery_tries.attempt("recovery:203.0.113.9", wrong)[0]
                   for _ in range(10))
        verified = []
        ok, wait = b.recovery_tries.attempt("recovery:203.0.113.9",
                                            lambda: verified.append(1) or True)
        assert not ok and wait > 0 and not verified
        # Another address is not touched.
        assert b.recovery_tries.attempt("recovery:198.51.100.7", lambda: True) == (True, 0.0)
        # The password: three wrong on B, the fourth (right) on A still waits.
        for _ in range(3):
            assert not b.password_tries.attempt("203.0.113.9", wrong)[0]
        ok, wait = a.password_tries.attempt("203.0.113.9", lambda: True)
        assert not ok and wait > 0
    finally:
        for wing in (a, b):
            for limiter in (wing.password_tries, wing.recovery_tries):
                limiter.close()
