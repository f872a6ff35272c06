"""The `ragcite` console script (and `python -m ragcite`): the same command line as the Rust
binary, compiled into the extension module: every subcommand, output and exit code."""

import sys

from . import _native


def main() -> None:
    # What Python printed so far comes before what the command line prints.
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(_native.main(["ragcite", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
