"""webapp.serving.settings: every serving setting read once from the environment, with the
documented defaults, one variable per field, and a bad value named in the error."""

from __future__ import annotations

import dataclasses

import pytest

from webapp.serving.settings import ServingSettings

# Each field, its variable and a value unlike its default (ints for counts, floats for seconds).
VARIABLES = [
    ("grading_slots", "LAB_GRADER_WORKERS", "5", 5),
    ("per_address_waiting", "LAB_PER_ADDRESS", "7", 7),
    ("per_learner_waiting", "LAB_PER_LEARNER", "4", 4),
    ("max_waiting", "LAB_MAX_WAITING", "99", 99),
    ("rate_limit", "LAB_RATE_LIMIT", "3", 3),
    ("address_rate_limit", "LAB_ADDRESS_RATE_LIMIT", "42", 42),
    ("rate_window_s", "LAB_RATE_WINDOW_S", "2.5", 2.5),
    ("new_learners_per_address", "LAB_NEW_LEARNERS", "11", 11),
    ("new_learners_window_s", "LAB_NEW_LEARNERS_WINDOW_S", "30", 30.0),
    ("train_slots", "LAB_TRAIN_SLOTS", "2", 2),
    ("train_per_address", "LAB_TRAIN_PER_ADDRESS", "9", 9),
    ("train_max_waiting", "LAB_TRAIN_MAX_WAITING", "40", 40),
    ("max_body_bytes", "LAB_MAX_BODY_BYTES", "5000", 5000),
    ("max_other_body_bytes", "LAB_MAX_OTHER_BODY_BYTES", "3000", 3000),
    ("max_upload_bytes", "LAB_MAX_UPLOAD_BYTES", "2000000", 2_000_000),
    ("upload_bytes_per_address", "LAB_UPLOAD_BYTES_PER_ADDRESS", "9000000", 9_000_000),
    ("upload_window_s", "LAB_UPLOAD_WINDOW_S", "30", 30.0),
    ("upload_keep_s", "LAB_UPLOAD_KEEP_S", "120", 120.0),
    ("unread_keep_s", "LAB_UNREAD_KEEP_S", "5", 5.0),
    ("unread_per_session", "LAB_UNREAD_PER_SESSION", "2", 2),
    ("unread_max", "LAB_UNREAD_MAX", "10", 10),
    ("train_offer_s", "LAB_TRAIN_OFFER_S", "5", 5.0),
    ("forwarded_hops", "LAB_FORWARDED_HOPS", "2", 2),
    ("trusted_proxies", "LAB_TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1",
     ("10.0.0.0/8", "127.0.0.1/32")),
    ("queue_max", "LAB_QUEUE_MAX", "100", 100),
    ("queue_per_address", "LAB_QUEUE_PER_ADDRESS", "20", 20),
    ("queue_per_session", "LAB_QUEUE_PER_SESSION", "6", 6),
    ("session_ttl_s", "LAB_SESSION_TTL_S", "90", 90.0),
    ("max_kept_runs", "LAB_MAX_KEPT_RUNS", "3", 3),
    ("light_sessions", "LAB_LIGHT_SESSIONS", "0", False),
    ("malloc_arenas", "LAB_MALLOC_ARENAS", "0", 0),
    ("password_tries_per_address", "LAB_PASSWORD_TRIES_PER_ADDRESS", "2", 2),
    ("password_tries_per_hour", "LAB_PASSWORD_TRIES_PER_HOUR", "7", 7),
]


