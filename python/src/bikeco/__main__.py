import sys

from bikeco.cli import main

sys.exit(main())
