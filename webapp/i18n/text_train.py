"""Text of the Train page and its runs: statuses, kept-run labels, queue lines (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
}

ZH: dict[str, str] = {
}
