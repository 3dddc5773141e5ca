"""A hand as a sequence of table snapshots: what the table looked like after the deal and after
every event, with the decisions and findings at each one. The dispute view renders this.

It reads only the replay's table state and its verdict, never a variant's internals, so every
ruleset the referee knows renders the same way.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from referee import actions as A
from referee import tiles as T
from referee.proto import record_pb2 as pb
from referee.referee import Ended, Halt, Replay, Unreplayable, referee
from referee.rules import RulesetError, get_ruleset
from referee.verdict import UNREPLAYABLE, Decision, Verdict, Violation

WINDS = "ESWN"  # seat winds counted from the dealer (East)


@dataclass(frozen=True)
class MeldSnapshot:
    label: str  # 碰, 吃, 暗杠, 明杠, 补杠, 借子杠
    tiles: tuple[int, ...]
    from_seat: int | None  # whose discard was claimed


@dataclass(frozen=True)
class SeatSnapshot:
    seat: int
    wind: str  # E S W N, the dealer is E
    dealer: bool
    hand: tuple[int, ...]  # concealed tiles, sorted tile indices (referee.tiles)
    melds: tuple[MeldSnapshot, ...]
    river: tuple[int, ...]  # discards still lying in front of the seat, in order
    ready: bool  # 听/报听 declared
    flags: tuple[str, ...]  # e.g. 托管, 封东, 打筛 lock, 漏胡 lock
    won: tuple[int, ...] = ()  # the tile it won on, where its concealed hand does not hold it (胡 on a discard, 抢杠)
    wilds: tuple[int, ...] = ()  # kinds wild in its hand: the table's, and a 宝 it may use (摸宝)


@dataclass(frozen=True)
class Frame:
    event_index: int | None  # None: the table right after the deal
    description: str  # the event in one line
    seat: int | None  # who acted
    seats: tuple[SeatSnapshot, ...]
    wall_remaining: int  # undrawn tiles, reserve included
    live: int  # tiles a normal draw may still take
    indicator: int | None  # the flipped indicator (正王, 鬼 indicator, 宝) if any
    wilds: tuple[int, ...]  # kinds that are wild now
    phase: str  # what the table waits for next
    revealed: tuple[int, ...]  # tiles shown on the table that no seat holds (打筛 tiles)
    pending: tuple[str, ...]  # declarations an open window holds until the next event resolves it
    decisions: tuple[Decision, ...]  # decision points logged at this event (needs the trace)
    findings: tuple[Violation, ...]  # violations reported at this event


def describe_event(event: pb.Event) -> str:
    """One line: 'seat 2 discards 5p (听)'."""
    kind = event.WhichOneof("kind")
    seat = f"seat {event.seat}"
    body = getattr(event, kind) if kind else None

    def tile(code: int) -> str:
        try:
            return T.NAMES[T.from_proto(code)]
        except ValueError:
            return f"tile code {code}"

    def tiles(codes) -> str:
        return " ".join(tile(c) for c in codes)

    if kind is None:
        return f"{seat}: an event with no kind"
    if kind == "draw":
        return f"{seat} draws {tile(body.tile) if body.tile else 'a tile'}" + (" (replacement)" if body.replacement
                                                                              else "")
    if kind == "discard":
        ready = {pb.TING: " (听)", pb.JIATING: " (夹听)", pb.BAOTING: " (报听)"}.get(body.ready, "")
        return f"{seat} discards {tile(body.tile)}{ready}"
    if kind == "chi":
        return f"{seat} 吃 showing {tiles(body.tiles)}" + (" (吃听)" if body.ready else "")
    if kind == "pon":
        return f"{seat} 碰 {tile(body.tile)}"
    if kind == "kong":
        name = {pb.CONCEALED: "暗杠", pb.EXPOSED: "明杠", pb.ADDED: "补杠", pb.BORROWED: "借子杠"}.get(body.kind, "杠")
        return f"{seat} {name} {tile(body.tile)}"
    if kind == "ready":
        return f"{seat} declares {'报听' if body.kind == pb.BAOTING else '听'}"
    if kind == "win":
        how = {pb.SELF_DRAW: "自摸", pb.DISCARD: "胡 on a discard", pb.ROB_KONG: "抢杠胡"}.get(body.kind, "胡")
        return f"{seat} {how}" + (f" {tile(body.tile)}" if body.tile else "")
    if kind == "pass":
        return f"{seat} passes (过)"
    if kind == "indicator":
        what = {pb.BAO: "flips the 宝", pb.BAO_CHANGE: "changes the 宝 (换宝) to"}.get(body.kind, "flips the indicator")
        return f"{seat} {what} {tile(body.tile)}"
    if kind == "dashai":
        return f"{seat} reveals 打筛 tiles {tiles(body.tiles)}"
    if kind == "feng_dong":
        return f"{seat} chooses 封东"
    if kind == "haidi":
        return f"{seat} {'takes' if body.accepted else 'declines'} the 海底 tile"
    if kind == "auto_play":
        return f"{seat} {'goes into' if body.on else 'leaves'} 托管 (auto-play)"
    if kind == "birds":
        return f"birds revealed: {tiles(body.tiles)}"
    if kind == "horses":
        return f"{seat} is given the horses (买马) {tiles(body.tiles)}"
    if kind == "exhaustive_draw":
        return "荒庄: the wall ran out"
    return f"{seat}: {kind}"


def _seat_snapshot(replay: Replay, seat: int) -> SeatSnapshot:
    s = replay.table.seats[seat]
    dealer = replay.table.dealer
    flags = []
    if s.auto_play:
        flags.append("托管")
    flags += [f"{name} lock" for name in s.locks]
    if s.ron_locked is not None or s.self_locked:
        flags.append("漏胡 lock")
    hand = tuple(t for t, c in enumerate(s.hand) for _ in range(c))
    melds = tuple(MeldSnapshot(m.label, tuple(m.tiles), m.from_seat) for m in s.melds)
    won = tuple(t for w in replay.outcome.wins if w.seat == seat for t, c in enumerate(w.hand)
                for _ in range(c - s.hand[t]))
    wilds = tuple(sorted(replay.table.wilds | set(replay.rules.wilds.seat_wilds(replay.view, seat))))
    return SeatSnapshot(seat, WINDS[(seat - dealer) % 4], seat == dealer, hand, melds, tuple(s.river), bool(s.ready),
                        tuple(flags), won, wilds)


def _frame(replay: Replay, index: int | None, event: pb.Event | None) -> Frame:
    table = replay.table
    phase = replay.phase
    if phase is None:
        what = "the referee stopped judging here"
    elif isinstance(phase, Ended):
        what = "the hand is over"
    else:
        what = replay.describe_phase()
    return Frame(
        event_index=index,
        description=describe_event(event) if event is not None else "the deal",
        seat=event.seat if event is not None else None,
        seats=tuple(_seat_snapshot(replay, s) for s in range(4)),
        wall_remaining=table.wall.remaining,
        live=max(replay.live(), 0),
        indicator=table.indicator,
        wilds=tuple(sorted(table.wilds)),
        phase=what,
        revealed=tuple(phase.revealed()) if phase is not None else (),
        pending=tuple(f"seat {seat} declared {A.label(action)}: it is settled when the window closes"
                      for seat, action in (phase.pending() if phase is not None else [])),
        decisions=(),
        findings=(),
    )


def timeline(record: pb.GameRecord, overrides: Mapping[str, str] | None = None) -> tuple[Verdict, list[Frame]]:
    """The verdict (with its decision trace) and one frame after the deal and after each event.

    Frames stop where the referee stopped judging (a fatal finding); an unreplayable record has
    its verdict and no frame.
    """
    try:
        rules = get_ruleset(record.ruleset.name, dict(record.ruleset.options), overrides)
    except RulesetError as err:
        return Verdict(record.game_id, record.ruleset.name, UNREPLAYABLE, reason=str(err)), []
    verdict = referee(record, rules, trace=True)
    if verdict.status == UNREPLAYABLE:
        return verdict, []
    replay = Replay(record, get_ruleset(record.ruleset.name, dict(record.ruleset.options), overrides))
    frames: list[Frame] = []
    index, event = None, None
    try:
        replay.begin()
        frames.append(_frame(replay, None, None))
        for index, event in enumerate(record.events):
            replay.index = index
            replay.step(event)
            frames.append(_frame(replay, index, event))
        replay.index = None
        replay.finish()  # closes the last window: the final frame shows the hand's end
        frames[-1] = _frame(replay, index, event)
    except (Halt, Unreplayable):
        replay.phase = None  # the event that stopped the referee gets a frame of its own
        if frames and frames[-1].event_index != index:
            frames.append(_frame(replay, index, event))
    by_event: dict[int | None, list] = {}
    for d in verdict.decisions:
        by_event.setdefault(d.event_index, []).append(d)
    found: dict[int | None, list] = {}
    for v in verdict.violations:
        found.setdefault(v.event_index, []).append(v)
    frames = [f if f.event_index not in by_event and f.event_index not in found else
              Frame(**{**f.__dict__, "decisions": tuple(by_event.get(f.event_index, ())),
                       "findings": tuple(found.get(f.event_index, ()))})
              for f in frames]
    return verdict, frames
