"""`--option KEY=VALUE` on the command line: parsing and checking, shared by `mjref verify` and `mjref audit`.

Lives apart from referee/cli.py and pipelines/audit.py so that neither imports the other for it
(the CLI builds the audit's parser; the audit must not import the CLI back).

    option_pair   the argparse `type=` for one KEY=VALUE: a malformed pair is a usage error (exit 2)
    check         every override names an option some ruleset has, with a value it can parse
    overrides_or_usage_error   both, for a command: the overrides, or None after the usage message
"""
from __future__ import annotations

import argparse
import sys
from typing import Iterable, Mapping

from referee.rules import RulesetError, check_overrides


def option_pair(text: str) -> tuple[str, str]:
    """One `KEY=VALUE` as (key, value), surrounding spaces dropped; argparse reports the error."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"takes KEY=VALUE (e.g. hb_multiple_ron=false), not {text!r}")
    return key.strip(), value.strip()


def to_dict(pairs: Iterable[tuple[str, str] | str]) -> dict[str, str]:
    """Pairs (from option_pair, or raw KEY=VALUE strings) as a dict; a later key wins.

    Raw strings are for callers that skip argparse; a malformed one raises ValueError."""
    out: dict[str, str] = {}
    for pair in pairs:
        if isinstance(pair, str):
            try:
                pair = option_pair(pair)
            except argparse.ArgumentTypeError as err:
                raise ValueError(f"--option {err}") from None
        key, value = pair
        out[key] = value
    return out


def check(overrides: Mapping[str, str]) -> str | None:
    """None if every override is an option some ruleset knows, with a value it parses; else the
    reason, for a usage error before any record is read."""
    try:
        check_overrides(overrides)
    except RulesetError as err:
        return str(err)
    return None


def overrides_or_usage_error(args, command: str) -> dict[str, str] | None:
    """args.option as a dict once every override checks out; else None, after printing the command's
    usage and `mjref COMMAND: error: --option: WHY` on stderr (the caller exits 2, before reading anything)."""
    overrides = to_dict(args.option)
    problem = check(overrides)
    if problem is None:
        return overrides
    parser = getattr(args, "parser", None)
    if parser is not None:
        parser.print_usage(sys.stderr)
    print(f"mjref {command}: error: --option: {problem}", file=sys.stderr)
    return None
