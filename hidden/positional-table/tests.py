"""Hidden cases for positional-table: float32 tables of several sizes, scaled embeddings, errors."""

import torch

from grader.spec import Case, call, check

# The table is float32, so float64 embeddings plus the table are also only float32-accurate.
TOL = {"rtol": 1e-5, "atol": 1e-5}


def _table_case(name, max_len, d_model, points=2.0):
    return Case(name, points, [
        call("positional_encoding", max_len, d_model,
             check=check(label=f"positional_encoding({max_len}, {d_model})", **TOL)),
        call("positional_encoding", max_len, d_model, check=check("dtype", label="the table")),
    ])


def build(rng: torch.Generator) -> list[Case]:
    def randn(*shape, dtype):
        return torch.randn(*shape, generator=rng, dtype=torch.float64).to(dtype)

    x32 = randn(3, 5, 8, dtype=torch.float32)
    x64 = randn(6, 2, 10, dtype=torch.float64)
    return [
        _table_case("table, 6 positions, d_model 4", 6, 4),
        _table_case("table, 50 positions, d_model 16", 50, 16),
        _table_case("table, 100 positions, d_model 64", 100, 64),
        _table_case("table, 7 positions, d_model 6", 7, 6),
        _table_case("table, d_model 2 (a single pair)", 9, 2, points=1.0),
        Case("add_positions, float32, batch 3 < T 5, d_model 8", 2.0, [
            call("add_positions", x32, check=check(label="add_positions(X)", **TOL)),
            call("add_positions", x32,
                 check=check("dtype", label="add_positions(X)")),
        ]),
        Case("add_positions, float64, batch 6 > T 2, d_model 10", 2.0, [
            call("add_positions", x64, check=check(label="add_positions(X)", **TOL)),
            call("add_positions", x64,
                 check=check("dtype", label="add_positions(X)")),
        ]),
        Case("bad input: odd d_model", 1.0, [
            call("positional_encoding", 5, 7, raises="ValueError"),
        ]),
        Case("bad input: max_len < 1", 1.0, [
            call("positional_encoding", 0, 8, raises="ValueError"),
        ]),
    ]
