"""`python -m grader.gradebook` is the same as `python -m grader gradebook`."""

import sys

from grader.gradebook.cli import main

sys.exit(main(sys.argv[1:]))
