from onellm_runtime.cli import main
import sys

sys.exit(main())
