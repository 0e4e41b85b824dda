"""Turning reports, gradebook rows and training runs into tables and text for the page."""
