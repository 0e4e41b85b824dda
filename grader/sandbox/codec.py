"""Framing and value encoding between trusted side, worker and sandbox: JSON plus raw bytes, never pickle."""

from __future__ import annotations

import json
import math
import struct
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from grader.sandbox.jobs import Ref

# Only plain numeric dtypes cross the boundary; anything else is described, not sent.
DTYPES = {
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
}
MAX_DEPTH = 32
_HEADER = struct.Struct(">I")
# Bounds on a tensor's shape, checked before any arithmetic on it (issue 19, F1 and F2). The
# bytes bound a non-empty tensor's element count, but not an empty one's: torch.zeros(2**19, 0)
# is 0 bytes, and .tolist() or repr of it builds 2**19 Python lists. So the shape's extent
# (its product with empty dimensions counted as 1: the lists .tolist() would build) is capped
# too. Real outputs have at most 5 dimensions and a few thousand elements.
MAX_NDIM = 16
MAX_DIM = 1 << 32
MAX_EMPTY_EXTENT = 1 << 12  # an empty tensor spans at most this many (empty) rows


class CodecError(ValueError):
    """Raised when bytes from the other side are not a well-formed message."""


class TooLarge(ValueError):
    """Raised when an encoded value would exceed the size budget."""


def _encode(value: Any, blobs: list[bytes], budget: list[int], depth: int) -> Any:
    if depth > MAX_DEPTH:
        return {"__obj": "too deeply nested"}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and type(value) in (int,):
        return value if abs(value) < 2**63 else {"__obj": "int too large"}
    if isinstance(value, float) and type(value) is float:
        return value if math.isfinite(value) else {"__float": repr(value)}
    if isinstance(value, Ref):
        return {"__ref": value.name}
    arr = _as_array(value)
    if arr is not None:
        if shape_problem(arr.shape, arr.size) is not None:  # the trusted side would refuse it
            return {"__obj": "tensor of an unsendable shape"}
        data = arr.tobytes()
        budget[0] -= len(data)
        if budget[0] < 0:
            raise TooLarge("value too large to send back")
        blobs.append(data)
        return {"__t": len(blobs) - 1, "dtype": arr.dtype.name, "shape": list(arr.shape),
                "kind": "numpy" if isinstance(value, np.ndarray) else "torch"}
    if isinstance(value, (list, tuple)):
        items = [_encode(v, blobs, budget, depth + 1) for v in list(value)[:100_000]]
        return {"__tuple": items} if isinstance(value, tuple) else items
    if isinstance(value, dict):
        out = {}
        for k, v in list(value.items())[:10_000]:
            out[str(k)] = _encode(v, blobs, budget, depth + 1)
        return {"__dict": out}
    if isinstance(value, (np.generic,)):
        return _encode(value.item(), blobs, budget, depth + 1)
    return {"__obj": type(value).__name__[:100]}


def _as_array(value: Any) -> np.ndarray | None:
    """Return a contiguous numpy copy of a tensor or array, or None for other values."""
    torch = sys.modules.get("torch")  # a tensor can only exist if torch was imported
    if torch is not None and isinstance(value, torch.Tensor):
        t = value.detach().to("cpu")
        if t.dtype == torch.bfloat16:
            t = t.to(torch.float32)
        if t.is_complex() or t.dtype.is_floating_point is False and t.dtype not in (
            torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool,
        ):
            return None
        return t.contiguous().numpy().copy()  # keeps 0-d as 0-d (ascontiguousarray makes it 1-d)
    if isinstance(value, np.ndarray):
        if value.dtype.name not in DTYPES:
            return None
        return np.array(value, order="C", copy=True)
    return None


def pack(obj: Any, budget: int = 1 << 30) -> bytes:
    """Encode ``obj`` as one frame: 4-byte header length, JSON header, raw tensor bytes."""
    blobs: list[bytes] = []
    body = _encode(obj, blobs, [budget], 0)
    header = json.dumps({"body": body, "blobs": [len(b) for b in blobs]}).encode()
    return _HEADER.pack(len(header)) + header + b"".join(blobs)


def read_frames(data: bytes, max_frames: int = 100_000, pos: int = 0, partial: bool = False,
                max_header: int | None = None, max_nodes: int | None = None,
                as_torch: bool = False, need: list[int] | None = None) -> tuple[list[Any], int]:
    """Decode concatenated frames from ``pos``, parsing each header once; return the values
    and where the next frame starts. The one frame reader: the trusted side reads a hostile
    child's bytes with ``max_header`` (bytes of JSON per frame) and ``max_nodes`` (containers and
    items in all the frames read by this call) set, which bound parse work and memory before
    any JSON is parsed. With ``partial`` an incomplete
    last frame is left for later; otherwise it, like anything malformed, raises CodecError.
    ``need`` (a one-item list) then receives how long ``data`` must grow before another call
    can decode more: a trickled frame is parsed once, not once per byte that arrives.
    """
    out, nodes = [], 0
    while pos < len(data):
        if len(out) >= max_frames:
            raise CodecError("too many frames")
        (hlen,) = _HEADER.unpack_from(data, pos) if pos + 4 <= len(data) else (None,)
        if hlen is not None and max_header is not None and hlen > max_header:
            raise CodecError("frame header too large")
        if hlen is None or pos + 4 + hlen > len(data):
            if partial:
                _wants(need, pos + 4 + (hlen or 0))
                break
            raise CodecError("truncated frame")
        header = data[pos + 4 : pos + 4 + hlen]
        if max_nodes is not None:  # counted over every frame of this call, not each alone
            nodes += sum(header.count(c) for c in (b"[", b"{", b","))
            if nodes > max_nodes:
                raise CodecError("too many values")
        try:
            parsed = json.loads(header)
            sizes, body = parsed["blobs"], parsed["body"]
        except Exception as exc:  # noqa: BLE001 - hostile bytes
            raise CodecError(f"bad frame header: {type(exc).__name__}") from None
        if not isinstance(sizes, list) or not all(type(n) is int and n >= 0 for n in sizes):
            raise CodecError("bad blob table")
        end = pos + 4 + hlen + sum(sizes)
        if end > len(data):
            if partial:
                _wants(need, end)
                break
            raise CodecError("truncated frame")
        blobs, at = [], pos + 4 + hlen
        for n in sizes:
            blobs.append(data[at : at + n])
            at += n
        out.append(decode_body(body, blobs, as_torch))
        pos = end
    else:
        _wants(need, pos + 1)
    return out, pos


