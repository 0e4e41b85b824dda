"""One Lab for the tests that exercise pages and services without the app (issue 28): the app
makes its own in app.py (``app.LAB``); these tests share this one and swap its gradebook."""

from __future__ import annotations

from webapp.lab import Lab
from webapp.settings import AppSettings

LAB = Lab(AppSettings.from_env())  # the wing and the gradebook open on first use