def test_an_empty_environment_gives_the_documented_defaults():
    s = ServingSettings.from_env({})
    assert s == ServingSettings()
    assert (s.grading_slots, s.per_address_waiting, s.per_learner_waiting, s.max_waiting) == \
        (2, 200, 3, 600)  # 600: the submit pool is sized from it (red team, issue 17)
    assert (s.rate_limit, s.address_rate_limit, s.rate_window_s) == (10, 600, 60.0)
    assert (s.new_learners_per_address, s.new_learners_window_s) == (300, 600.0)
    assert (s.train_slots, s.train_per_address, s.train_offer_s) == (1, 50, 20.0)
    assert s.train_max_waiting == 150
    assert s.pools() == {"play": 4, "measure": 1, "submit": 600 + 2 + 32, "train": 150 + 1 + 16}
    assert s.forwarded_hops == 0  # no trusted proxy off a Space
    assert (s.queue_max, s.queue_per_address, s.queue_per_session) == (4096, 512, 16)
    assert (s.session_ttl_s, s.max_kept_runs, s.light_sessions, s.malloc_arenas) == \
        (1800.0, 8, True, 2)
    assert (s.password_tries_per_address, s.password_tries_per_hour) == (5, 20)
    assert (s.max_body_bytes, s.max_other_body_bytes, s.max_upload_bytes) == \
        (12_000_000, 1_000_000, 6_000_000)  # an exercise file is at most 5 MB
    assert (s.upload_bytes_per_address, s.upload_window_s, s.upload_keep_s) == \
        (200_000_000, 600.0, 600.0)
    assert (s.unread_keep_s, s.unread_per_session, s.unread_max) == (60.0, 8, 64)
    # Unset and blank are the same thing.
    assert ServingSettings.from_env({name: "  " for _, name, _, _ in VARIABLES}) == s


def test_every_field_is_read_from_its_variable_alone():
    """Each variable sets its own field and nothing else (one reading, one parser)."""
    d = ServingSettings()
    assert {f.name for f in dataclasses.fields(d)} == {f for f, _, _, _ in VARIABLES}
    for field, name, raw, value in VARIABLES:
        s = ServingSettings.from_env({name: raw})
        assert getattr(s, field) == value and type(getattr(s, field)) is type(value), name
        assert dataclasses.replace(s, **{field: getattr(d, field)}) == d, name


def test_all_variables_together():
    s = ServingSettings.from_env({name: raw for _, name, raw, _ in VARIABLES})
    assert all(getattr(s, field) == value for field, _, _, value in VARIABLES)


def test_the_environment_of_the_process_is_the_default(monkeypatch):
    for _, name, _, _ in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("SPACE_ID", raising=False)
    monkeypatch.setenv("LAB_RATE_LIMIT", "3")
    monkeypatch.setenv("LAB_GRADER_WORKERS", "2")
    s = ServingSettings.from_env()
    assert (s.rate_limit, s.rate_window_s, s.grading_slots) == (3, 60.0, 2)
    # Policy change: LAB_GRADING_SLOTS no longer overrides; the grader's worker count is the one count.
    monkeypatch.setenv("LAB_GRADING_SLOTS", "4")
    assert ServingSettings.from_env().grading_slots == 2


def test_a_space_trusts_one_proxy_hop_unless_told_otherwise():
    assert ServingSettings.from_env({"SPACE_ID": "course/lab"}).forwarded_hops == 1
    assert ServingSettings.from_env({"SPACE_ID": "course/lab",
                                     "LAB_FORWARDED_HOPS": "0"}).forwarded_hops == 0
    assert ServingSettings.from_env({"SPACE_ID": "course/lab",
                                     "LAB_FORWARDED_HOPS": "2"}).forwarded_hops == 2
    assert ServingSettings.from_env({"SPACE_ID": ""}).forwarded_hops == 0


