"""Shared by the browser tests: where Debian's chromium lives and when to skip without it."""

import os
import socket
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# Skip on a developer machine without chromium; under CI (.ci/run installs it) never skip.
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and os.environ.get("CI") != "true",
    reason=f"{CHROMIUM} is absent (apt-get install chromium)",
)

# Screenshots the browser tests leave for a person to look at (git ignores artifacts/).
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "app"


def open_page(browser, app_url: str, locale: str, width: int, height: int = 900):
    """A new browser context in ``locale`` at ``width`` × ``height``, on the app's page."""
    page = browser.new_context(locale=locale, viewport={"width": width, "height": height}).new_page()
    page.goto(app_url)
    return page


def free_port() -> int:
    """A free loopback port for an app a test launches (imported from here, never from a
    conftest: with the whole suite collected, "conftest" may name another folder's)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
