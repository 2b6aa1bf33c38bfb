"""`python -m irtables` runs the command line."""

from irtables.cli import main

if __name__ == "__main__":  # not when a worker process imports the main module
    main()
