"""What the pages call: submitting and grading, training runs and their queue, caches."""
