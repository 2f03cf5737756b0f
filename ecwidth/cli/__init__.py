"""The ``ecwidth`` command: subcommands, the options they share, and how notices reach the terminal."""
