"""Text of the playground's explorers: Basics, Multi-head, Positional (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
}

ZH: dict[str, str] = {
}
