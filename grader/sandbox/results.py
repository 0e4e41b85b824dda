"""What one sandboxed run sends back, as the trusted side holds it (grader/sandbox/pool.py).
Its own module: the zygote (worker.py) never imports it, so a child walking the objects it
inherited finds no dict with a result's fields (tests/grader/test_sandbox_replayed_attacks.py)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RawResult:
    """What one sandboxed run sent back: its messages (decoded safely) and how it ended."""

    status: str
    messages: list = field(default_factory=list)
    output: str = ""
    output_bytes: int = 0
    exit_code: int | None = None
    signal: int | None = None
    wall_s: float = 0.0
    malformed: bool = False
    malformed_reason: str = ""
    worker_died: bool = False
    # What was printed before the hidden inputs reached the child (it cannot contain them).
    load_output: str = ""
