"""The message catalogue: every learner-facing string in English and Simplified Chinese."""
