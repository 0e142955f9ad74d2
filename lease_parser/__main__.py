"""``python -m lease_parser`` is the ``lease-parser`` command."""

from lease_parser.cli import main

main()
