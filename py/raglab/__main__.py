import sys

from raglab.cli.main import main

sys.exit(main())
