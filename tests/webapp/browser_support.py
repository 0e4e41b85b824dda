"""Shared by the browser tests: where Debian's chromium lives and when to skip without it."""

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# Skip on a developer machine without chromium; under CI (.ci/run installs it) never skip.
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and os.environ.get("CI") != "true",
    reason=f"{CHROMIUM} is absent (apt-get install chromium)",
)
