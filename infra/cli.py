"""Command-line tools: score a game record the same way the app does."""

from __future__ import annotations

import sys
from typing import BinaryIO

import click

from rules import record
from rules.problems import Illegal


@click.command("score")
@click.argument("source", type=click.File("rb"))
def score_command(source: BinaryIO) -> None:
    """Print a game record with its result computed by the rules (SOURCE "-" reads standard input).

    A record that breaks the rules prints one problem per line to standard error and exits
    with status 2.
    """
    try:
        game = record.loads(source.read())
    except Illegal as illegal:
        for problem in illegal.problems:
            click.echo(str(problem), err=True)
        sys.exit(2)
    click.echo(record.dumps(record.scored(game)), nl=False)
