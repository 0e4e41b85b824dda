"""Transformer Lab: a small PyTorch library for learning attention by doing."""

__version__ = "0.1.0"