@pytest.mark.parametrize(("name", "raw"), [
    ("LAB_RATE_WINDOW_S", "soon"), ("LAB_RATE_WINDOW_S", "0"), ("LAB_RATE_WINDOW_S", "-1"),
    ("LAB_RATE_WINDOW_S", "nan"), ("LAB_RATE_WINDOW_S", "inf"), ("LAB_TRAIN_OFFER_S", "x"),
    ("LAB_NEW_LEARNERS_WINDOW_S", "0"),
    ("LAB_RATE_LIMIT", "2.5"), ("LAB_RATE_LIMIT", "0"), ("LAB_RATE_LIMIT", "ten"),
    ("LAB_PER_ADDRESS", "-3"), ("LAB_PER_LEARNER", "0"), ("LAB_MAX_WAITING", "many"),
    ("LAB_ADDRESS_RATE_LIMIT", "1e3"), ("LAB_NEW_LEARNERS", "0"), ("LAB_TRAIN_SLOTS", "0"),
    ("LAB_TRAIN_PER_ADDRESS", "0"), ("LAB_FORWARDED_HOPS", "-1"), ("LAB_FORWARDED_HOPS", "one"),
    ("LAB_QUEUE_MAX", "0"), ("LAB_QUEUE_PER_ADDRESS", "x"), ("LAB_QUEUE_PER_SESSION", "0"),
    ("LAB_GRADER_WORKERS", "0"), ("LAB_GRADER_WORKERS", "two"),
    ("LAB_SESSION_TTL_S", "0"), ("LAB_MAX_KEPT_RUNS", "0"), ("LAB_LIGHT_SESSIONS", "maybe"),
    ("LAB_MALLOC_ARENAS", "-1"), ("LAB_MALLOC_ARENAS", "two"),
    ("LAB_PASSWORD_TRIES_PER_ADDRESS", "0"), ("LAB_PASSWORD_TRIES_PER_HOUR", "lots"),
])
def test_a_bad_value_raises_naming_its_variable(name, raw):
    with pytest.raises(ValueError, match=name) as err:
        ServingSettings.from_env({name: raw})
    assert repr(raw) in str(err.value)  # and says what it got


@pytest.mark.parametrize("bad", [dict(grading_slots=0), dict(rate_window_s=0.0),
                                 dict(max_waiting=-1), dict(rate_limit=True),
                                 dict(train_offer_s=float("nan")), dict(forwarded_hops=-1),
                                 dict(forwarded_hops=1.5), dict(light_sessions=1),
                                 dict(malloc_arenas=-1), dict(malloc_arenas=True),
                                 dict(max_kept_runs=0)])
def test_settings_built_in_code_are_checked_too(bad):
    (field,) = bad
    with pytest.raises(ValueError, match=field):
        ServingSettings(**bad)
    assert ServingSettings(forwarded_hops=0).forwarded_hops == 0  # no proxy is a valid count
    assert ServingSettings(malloc_arenas=0).malloc_arenas == 0  # glibc's own default


def test_settings_are_frozen():
    s = ServingSettings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.rate_limit = 1  # type: ignore[misc]


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("on", True), ("Yes", True),
                                            ("true", True), ("0", False), ("off", False),
                                            ("NO", False), ("false", False)])
def test_light_sessions_takes_the_usual_on_off_words(raw, value):
    assert ServingSettings.from_env({"LAB_LIGHT_SESSIONS": raw}).light_sessions is value


def test_the_app_hands_its_settings_to_per_session_memory(monkeypatch):
    """The settings reach the objects built from them (no module reads the variables again)."""
    from webapp.serving.wing import Serving
    from webapp.train.sessions import TrainSessions

    s = ServingSettings(session_ttl_s=90.0, max_kept_runs=3, password_tries_per_address=2)
    store = TrainSessions(ttl_s=s.session_ttl_s, max_kept_runs=s.max_kept_runs)
    assert (store.ttl_s, store.max_kept_runs) == (90.0, 3)
    assert TrainSessions().ttl_s == ServingSettings().session_ttl_s
    wing = Serving.local(s)
    assert wing.password_tries.per_client == 2 and wing.password_tries.overall == 20
    assert wing.recovery_tries.per_client == 10 and wing.recovery_tries.overall is None
    # The variables are not read again once the settings exist.
    monkeypatch.setenv("LAB_SESSION_TTL_S", "5")
    monkeypatch.setenv("LAB_MAX_KEPT_RUNS", "1")
    assert Serving.local(s).settings.session_ttl_s == 90.0