def _wants(need: list[int] | None, length: int) -> None:
    if need is not None:
        need[:] = [length]


def unpack(frame: bytes, as_torch: bool = False) -> Any:
    """Decode exactly one frame. Tensors come back as numpy arrays, or torch tensors if asked."""
    values, _ = read_frames(frame, max_frames=1, as_torch=as_torch)
    if len(values) != 1:
        raise CodecError("frame length does not match its header")
    return values[0]


def read_frame(read: Callable[[int], bytes]) -> bytes:
    """One whole frame from a stream, ``read(n)`` returning exactly n bytes (the sandboxed
    child reading its payload from the trusted side, which wrote it with ``pack``)."""
    head = read(4)
    header = read(_HEADER.unpack(head)[0])
    return head + header + read(sum(json.loads(header)["blobs"]))


def shape_problem(shape: Any, size: int | None = None) -> str | None:
    """Why ``shape`` is not one the trusted side accepts, or None. Bounded before any product:
    at most MAX_NDIM dimensions, each an int in [0, MAX_DIM], so the product below is at most
    MAX_NDIM multiplications of small ints (math.prod over 30,000 huge dimensions ending in 0
    once cost 8.9 s). ``size`` (the element count the data holds) lets an empty shape's extent
    be checked: products of the non-zero dimensions above MAX_EMPTY_EXTENT are refused."""
    if type(shape) not in (list, tuple) or len(shape) > MAX_NDIM:
        return "too many dimensions"
    if not all(type(s) is int and 0 <= s <= MAX_DIM for s in shape):
        return "bad dimension"
    extent = math.prod(max(s, 1) for s in shape)
    if size == 0 and extent > MAX_EMPTY_EXTENT:
        return "an empty tensor of too many rows"
    return None


def decode_body(body: Any, blobs: list[bytes], as_torch: bool = False) -> Any:
    """Turn a parsed frame body back into values; each blob may be used once."""
    try:
        return _decode(body, list(blobs), as_torch, 0)
    except CodecError:
        raise
    except Exception as exc:  # wrong types, recursion...
        raise CodecError(f"malformed frame: {type(exc).__name__}") from None


def _decode(node: Any, blobs: list[bytes], as_torch: bool, depth: int) -> Any:
    if depth > MAX_DEPTH + 2:
        raise CodecError("too deeply nested")
    if isinstance(node, list):
        return [_decode(v, blobs, as_torch, depth + 1) for v in node]
    if not isinstance(node, dict):
        return node
    if "__t" in node:
        dtype, shape = node["dtype"], node["shape"]
        if type(dtype) is not str or dtype not in DTYPES or type(shape) is not list \
                or shape_problem(shape) is not None:
            raise CodecError("bad tensor header")
        index = node["__t"]
        if type(index) is not int or not 0 <= index < len(blobs) or blobs[index] is None:
            raise CodecError("bad or reused tensor blob")  # a shared blob would multiply memory
        raw, blobs[index] = blobs[index], None
        arr = np.frombuffer(raw, dtype=np.dtype(dtype))
        if arr.size != math.prod(shape):  # bounded: shape_problem checked it above
            raise CodecError("tensor size does not match its shape")
        if shape_problem(shape, arr.size) is not None:
            raise CodecError("an empty tensor of too many rows")
        arr = arr.reshape(shape).copy()
        if as_torch:
            import torch

            return torch.from_numpy(arr)
        return arr
    if "__tuple" in node:
        return tuple(_decode(v, blobs, as_torch, depth + 1) for v in node["__tuple"])
    if "__dict" in node:
        return {str(k): _decode(v, blobs, as_torch, depth + 1) for k, v in node["__dict"].items()}
    if "__float" in node:
        return float(node["__float"]) if node["__float"] in ("nan", "inf", "-inf") else None
    if "__ref" in node:
        return Ref(str(node["__ref"]))
    if "__obj" in node:
        return Opaque(str(node["__obj"])[:100])
    raise CodecError("unknown tag")


class Opaque:
    """A value the sandbox could not send as data; only its type name crossed."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.type_name == self.type_name

    def __hash__(self) -> int:
        return hash(self.type_name)

    def __repr__(self) -> str:
        return f"<{self.type_name} object>"
