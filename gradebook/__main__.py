"""`python -m gradebook` is the same as `python -m grader gradebook`."""

import sys

from gradebook.cli import main

sys.exit(main(sys.argv[1:]))
