"""What crosses into the sandbox room: a job (source, wire steps, limits) and the references
between a case's steps. The room (pool, worker, runner, confinement, codec) imports nothing
from the grader's other rooms; they import these from here. A run's raw result is in
results.py: the zygote never imports it (a child walking the GC finds no result's fields).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Ref:
    """A reference to an object saved by an earlier step of the same case."""

    name: str


@dataclass
class JobLimits:
    """Resource limits for one submission's sandboxed run."""

    wall_s: float = 10.0
    cpu_s: int = 10
    memory_mib: int = 768
    output_bytes: int = 64 * 1024
    output_hard_bytes: int = 8 * 1024 * 1024
    result_bytes: int = 4 * 1024 * 1024  # the largest real result is ~64 KiB (positional-table)
    files: int = 64
    file_bytes: int = 16 * 1024 * 1024

    @classmethod
    def from_dict(cls, d: dict | None) -> JobLimits:
        d = d or {}
        unknown = set(d) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown limits {sorted(unknown)}")
        return cls(**d)


@dataclass
class Job:
    """What the sandbox receives: source text, the steps of every case, and limits."""

    source: str
    cases: list[list[dict]] = field(default_factory=list)
    limits: JobLimits = field(default_factory=JobLimits)
