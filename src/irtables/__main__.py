"""`python -m irtables` runs the command line."""

from irtables.cli import main

main()
