"""The grader's trust boundary through the app's `grade` endpoint, as a learner reaches it: every
hostile submission scores 0, leaks nothing of another learner, costs the app little memory, and
leaves a gradebook row for the instructor."""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "grader"))
import test_boundary as attacks  # noqa: E402 - the same attacks the grader-level tests use

EX = attacks.EX.id


@pytest.fixture(scope="module")
def book(app_gradebook):
    """The running app's gradebook for this module (see conftest.app_gradebook)."""
    return app_gradebook


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _grade(client, code: str, learner: str) -> dict:
    return client.predict(EX, code, learner, api_name="/grade")


def _stored(book, out: dict):
    assert out["extra_data"]["stored"] is True, out
    row = book.get(out["extra_data"]["submission_id"])
    assert row is not None
    return row


def _own(code: str, label: str) -> str:
    """``code`` with the numbers the API learner ``label`` is graded on (grader/variants.py)."""
    import app
    from gradebook.identity import API_SUFFIX, api_id, label_for
    from grader import variants
    from grader.exercises import get

    key = app.LAB.submitter.numbers_key(api_id(label_for(label, API_SUFFIX)))  # signed by the app
    return variants.render(code, get(EX).variant_values(key))


def test_replay_finds_nothing_of_an_earlier_learner(client, book):
    secret = "MARKER-" + secrets.token_hex(8)
    alice = _grade(client, _own(attacks._marked_reference(secret), "alice"), "alice")
    assert alice["score"] == alice["max_score"] > 0
    mallory = _grade(client, attacks.SCANNER, "mallory")
    assert mallory["score"] == 0 and secret not in json.dumps(mallory, ensure_ascii=False)
    assert _stored(book, mallory).score == 0


def test_ipc_attack_scores_nothing_and_leaves_no_object(client, book):
    before = attacks._ipc_entries()
    out = _grade(client, attacks.IPC_ATTACK, "mallory")
    assert out["score"] == 0 and _stored(book, out).score == 0
    assert attacks._ipc_entries() - before == set()


@pytest.mark.parametrize("name", ["63 MiB frame", "300k nodes", "deep nesting"])
def test_json_bomb_is_stored_as_malformed_or_crashed_and_costs_little(client, book, name):
    rss = _rss_mib()
    out = _grade(client, attacks._write_frames(attacks.BOMBS[name]), "mallory")
    grown = _rss_mib() - rss
    row = _stored(book, out)
    assert out["score"] == 0 and row.status in ("malformed", "crashed"), row.status
    assert grown < 64, f"the app grew by {grown:.0f} MiB"


@pytest.mark.parametrize("name", list(attacks.FORGED))
def test_forged_records_leave_a_malformed_row(client, book, name):
    out = _grade(client, attacks.REF + "\n" + attacks.FORGED[name], "mallory")
    row = _stored(book, out)
    assert out["score"] == 0 and row.status == "malformed"
    assert out["extra_data"]["status"] == "malformed"
