"""The platform's offered actions (`Event.offered`) against the referee's legal set.

A platform may log, on the event by which a seat made a choice, the actions it showed that seat
just before (`OfferedAction`: a kind and its tiles). Where it does, the replay loop compares them
with the legal actions of the phase that takes the event (`Phase.legal(replay, seat)`: a turn, a
claim or rob window, a rule book's own window such as 打筛 tiles, 冲宝 or the 海底 offer):

* OFFER_MISSING: a legal action the platform did not offer (a win it never let the seat claim is
  a 漏胡 the platform caused);
* OFFER_ILLEGAL: an offered action that is not legal (an unknown kind or tile code is one too).

Each is one finding at the event, for its seat, naming what was offered, what was legal and the
difference. Records without offers are not touched: the legal set is built only for an event that
carries offers; whether any may is asked once per record (from its bytes where the caller has them:
`may_have_offers`).

Both sides are compared in the platform's vocabulary, `(ActionKind, tiles)`:

    draw                      ACT_DRAW
    discard 5p                ACT_DISCARD [5p]
    听 / 夹听 with a discard    ACT_READY [5p]           (吃听: ACT_READY with the 吃's tiles)
    吃 of 3p with 1p 2p        ACT_CHI [1p 2p] or [1p 2p 3p]
    碰, any kong              ACT_PON [t], ACT_KONG [t]
    any win                   ACT_WIN [t]
    过                        ACT_PASS
    take the 海底 tile         ACT_HAIDI

An offer may leave its tile out where the decision point names one (the discard claimed, the
kong robbed, or else the tile just drawn). In a window, declining (过) is always possible. Steps
that are no choice of the seat (打筛 reveals, 宝 flips) have no platform form and are not compared.
封东 and 报听 (ACT_FENG_DONG, ACT_READY with no tile) are declarations a seat may log at any event,
outside the move generator: offered, each must be one the rule book has and the seat may make now
(a 报听 only where the deal window lists it), and is never missing.
"""
from __future__ import annotations

from referee import actions as A
from referee import tiles as T
from referee.codes import CODES
from referee.proto import record_pb2 as pb
from referee.verdict import Violation

Key = tuple[int, tuple[int, ...]]  # (pb.ActionKind, tile indices, sorted)
# Event.offered on the wire: field 20, length-delimited. Every serialized record with an offer
# holds these two bytes; one without may hold them by chance (then the events are looked at).
OFFER_TAG = bytes([(20 << 3 | 2) & 0x7F | 0x80, (20 << 3 | 2) >> 7])


def may_have_offers(data: bytes) -> bool:
    """Whether a serialized record may carry offered actions (no false negative)."""
    return OFFER_TAG in data


KIND_OF = {A.DRAW: pb.ACT_DRAW, A.DISCARD: pb.ACT_DISCARD, A.READY_DISCARD: pb.ACT_READY,
           A.JIATING_DISCARD: pb.ACT_READY, A.OPENING_READY: pb.ACT_READY, A.CHI: pb.ACT_CHI,
           A.CHI_READY: pb.ACT_READY, A.PON: pb.ACT_PON, A.KONG_CONCEALED: pb.ACT_KONG,
           A.KONG_EXPOSED: pb.ACT_KONG, A.KONG_ADDED: pb.ACT_KONG, A.KONG_BORROWED: pb.ACT_KONG,
           A.SELF_WIN: pb.ACT_WIN, A.RON: pb.ACT_WIN, A.ROB_WIN: pb.ACT_WIN, A.PASS: pb.ACT_PASS,
           A.TAKE_HAIDI: pb.ACT_HAIDI}
NAMES = {pb.ACT_DRAW: "draw", pb.ACT_DISCARD: "discard", pb.ACT_CHI: "chi", pb.ACT_PON: "pon",
         pb.ACT_KONG: "kong", pb.ACT_READY: "ready", pb.ACT_WIN: "win", pb.ACT_PASS: "pass",
         pb.ACT_FENG_DONG: "feng_dong", pb.ACT_HAIDI: "take the last tile"}
FENG_DONG_KEY: Key = (pb.ACT_FENG_DONG, ())
OPENING_READY_KEY: Key = (pb.ACT_READY, ())
RUNS = (A.CHI, A.CHI_READY)
PASS_KEY: Key = (pb.ACT_PASS, ())


def key_of(action: A.Action) -> Key | None:
    """The platform form of one of the referee's actions (None: a step with no platform form)."""
    kind = KIND_OF.get(action.kind)
    if kind is None:
        return None
    if action.tile is None:
        return kind, ()
    if action.kind in RUNS:
        return kind, (action.tile, action.tile + 1, action.tile + 2)
    return kind, (action.tile,)


def to_offered(action: A.Action) -> pb.OfferedAction | None:
    """The OfferedAction a platform logs for this action (the simulator and the injector write them)."""
    key = key_of(action)
    if key is None:
        return None
    return pb.OfferedAction(kind=key[0], tiles=[T.to_proto(t) for t in key[1]])


