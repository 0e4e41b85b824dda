"""Hidden cases for positional-table: tables of several sizes and dtypes, scaled embeddings, errors."""

import torch

from grader.spec import Case, call, check


def _tol(dtype):
    return {"rtol": 1e-5, "atol": 1e-6 if dtype == torch.float64 else 1e-5}


def _table_case(name, max_len, d_model, dtype, points=2.0):
    tol = _tol(dtype)
    return Case(name, points, [
        call("positional_encoding", max_len, d_model, dtype=dtype,
             check=check(label=f"positional_encoding({max_len}, {d_model})", **tol)),
        call("positional_encoding", max_len, d_model, dtype=dtype,
             check=check("dtype", label="the table")),
    ])


def build(rng: torch.Generator) -> list[Case]:
    def randn(*shape, dtype):
        return torch.randn(*shape, generator=rng, dtype=torch.float64).to(dtype)

    f32, f64 = torch.float32, torch.float64
    return [
        _table_case("table, d_model 4, float32 (default dtype)", 6, 4, f32),
        _table_case("table, 50 positions, d_model 16, float64", 50, 16, f64),
        _table_case("table, 300 positions, d_model 64, float64", 300, 64, f64),
        _table_case("table, 7 positions, d_model 6, float32", 7, 6, f32),
        _table_case("table, d_model 2 (a single pair)", 9, 2, f64, points=1.0),
        Case("add_positions, float32, batch 3 < T 5, d_model 8", 2.0, [
            call("add_positions", randn(3, 5, 8, dtype=f32),
                 check=check(label="add_positions(X)", **_tol(f32))),
        ]),
        Case("add_positions, float64, batch 6 > T 2, d_model 10", 2.0, [
            call("add_positions", randn(6, 2, 10, dtype=f64),
                 check=check(label="add_positions(X)", **_tol(f64))),
            call("add_positions", randn(6, 2, 10, dtype=f64),
                 check=check("dtype", label="add_positions(X)")),
        ]),
        Case("bad input: odd d_model", 1.0, [
            call("positional_encoding", 5, 7, raises="ValueError"),
        ]),
        Case("bad input: max_len < 1", 1.0, [
            call("positional_encoding", 0, 8, raises="ValueError"),
        ]),
    ]
