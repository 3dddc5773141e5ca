"""Synthetic Hebei hand archives from HandBuilder scripts, for the pipeline tests and benchmark.

Until the self-play simulator lands, a few scripted hands varied by game id, seed and dealer
give records of realistic size and mix: long 荒庄 play-outs, self-drawn and discard wins, and
(on request) a tampered claimed settlement. `corrupt_archive` adds labelled damage of every kind
the reader must survive.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from referee import archive, records
from referee.builder import HandBuilder

# No hand has a pair, a run or three of a kind, so 摸打 through the whole wall stays clean.
SCATTERED = ("147m147p147sESWNC", "258m258p258sESWN", "369m369p369sESWN", "147m258p369sECFP")
ONE_DRAGON_WAIT = "123m456m789m123p5p"  # 一条龙 waiting on 5p

KINDS = ("draw", "self_draw_win", "discard_win")


def _deal(dealer: int, hands: list[str]) -> list[str]:
    """Hands given relative to the dealer (dealer first) in absolute seat order."""
    return [hands[(seat - dealer) % 4] for seat in range(4)]


def build_record(game_id: str, kind: str, seed: int, dealer: int = 0, tamper: bool = False):
    """One record of the given kind; with `tamper` its claimed payments are off by 10 (a violation)."""
    s = [(dealer + k) % 4 for k in range(4)]  # s[k]: the k-th seat after the dealer
    b = HandBuilder(game_id, seed=seed, dealer=dealer)
    if kind == "draw":
        b.deal(*_deal(dealer, list(SCATTERED))).discard(s[0], "C").play_out(s[1])
    elif kind == "self_draw_win":
        hands = [SCATTERED[0], ONE_DRAGON_WAIT, SCATTERED[2], SCATTERED[3]]
        b.deal(*_deal(dealer, hands)).discard(s[0], "C").draw(s[1], "5p").win(s[1], "self", "5p")
    elif kind == "discard_win":
        hands = [SCATTERED[0], ONE_DRAGON_WAIT, SCATTERED[2], SCATTERED[3]]
        (b.deal(*_deal(dealer, hands)).discard(s[0], "C").draw_discard(s[1], "F")
         .draw_discard(s[2], "5p").win(s[1], "discard", "5p"))
    else:
        raise ValueError(f"unknown kind {kind!r}: one of {KINDS}")
    record = b.build()
    if tamper:
        record.claimed.payments[0] += 10
        record.claimed.payments[1] -= 10
    return record


def payloads(n: int, seed: int = 0, tamper_every: int = 7) -> list[bytes]:
    """n serialized records cycling through the kinds and dealers; every tamper_every-th is tampered."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        record = build_record(f"syn-{seed}-{i:06d}", kind, seed=rng.randrange(1 << 30), dealer=i % 4,
                              tamper=bool(tamper_every) and i % tamper_every == tamper_every - 1)
        out.append(records.to_binary(record))
    return out


@dataclass
class Damage:
    """What corrupt_archive did, for tests to check against."""
    smashed_game: str  # the record whose frame has a smashed payload byte
    undecodable_offset: int  # frame whose CRCs hold but whose payload is not a GameRecord
    bad_ruleset_game: str  # a record with ruleset "nope"
    garbage_offset: int  # garbage bytes inserted between two frames
    truncated_offset: int  # the final frame, cut short


def corrupt_archive(path, good: list[bytes]) -> Damage:
    """Write `good` payloads plus damage of every kind; returns where the damage is.

    Layout: the records, with (a) one payload byte smashed in the 3rd frame, (b) 37 garbage
    bytes after the 5th frame, (c) a frame holding bytes that are not a GameRecord after the
    7th, (d) a record with ruleset "nope" after the 9th, and (e) a last frame cut short.
    """
    bad_ruleset = build_record("syn-nope", "self_draw_win", seed=1)
    bad_ruleset.ruleset.name = "nope"
    # A varint field 1 with an overlong length: FromString must fail on it.
    undecodable = b"\x0a\xff\xff\xff\xff\x0f" + b"not a record"
    parts: list[bytes] = []
    pos = 0
    damage = {}

    def put(blob: bytes):
        nonlocal pos
        parts.append(blob)
        pos += len(blob)

    for i, payload in enumerate(good):
        framed = bytearray(archive.frame(payload))
        if i == 2:
            framed[archive.HEADER_BYTES + len(payload) // 2] ^= 0x5A
            damage["smashed_game"] = records.parse_binary(payload).game_id
        put(bytes(framed))
        if i == 4:
            damage["garbage_offset"] = pos
            put(bytes(range(200, 237)))
        if i == 6:
            damage["undecodable_offset"] = pos
            put(archive.frame(undecodable))
        if i == 8:
            put(archive.frame(records.to_binary(bad_ruleset)))
    damage["truncated_offset"] = pos
    put(archive.frame(good[0])[:-9])
    with open(path, "wb") as fh:
        fh.write(b"".join(parts))
    return Damage(bad_ruleset_game="syn-nope", **damage)
