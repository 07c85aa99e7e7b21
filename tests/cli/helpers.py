"""Running the superchess command in-process for the CLI tests."""
from __future__ import annotations

from superchess.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """The command's exit code, standard output and standard error for `argv`."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
