"""Tasks the models learn: toy copy/reverse/sort, EN->FR translation, and their shared types."""

from .batch import Batch, lengths_mask, shift_right
from .tatoeba import D2L_FRA_ENG_SHA1, D2L_FRA_ENG_URL, download_fra_eng, load_tatoeba, read_pairs
from .toy import KINDS, ToyTask, ToyTaskConfig
from .translation import (
    BUNDLED_CORPUS,
    D2L_EXAMPLES,
    TranslationConfig,
    TranslationTask,
    preprocess,
    tokenize,
)
from .vocab import BOS, EOS, PAD, RESERVED, UNK, Vocab, decode_ids

__all__ = [
    "BOS", "BUNDLED_CORPUS", "D2L_EXAMPLES", "D2L_FRA_ENG_SHA1", "D2L_FRA_ENG_URL", "EOS", "KINDS",
    "PAD", "RESERVED", "UNK", "Batch", "ToyTask", "ToyTaskConfig", "TranslationConfig",
    "TranslationTask", "Vocab", "decode_ids", "download_fra_eng", "lengths_mask", "load_tatoeba",
    "preprocess", "read_pairs", "shift_right", "tokenize",
]
