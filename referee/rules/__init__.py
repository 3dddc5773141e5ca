"""The registry of rulesets by name."""
from __future__ import annotations

from typing import Mapping

from referee.rules.base import Option, Ruleset, RulesetError
from referee.rules.hebei import Hebei
from referee.rules.ningxiang import Ningxiang

RULESETS: dict[str, type[Ruleset]] = {cls.name: cls for cls in (Hebei, Ningxiang)}


def get_ruleset(name: str, options: Mapping[str, str] | None = None) -> Ruleset:
    """An instance of the named ruleset with these option values; RulesetError if unknown."""
    cls = RULESETS.get(name)
    if cls is None:
        known = ", ".join(sorted(RULESETS))
        raise RulesetError(f"unknown ruleset {name!r} (known: {known})")
    return cls(options)


__all__ = ["Option", "RULESETS", "Ruleset", "RulesetError", "get_ruleset"]
