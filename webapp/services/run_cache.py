"""Finished training runs, kept by their content so a repeated run costs nothing (no gradio).

On one library version a run is deterministic given its task, settings, seed and steps: the
trainer seeds its batches and dropout from the seed. So a run is stored under a content hash of
(library version, task, every setting); whoever asks for the same run later gets its history,
attention snapshots, summary and final weights back instead of training again. Runs the learner
stopped are never stored: they depend on when Stop was pressed.

Two backends with one interface: files in ``$LAB_DATA_DIR/run_cache`` (default), or a table in
PostgreSQL when ``$DATABASE_URL`` names one, so replicas share their runs. Both are bounded in
bytes and drop the least recently used run first. Values are ``torch.save`` bytes read back with
``weights_only=True`` (tensors, dicts, lists, text and numbers only: a tampered entry cannot run
code); records and the summary travel as JSON text inside.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import threading
import time
import warnings
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webapp.settings import WebSettings

if TYPE_CHECKING:  # the config module imports torch; this one loads it only when needed
    from transformer_lab.experiments import ExperimentConfig

log = logging.getLogger("transformer_lab.app")

FORMAT = 1  # bump when the stored layout changes: older entries then simply miss
EARLY_STOPS = ("stop_flag", "callback")  # stopped by someone: depends on timing, never stored
DEFAULT_MAX_MB = WebSettings.run_cache_mb  # LAB_RUN_CACHE_MB, declared in webapp/settings.py
MEMO_MAX_BYTES = 64 * 2**20  # decoded entries kept in this process (LRU)
TOUCH_EVERY_S = 30.0  # a run replayed from memory is marked as used in the store this often
REPLAY_CHUNKS = 3  # messages a hit is replayed in (each redraws the curves: ~0.1-0.3 s)
REPLAY_PAUSE_S = 0.05  # between replayed messages: the page redraws, the learner waits < 0.5 s


@lru_cache(maxsize=1)
def library_version() -> str:
    """The package version, torch's, and a hash of transformer_lab's source: any edit misses.

    Computed once per process (app.warm_up does it at start, so it describes the code that was
    loaded). ``LAB_RUN_CACHE_VERSION`` replaces it, e.g. with the deployed commit, when replicas
    must agree whatever happens to their files later."""
    pinned = WebSettings.read("run_cache_version")
    if pinned:
        return pinned
    import torch

    import transformer_lab

    root = Path(transformer_lab.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{transformer_lab.__version__}+torch{torch.__version__}+src{digest.hexdigest()[:16]}"


def run_key(config: ExperimentConfig, version: str | None = None) -> str:
    """Content hash of a run: library version, task and every setting (seed and steps included).

    The settings are hashed as ``config.as_dict()``: the same JSON the app hashed when it passed
    settings as dicts, so a pinned LAB_RUN_CACHE_VERSION keeps finding the runs stored then."""
    body = {"format": FORMAT, "version": version or library_version(), "task": config.task,
            "settings": config.as_dict()}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class CachedRun:
    """What a finished run leaves behind: stream()'s records, snapshots, summary and weights."""

    records: list[dict]
    snapshots: list[dict]
    summary: dict
    state: dict  # parameter name -> CPU tensor
    meta: dict = field(default_factory=dict)  # task, settings, stored_at (informative)

    @property
    def stopped_early(self) -> bool:
        return self.summary.get("stopped") in EARLY_STOPS


def _plain(value: Any) -> Any:
    """JSON fallback for numpy scalars and tensors of one element in summaries."""
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    return repr(value)


def encode(entry: CachedRun) -> bytes:
    import torch

    payload = {"format": FORMAT, "records": json.dumps(entry.records, default=_plain),
               "summary": json.dumps(entry.summary, default=_plain),
               "meta": json.dumps(entry.meta, default=_plain), "snapshots": entry.snapshots,
               "state": {k: v.detach().cpu().contiguous() for k, v in entry.state.items()}}
    buf = io.BytesIO()
    torch.save(payload, buf)
    return buf.getvalue()