def context_tile(replay, phase, seat: int) -> int | None:
    """The tile an offer may leave out: the phase's (a discard, a robbed kong), else the seat's drawn tile."""
    tile = getattr(phase, "tile", None)
    if isinstance(tile, int):
        return tile
    return replay.table.seats[seat].drawn if 0 <= seat < 4 else None


def read_offer(offer: pb.OfferedAction, context: int | None) -> Key | str:
    """The key of an offered action; a string says why it is no action."""
    kind = offer.kind
    if kind not in NAMES:
        return f"kind {kind}" if kind else "an action of no kind"
    if kind == pb.ACT_FENG_DONG:
        return FENG_DONG_KEY
    tiles = []
    for code in offer.tiles:
        t = T.FROM_CODE.get(code)
        if t is None:
            return f"{NAMES[kind]} of tile code {code}"
        tiles.append(t)
    if kind == pb.ACT_READY and not tiles:
        return OPENING_READY_KEY  # 报听
    if kind in (pb.ACT_CHI, pb.ACT_READY) and len(tiles) == 2 and context is not None:
        tiles.append(context)  # 吃 (吃听) names the two tiles shown; the run takes the claimed one
    elif kind in (pb.ACT_PON, pb.ACT_KONG, pb.ACT_WIN) and not tiles and context is not None:
        tiles = [context]
    return kind, tuple(sorted(tiles))


def text(key: Key) -> str:
    kind, tiles = key
    return NAMES[kind] + (f" {T.format_tiles(list(tiles))}" if tiles else "")


def listing(keys) -> str:
    return ", ".join(sorted(text(k) for k in keys)) or "nothing"


def legal_keys(replay, phase, seat: int) -> set[Key]:
    """The legal set of a decision point in the platform's vocabulary: what a correct platform offers."""
    actions = phase.legal(replay, seat)
    legal = {k for k in map(key_of, actions) if k is not None}
    if phase.window and legal and not replay.legality.forced_win(seat, actions):
        legal.add(PASS_KEY)  # a seat may always decline in a window (but a 托管 seat that must win)
    return legal


def offers_at(replay, phase, seat: int) -> list[pb.OfferedAction]:
    """The offers a correct platform shows the seat at this decision point, in a stable order
    (the simulator writes them with --offers)."""
    return [pb.OfferedAction(kind=kind, tiles=[T.to_proto(t) for t in tiles])
            for kind, tiles in sorted(legal_keys(replay, phase, seat))]


def may_declare(replay, seat: int, key: Key) -> bool:
    """Is an offered 封东 or 报听 one the seat may declare now (the rule book's declarations; a 报听
    only while the deal window lists it, legality.deal_actions)?"""
    if key == FENG_DONG_KEY:
        return replay.rules.may_declare(replay.view, seat, "feng_dong")
    return replay.table.deal_window and A.OPENING_READY in {a.kind for a in replay.legality.deal_actions(seat)}


def diff(replay, phase, event: pb.Event) -> list[Violation]:
    """The findings of one event's offers against the legal set of `phase` (which takes the event)."""
    seat = event.seat
    legal = legal_keys(replay, phase, seat)
    context = context_tile(replay, phase, seat)
    probe = getattr(replay, "offer_probe", None)
    if probe is not None:  # the fault injector reads the legal sets (referee/faults.py OfferProbe)
        probe[replay.index] = (legal, context)
    offered, bad = set(), []
    for offer in event.offered:
        key = read_offer(offer, context)
        if isinstance(key, str):
            bad.append(key)
        elif key in (FENG_DONG_KEY, OPENING_READY_KEY):
            if not may_declare(replay, seat, key):
                bad.append(text(key))
        else:
            offered.add(key)
    missing = legal - offered
    # A 托管 seat that must win (its legal set the win alone) may still be shown a pass: the system
    # acts for it, so that button is no platform error; every other action beyond the set is.
    tolerated = {PASS_KEY} if phase.window and not legal & {PASS_KEY} else set()
    illegal = sorted(text(k) for k in offered - legal - tolerated) + bad
    if not missing and not illegal:
        return []
    shown = ", ".join(sorted(text(k) for k in offered) + bad) or "nothing"
    sets = f"seat {seat} was offered {shown}; legal here: {listing(legal)}"
    found = []
    if missing:
        c = CODES["OFFER_MISSING"]
        found.append(Violation(c.code, seat, replay.index, f"{c.term} ({c.gloss}): {sets}; not offered: "
                                                           f"{listing(missing)}", c.severity))
    if illegal:
        c = CODES["OFFER_ILLEGAL"]
        found.append(Violation(c.code, seat, replay.index, f"{c.term} ({c.gloss}): {sets}; not legal: "
                                                           f"{', '.join(illegal)}", c.severity))
    return found


def declare(replay, phase, kind: str, event: pb.Event) -> bool:
    """`phase.declare` for an event with offers: they are judged against the window's legal set
    when the window takes the event (a declaration that halts the replay was taken too), and
    their findings come before the declaration's own."""
    found, at = diff(replay, phase, event), len(replay.violations)
    try:
        taken = phase.declare(replay, kind, event)
    except BaseException:
        replay.violations[at:at] = found
        raise
    if taken:
        replay.violations[at:at] = found
    return taken
