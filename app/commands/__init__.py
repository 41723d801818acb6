"""One module per ``tabletop`` subcommand, each with ``register(subparsers)``."""
