"""Issue 27: one thread policy for the process tree (transformer_lab/threads.py)."""

from __future__ import annotations

import pytest

from transformer_lab.threads import available_cores, default_threads


def test_two_cores_or_fewer_mean_one_thread_and_a_bigger_host_half(tmp_path):
    assert default_threads({}, cores=1) == default_threads({}, cores=2) == 1
    assert default_threads({}, cores=8) == 4 and default_threads({}, cores=3) == 1


def test_the_variable_overrides_the_policy_and_nonsense_is_named():
    assert default_threads({"LAB_TORCH_THREADS": "3"}, cores=2) == 3
    for bad in ("0", "-1", "two", "1.5"):
        with pytest.raises(ValueError, match="LAB_TORCH_THREADS"):
            default_threads({"LAB_TORCH_THREADS": bad}, cores=2)


def test_a_cgroup_quota_caps_the_cores(tmp_path):
    cpu_max = tmp_path / "cpu.max"
    cpu_max.write_text("150000 100000\n")  # 1.5 CPUs: 2 cores of time at most
    assert available_cores(cpu_max) <= 2
    cpu_max.write_text("max 100000\n")
    assert available_cores(cpu_max) >= 1
    assert available_cores(tmp_path / "absent") >= 1


def test_the_bench_reports_cpu_seconds_beside_wall_seconds():
    import io

    from transformer_lab.bench import run_bench

    out = io.StringIO()
    report = run_bench(quick=True, sections=["attention"], repeats=1, out=out)
    seconds = report["seconds"]["attention"]
    assert seconds["wall"] > 0 and seconds["cpu"] > 0
    assert "s CPU of this process" in out.getvalue()