def decode(blob: bytes) -> CachedRun:
    """Raises ValueError on anything that is not an entry of this FORMAT."""
    import torch

    try:
        with warnings.catch_warnings():  # a damaged blob may warn before it fails
            warnings.simplefilter("ignore")
            payload = torch.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - unpickling errors come in many types
        raise ValueError(f"not a cached run: {type(exc).__name__}: {exc}") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise ValueError("not a cached run of this format")
    return CachedRun(json.loads(payload["records"]), list(payload["snapshots"]),
                     json.loads(payload["summary"]), dict(payload["state"]),
                     json.loads(payload["meta"]))


def entry_of(run: Any) -> CachedRun:
    """A finished webapp.train.training.Run as a cache entry (weights moved to the CPU)."""
    state = {k: v.detach().cpu().clone() for k, v in run.model.state_dict().items()}
    meta = {"task": run.task_name, "settings": run.config.as_dict(), "stored_at": time.time()}
    return CachedRun(list(run.records), list(run.snapshots), dict(run.summary), state, meta)


def replay(entry: CachedRun, total: int, chunks: int = REPLAY_CHUNKS,
           pause_s: float = REPLAY_PAUSE_S) -> Iterator[dict]:
    """stream()'s messages rebuilt from a stored run: the records in ``chunks`` pieces, then the
    last message with snapshots, weights and summary. ``elapsed`` is the replay's own time."""
    start = time.perf_counter()
    records, snaps = entry.records, entry.snapshots
    n = len(records)
    cuts = sorted({round(n * i / chunks) for i in range(1, chunks)} - {0, n})
    prev = 0
    for cut in cuts:
        step = int(records[cut - 1]["step"])
        yield {"fraction": step / max(total, 1), "step": step, "total": total,
               "elapsed": time.perf_counter() - start, "records": records[prev:cut],
               "snapshots": [], "cached": True}
        prev = cut
        if pause_s:
            time.sleep(pause_s)
    steps = int(entry.summary.get("steps", records[-1]["step"] if records else 0))
    yield {"fraction": 1.0, "step": steps, "total": total, "elapsed": time.perf_counter() - start,
           "records": records[prev:], "snapshots": snaps, "state": entry.state,
           "summary": dict(entry.summary), "cached": True}


