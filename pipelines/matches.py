"""The checks across the hands of a match, as one composite PTransform of the audit.

    (match_id, Hand) of every judged record with a match id   (pipelines/judge.py, MATCH_HANDS)
        -> GroupByKey by match_id -> referee.match.check_match (sorted by hand_index, source, offset)
        -> matches rows (one per match) and match_violations rows (one per finding)

The check is the same pure function `mjref verify` runs (referee/match.py). Records without a
match id never get here; an unreplayable record of a match takes part (its hand index is not
missing), a record the referee crashed on does not. The tables are written with
tables.WriteSortedTable: sorted rows in a fixed number of files, the same bytes on every runner.
"""
from __future__ import annotations

import apache_beam as beam
from apache_beam.pvalue import TaggedOutput

from pipelines.rows import match_row, match_violation_rows
from referee.match import check_match

MATCHES, MATCH_VIOLATIONS = "matches", "match_violations"


class CheckMatchFn(beam.DoFn):
    """(match_id, Hands) -> its matches row (main) and its match_violations rows (one list)."""

    def process(self, element):
        _match_id, hands = element
        hands = list(hands)
        result = check_match(hands)  # the order the runner grouped them in does not matter: it sorts
        yield match_row(result)
        if result.findings:
            yield TaggedOutput(MATCH_VIOLATIONS, match_violation_rows(result, hands))


class CheckMatches(beam.PTransform):
    """(match_id, Hand) -> {"matches": rows, "match_violations": lists of rows}."""

    def expand(self, hands):
        checked = (hands
                   | "GroupByMatch" >> beam.GroupByKey()
                   | "CheckMatch" >> beam.ParDo(CheckMatchFn()).with_outputs(MATCH_VIOLATIONS, main=MATCHES))
        return {MATCHES: checked[MATCHES], MATCH_VIOLATIONS: checked[MATCH_VIOLATIONS]}
