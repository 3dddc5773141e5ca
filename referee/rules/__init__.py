"""The registry of rulesets by name."""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping

from referee.rules.base import Option, Ruleset, RulesetError
from referee.rules.dalian import Dalian
from referee.rules.guangdong_jph import GuangdongGG5, GuangdongJPH3
from referee.rules.guangdong_tdh import GuangdongTDH
from referee.rules.harbin import Harbin
from referee.rules.hebei import Hebei
from referee.rules.ningxiang import Ningxiang

RULESETS: dict[str, type[Ruleset]] = {
    cls.name: cls for cls in (Hebei, Ningxiang, GuangdongTDH, GuangdongJPH3, GuangdongGG5, Harbin, Dalian)}


def get_ruleset(name: str, options: Mapping[str, str] | None = None,
                overrides: Mapping[str, str] | None = None) -> Ruleset:
    """An instance of the named ruleset with these option values; RulesetError if unknown.

    `options` (a record's own) must all belong to the ruleset. `overrides` (from the command
    line, for a whole archive) apply only where the ruleset has the option, so an override
    meant for one ruleset leaves a mixed archive's other records alone; check_overrides
    rejects one that no ruleset knows.
    """
    cls = RULESETS.get(name)
    if cls is None:
        known = ", ".join(sorted(RULESETS))
        raise RulesetError(f"unknown ruleset {name!r} (known: {known})")
    values = dict(options or {})
    mine = {o.name for o in cls.options}
    values.update((k, v) for k, v in (overrides or {}).items() if k in mine)
    return _instance(cls, tuple(sorted(values.items())))


@lru_cache(maxsize=256)
def _instance(cls: type[Ruleset], values: tuple[tuple[str, str], ...]) -> Ruleset:
    """One instance per ruleset and option values: a ruleset holds no per-hand state (that is
    the table's), so every record with the same options shares it, parts and patterns built once."""
    return cls(dict(values))


def check_overrides(overrides: Mapping[str, str]) -> None:
    """RulesetError unless every override names an option of some ruleset with a value it takes."""
    for key, text in overrides.items():
        owners = [o for cls in RULESETS.values() for o in cls.options if o.name == key]
        if not owners:
            raise RulesetError(f"unknown rule option {key!r} (see `mjref rulesets`)")
        for option in owners:
            option.parse(text)


def overrides_change(name: str, options: Mapping[str, str], overrides: Mapping[str, str]) -> bool:
    """Whether `overrides` give the named ruleset, on top of a record's own `options`, any option value
    other than the record's own; True when that cannot be told (a value that does not parse). When
    False, get_ruleset(name, options, overrides) plays exactly as get_ruleset(name, options)."""
    cls = RULESETS.get(name)
    if cls is None:
        return False  # unknown either way, for the same reason
    known = {o.name: o for o in cls.options}
    try:
        for key, text in overrides.items():
            option = known.get(key)
            if option is None:
                continue  # not of this ruleset: get_ruleset leaves it out
            own = option.parse(options[key]) if key in options else option.default
            if option.parse(text) != own:
                return True
    except RulesetError:
        return True
    return False


__all__ = ["Option", "RULESETS", "Ruleset", "RulesetError", "check_overrides", "get_ruleset", "overrides_change"]