class RunCache(ABC):
    """Bounded store of finished runs by run_key(); safe to share between threads."""

    backend = "?"

    def __init__(self, max_bytes: int) -> None:
        if max_bytes < 1:
            raise ValueError(f"max_bytes must be positive, got {max_bytes}")
        self.max_bytes = int(max_bytes)
        self.hits = self.misses = self.stores = 0
        # Decoded entries recently read here, shared by every session that replays them: entries
        # never change under a key, so 300 learners on one preset hold one copy of its records
        # and snapshots (each still gets its own model). Bounded by their stored size.
        self._memo: OrderedDict[str, tuple[CachedRun, int]] = OrderedDict()
        self._memo_bytes = 0
        self.memo_max_bytes = min(self.max_bytes, MEMO_MAX_BYTES)
        self._memo_lock = threading.Lock()
        self._touched: dict[str, float] = {}

    @abstractmethod
    def _get(self, key: str) -> bytes | None: ...

    @abstractmethod
    def _put(self, key: str, blob: bytes) -> None: ...

    @abstractmethod
    def contains(self, key: str) -> bool: ...

    @abstractmethod
    def total_bytes(self) -> int: ...

    def close(self) -> None:  # noqa: B027 - files hold nothing open; PostgreSQL overrides
        """Release connections (files need nothing)."""

    def get(self, key: str) -> CachedRun | None:
        """The stored run (now the most recently used), or None. Treat it as read-only: the
        same object may be handed to other sessions."""
        with self._memo_lock:
            found = self._memo.get(key)
            if found is not None:
                self._memo.move_to_end(key)
                self.hits += 1
                touch = time.monotonic() - self._touched.get(key, -1e9) > TOUCH_EVERY_S
                if touch:
                    self._touched[key] = time.monotonic()
        if found is not None:
            if touch:  # keep it recent in the shared store too, or it would be evicted there
                try:
                    self._touch(key)
                except Exception:  # noqa: BLE001 - recency is a hint
                    log.warning("run cache: could not mark %s as used", key[:12])
            return found[0]
        blob = self._get(key)
        if blob is not None:
            try:
                entry = decode(blob)
            except ValueError:
                log.warning("run cache: dropping an unreadable entry %s", key[:12])
                self.discard(key)
                entry = None
            if entry is not None:
                self.hits += 1
                self._remember(key, entry, len(blob))
                return entry
        self.misses += 1
        return None

    def _remember(self, key: str, entry: CachedRun, size: int) -> None:
        with self._memo_lock:
            if key in self._memo or size > self.memo_max_bytes:
                return
            self._memo[key] = (entry, size)
            self._memo_bytes += size
            self._touched[key] = time.monotonic()  # _get() just marked it as used
            while self._memo_bytes > self.memo_max_bytes:
                gone, (_, old) = self._memo.popitem(last=False)
                self._memo_bytes -= old
                self._touched.pop(gone, None)

    def _touch(self, key: str) -> None:  # noqa: B027 - a backend without recency keeps none
        """Mark ``key`` as just used in the store."""

    def put(self, key: str, entry: CachedRun) -> bool:
        """Store a finished run; False (nothing stored) when it was stopped early or is larger
        than the whole cache. Older runs are evicted until the cache fits its bound."""
        if entry.stopped_early or not entry.records or not entry.state:
            return False
        blob = encode(entry)
        if len(blob) > self.max_bytes:
            return False
        self._put(key, blob)
        self.stores += 1
        return True

    @abstractmethod
    def discard(self, key: str) -> None:
        """Forget one entry (a damaged one)."""


class FileRunCache(RunCache):
    """One file per run in ``folder``; the file's mtime is its last use (LRU across processes).

    Writes go to a temporary name and are renamed into place, so a reader (in this process or
    another replica on the same disk) sees a whole entry or none.
    """

    backend = "files"
    SUFFIX = ".run"

    def __init__(self, folder: str | Path, max_bytes: int) -> None:
        super().__init__(max_bytes)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def _path(self, key: str) -> Path:
        if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
            raise ValueError("a run key is 64 lowercase hex digits")
        return self.folder / f"{key}{self.SUFFIX}"

    def _get(self, key: str) -> bytes | None:
        path = self._path(key)
        try:
            blob = path.read_bytes()
            os.utime(path, ns=(time.time_ns(), time.time_ns()))  # most recently used now
        except FileNotFoundError:  # absent, or evicted by another process meanwhile
            return None
        return blob

    def contains(self, key: str) -> bool:
        return self._path(key).exists()

    def _entries(self) -> list[tuple[int, int, Path]]:
        found = []
        for path in self.folder.glob(f"*{self.SUFFIX}"):
            try:
                st = path.stat()
            except FileNotFoundError:
                continue
            found.append((st.st_mtime_ns, st.st_size, path))
        return found

    def total_bytes(self) -> int:
        return sum(size for _, size, _ in self._entries())

    def _put(self, key: str, blob: bytes) -> None:
        path = self._path(key)
        tmp = path.with_name(f".{key}.{os.getpid()}.{threading.get_ident()}.tmp")
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)  # someone may have emptied LAB_DATA_DIR
            tmp.write_bytes(blob)
            os.replace(tmp, path)
            kept = 0
            for _, size, old in sorted(self._entries(), key=lambda e: e[0], reverse=True):
                kept += size
                if kept > self.max_bytes:
                    old.unlink(missing_ok=True)

    def discard(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)

    def _touch(self, key: str) -> None:
        try:
            os.utime(self._path(key), ns=(time.time_ns(), time.time_ns()))
        except FileNotFoundError:
            pass
