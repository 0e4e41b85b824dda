"""Computations behind the app's pages that the library does not offer yet (no gradio here)."""
