"""Transformer Lab auto-grader: hidden tests run against sandboxed submissions."""
