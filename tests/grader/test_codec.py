"""The wire format: tensors as raw bytes with dtype and shape, never pickle; bad frames rejected."""

import json
import struct

import numpy as np
import pytest
import torch

from grader.sandbox import codec
from grader.spec import ref


def test_round_trip_keeps_values_dtypes_and_structure():
    value = {"t": torch.arange(6, dtype=torch.float64).reshape(2, 3), "b": torch.tensor([True, False]),
             "n": np.ones((2, 2), dtype=np.float32), "tup": (1, 2.5, None, "s"), "lst": [float("nan")],
             "r": ref("m")}
    out = codec.unpack(codec.pack(value))["__dict"] if False else codec.unpack(codec.pack(value))
    assert out["t"].dtype == np.float64 and out["t"].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert out["b"].dtype == np.bool_ and out["n"].dtype == np.float32
    assert out["tup"] == (1, 2.5, None, "s") and np.isnan(out["lst"][0])
    assert out["r"] == ref("m")
    back = codec.unpack(codec.pack(value), as_torch=True)
    assert torch.equal(back["t"], value["t"])


def test_unknown_objects_cross_as_type_names_only():
    class Evil:
        def __reduce__(self):  # pickle would call this; the codec never does
            raise AssertionError("pickled")

    out = codec.unpack(codec.pack([Evil()]))
    assert isinstance(out[0], codec.Opaque) and out[0].type_name == "Evil"


def _frame(header: dict, blob: bytes = b"") -> bytes:
    h = json.dumps(header).encode()
    return struct.pack(">I", len(h)) + h + blob


@pytest.mark.parametrize("frame", [
    _frame({"body": {"__t": 0, "dtype": "object", "shape": [1]}, "blobs": [8]}, b"\0" * 8),
    _frame({"body": {"__t": 0, "dtype": "float32", "shape": [3]}, "blobs": [8]}, b"\0" * 8),
    _frame({"body": {"__t": 0, "dtype": "float32", "shape": [-1]}, "blobs": [4]}, b"\0" * 4),
    _frame({"body": 1, "blobs": [4]}, b""),
    b"\x00\x00\x00\x05{oops",
])
def test_malformed_frames_are_rejected(frame):
    with pytest.raises(codec.CodecError):
        codec.unpack(frame)


def test_size_budget_is_enforced():
    with pytest.raises(codec.TooLarge):
        codec.pack(torch.zeros(1000), budget=100)


def test_a_0d_tensor_stays_0d():
    for value in (torch.tensor(2.5), torch.tensor(True), np.array(3, dtype=np.int64)):
        out = codec.unpack(codec.pack(value))
        assert isinstance(out, np.ndarray) and out.shape == ()
        assert out.dtype.name == str(value.dtype).removeprefix("torch.")
    assert codec.unpack(codec.pack(torch.tensor([2.5]))).shape == (1,)


@pytest.mark.parametrize("shape", [
    [10**30] * 30_000 + [0],  # F1: math.prod over it cost 8.9 s
    [2] * (codec.MAX_NDIM + 1) + [0],
    [codec.MAX_DIM + 1, 0],
    [2**19, 0],  # F2: 0 bytes, 2**19 lists per .tolist()
    [codec.MAX_EMPTY_EXTENT + 1, 0, 3],
    [True, 0],
    "00",
])
def test_shapes_are_bounded_before_any_product(shape):
    import time

    frame = _frame({"body": {"__t": 0, "dtype": "bool", "shape": shape}, "blobs": [0]})
    t0 = time.process_time()
    with pytest.raises(codec.CodecError):
        codec.unpack(frame)
    assert time.process_time() - t0 < 0.05


def test_an_empty_tensor_within_the_extent_cap_crosses():
    rows = codec.MAX_EMPTY_EXTENT
    assert codec.unpack(codec.pack(torch.zeros(rows, 0))).shape == (rows, 0)
    assert codec.unpack(codec.pack(torch.zeros(0, 5, 7))).shape == (0, 5, 7)


def test_the_runner_sends_an_unsendable_shape_as_an_object():
    out = codec.unpack(codec.pack([torch.zeros(2**19, 0, dtype=torch.bool)]))
    assert isinstance(out[0], codec.Opaque)
