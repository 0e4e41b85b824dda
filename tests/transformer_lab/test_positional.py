"""Positional encodings against the worked table in SOURCES.md."""

import pytest
import torch

from transformer_lab.positional import make_positional_encoding, sinusoidal_table

TABLE = [
    [0.0000, 1.0000, 0.0000, 1.0000],
    [0.8415, 0.5403, 0.0100, 0.9999],
    [0.9093, -0.4161, 0.0200, 0.9998],
    [0.1411, -0.9900, 0.0300, 0.9996],
    [-0.7568, -0.6536, 0.0400, 0.9992],
]


def test_worked_table_to_four_decimals():
    got = sinusoidal_table(5, 4)
    # Half a unit of the 4th decimal; cos(0.01) = 0.99995000 sits on the rounding
    # boundary and the lesson prints it as 0.9999, hence the hair above 5e-5.
    torch.testing.assert_close(got, torch.tensor(TABLE), atol=5.01e-5, rtol=0)


def test_relative_offset_is_a_rotation():
    p = sinusoidal_table(60, 16).double()
    delta = 7
    for i in range(8):
        w = 10000 ** (-2 * i / 16)
        c, s = torch.cos(torch.tensor(delta * w)), torch.sin(torch.tensor(delta * w))
        rot = torch.tensor([[c, -s], [s, c]], dtype=torch.float64)
        pair = p[:, 2 * i:2 * i + 2]  # (T, 2) = (sin, cos)
        torch.testing.assert_close(pair[:-delta] @ rot, pair[delta:], atol=1e-5, rtol=0)


@pytest.mark.parametrize("kind", ["sinusoidal", "learned", "none"])
def test_modules_add_encoding(kind):
    pe = make_positional_encoding(kind, 8, max_len=20)
    x = torch.zeros(2, 5, 8)
    y = pe(x)
    assert y.shape == x.shape
    if kind == "sinusoidal":
        torch.testing.assert_close(y[0], sinusoidal_table(20, 8)[:5])
    elif kind == "none":
        assert torch.equal(y, x)
    else:
        assert not torch.equal(y[0, 0], y[0, 1])


def test_bad_input():
    with pytest.raises(ValueError, match="even"):
        sinusoidal_table(5, 3)
    with pytest.raises(ValueError, match="unknown positional"):
        make_positional_encoding("rotary", 8)
    with pytest.raises(ValueError, match="max_len=4"):
        make_positional_encoding("sinusoidal", 8, max_len=4)(torch.zeros(1, 5, 8))
