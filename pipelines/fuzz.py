"""Mutated hand records and archives, for the fuzz tests (tests/test_fuzz.py) and benchmarks/fuzz_audit.py.

Everything here is driven by one `random.Random`, so a seed gives the same bytes on every run,
and hypothesis can drive it too (`st.randoms()`). Three levels of damage:

  * records: any field of any message in a GameRecord set to a random value of its type (edge
    integers, out-of-range enum values and tile codes, long or odd strings), repeated fields
    cleared, grown (to hundreds of entries) or cut, events inserted, deleted, swapped,
    duplicated or truncated, rule options and rulesets changed;
  * payloads: bytes flipped, cut, inserted or repeated, then framed again, so the checksums hold
    and only the decoder and the referee stand between the bytes and the tables;
  * archives: garbage between frames, frames with a broken checksum, cut frames, frames whose
    payload is random bytes, runs of zeros, duplicated frames, a truncated tail.

`write_archive` reports what it wrote (intact frames, damage inserted), so a run can check that
every intact frame came out as exactly one row.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from google.protobuf.descriptor import FieldDescriptor as FD

from referee import archive, records
from referee.proto import record_pb2 as pb

TILES = sorted(v for v in pb.Tile.values() if v)
RULESETS = ("hebei", "ningxiang")
_INT32 = (-(1 << 31), -129, -1, 0, 1, 2, 3, 4, 5, 13, 14, 99, 127, 128, 255, 256, 65_535, (1 << 31) - 1)
_UINT32 = (0, 1, 2, 3, 4, 5, 13, 14, 99, 127, 128, 255, 256, 65_535, (1 << 31) - 1, 1 << 31, (1 << 32) - 1)
_INT64 = (0, 1, -1, 2, 8, -8, 1000, -1000, 1 << 31, -(1 << 31), 1 << 53, (1 << 62), -(1 << 62),
          (1 << 63) - 1, -(1 << 63))
_UINT64 = (0, 1, 2, 4, 1 << 32, 1 << 63, (1 << 64) - 1)
_STRINGS = ("", "hebei", "ningxiang", "HEBEI", "none", "true", "false", "0", "-1", "1e9", str(10 ** 30),
            "胡", "听牌", "\x00", "\u200b", "😀" * 3, " ", "a=b", "\ufeff")
# Known option names (so option mutations reach the rules, not only "unknown option").
_OPTION_NAMES = ("hb_multiple_ron", "hb_cap", "hb_room_multiplier", "hb_reserve_tiles", "hb_missed_win_rule",
                 "hb_ready_lock", "hb_ready_checks", "nx_birds", "nx_king_is_wild", "nx_wilds_in_melds",
                 "nx_kong_needs_two_tiles", "no_such_option")
_OPTION_VALUES = ("true", "false", "0", "1", "2", "-1", "12", "1000", str(1 << 31), str(10 ** 20), "banana", "",
                  "same_kind_until_draw", "any_until_draw", "none")
EVENT_KINDS = tuple(f.name for f in pb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields)


def _enum_value(fd, rng: random.Random) -> int:
    defined = [v.number for v in fd.enum_type.values]
    if rng.random() < 0.5:
        return rng.choice(defined)
    return rng.choice((-1, max(defined) + 1, 5, 99, 1 << 20, (1 << 31) - 1, -(1 << 31)))


def _tile(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.85:
        return rng.choice(TILES)
    return rng.choice((0, 10, 20, 30, 40, 48, 50, 99, -1, -(1 << 31), (1 << 31) - 1))


def scalar(fd, rng: random.Random):
    """A random value of a scalar field's type: edge values, often; sometimes anything in range."""
    t = fd.type
    if t == FD.TYPE_ENUM:
        return _tile(rng) if fd.enum_type.name == "Tile" else _enum_value(fd, rng)
    if t == FD.TYPE_BOOL:
        return rng.random() < 0.5
    if t == FD.TYPE_STRING:
        r = rng.random()
        if r < 0.7:
            return rng.choice(_STRINGS)
        if r < 0.95:
            return "".join(chr(rng.choice((rng.randrange(32, 127), rng.randrange(0x4E00, 0x9FFF))))
                           for _ in range(rng.randrange(1, 40)))
        return "x" * rng.choice((300, 5000, 70_000))  # past the 64 KiB string limit, sometimes
    if t == FD.TYPE_BYTES:
        return rng.randbytes(rng.randrange(0, 20))
    if t in (FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32):
        return rng.choice(_INT32) if rng.random() < 0.7 else rng.randrange(-(1 << 31), 1 << 31)
    if t in (FD.TYPE_UINT32, FD.TYPE_FIXED32):
        return rng.choice(_UINT32) if rng.random() < 0.7 else rng.randrange(0, 1 << 32)
    if t in (FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64):
        return rng.choice(_INT64) if rng.random() < 0.7 else rng.randrange(-(1 << 63), 1 << 63)
    if t in (FD.TYPE_UINT64, FD.TYPE_FIXED64):
        return rng.choice(_UINT64) if rng.random() < 0.7 else rng.randrange(0, 1 << 64)
    raise TypeError(f"no random value for field {fd.full_name} of type {t}")  # a new proto type: add it


def _size(rng: random.Random) -> int:
    return rng.choice((0, 1, 2, 3, 4, 5, 8, 13, 14, 17, 40, 136, 304))


def random_message(msg, rng: random.Random, depth: int = 0) -> None:
    """Fill some fields of msg with random values (one branch of a oneof)."""
    fields = list(msg.DESCRIPTOR.fields)
    rng.shuffle(fields)
    for fd in fields[: rng.randint(0, len(fields))]:
        set_field(msg, fd, rng, depth)


def set_field(msg, fd, rng: random.Random, depth: int = 0) -> None:
    """A random value (or, for a repeated field, a random edit) for one field of msg."""
    if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
        target = getattr(msg, fd.name)
        if rng.random() < 0.3:
            target.clear()
        for _ in range(rng.randint(1, 3)):
            target[rng.choice(_OPTION_NAMES + _STRINGS)] = rng.choice(_OPTION_VALUES + _STRINGS)
        return
    if fd.is_repeated:
        target = getattr(msg, fd.name)
        op = rng.random()
        if op < 0.2:
            del target[:]
        elif op < 0.4 and len(target):
            del target[rng.randrange(len(target)):]
        elif op < 0.6 and len(target):
            i = rng.randrange(len(target))
            if fd.message_type is None:
                target[i] = scalar(fd, rng)
            else:
                random_message(target[i], rng, depth + 1)
        else:
            for _ in range(_size(rng) if depth == 0 or fd.message_type is None else rng.randint(1, 3)):
                if fd.message_type is None:
                    target.append(scalar(fd, rng))
                elif depth < 3:
                    random_message(target.add(), rng, depth + 1)
        return
    if fd.message_type is not None:
        if depth < 3:
            random_message(getattr(msg, fd.name), rng, depth + 1)
        return
    setattr(msg, fd.name, scalar(fd, rng))


def random_event(rng: random.Random) -> pb.Event:
    """An event of a random kind, mostly plausible (a real seat and tiles), sometimes not."""
    event = pb.Event(seat=rng.randrange(4) if rng.random() < 0.9 else scalar(pb.Event.DESCRIPTOR.fields_by_name["seat"], rng))
    kind = rng.choice(EVENT_KINDS)
    sub = getattr(event, kind)
    sub.SetInParent()
    for fd in sub.DESCRIPTOR.fields:
        if rng.random() < 0.7:
            if fd.is_repeated and fd.message_type is None:
                getattr(sub, fd.name).extend(scalar(fd, rng) for _ in range(rng.choice((0, 1, 2, 2, 3, 5))))
            elif fd.message_type is None:
                setattr(sub, fd.name, scalar(fd, rng))
    if rng.random() < 0.1:
        random_message(event.offered.add(), rng, 1)
    return event


def _messages(record: pb.GameRecord) -> list:
    """Every message inside a record (the record, its sub-messages, events and their parts)."""
    out = []

    def walk(msg):
        out.append(msg)
        for fd, value in msg.ListFields():
            if fd.message_type is None or fd.message_type.GetOptions().map_entry:
                continue
            if fd.is_repeated:
                for m in value:
                    walk(m)
            else:
                walk(value)
    walk(record)
    return out


# -- record mutations ----------------------------------------------------------------------------
def m_field(record, rng):
    msg = rng.choice([m for m in _messages(record) if m.DESCRIPTOR.fields])
    set_field(msg, rng.choice(msg.DESCRIPTOR.fields), rng)


def m_enum(record, rng):
    """An out-of-range (or other) value for an enum field of an event: kinds, ready, tiles."""
    events = [e for e in record.events if e.WhichOneof("kind")]
    if not events:
        return m_field(record, rng)
    event = rng.choice(events)
    sub = getattr(event, event.WhichOneof("kind"))
    enums = [fd for fd in sub.DESCRIPTOR.fields if fd.type == FD.TYPE_ENUM]
    if not enums:
        event.seat = scalar(pb.Event.DESCRIPTOR.fields_by_name["seat"], rng)
        return
    fd = rng.choice(enums)
    if fd.is_repeated:
        target = getattr(sub, fd.name)
        if len(target):
            target[rng.randrange(len(target))] = scalar(fd, rng)
        else:
            target.append(scalar(fd, rng))
    else:
        setattr(sub, fd.name, rng.choice((-1, 5, 99, (1 << 31) - 1, -(1 << 31), 0, 48)))


def m_insert(record, rng):
    record.events.insert(rng.randint(0, len(record.events)), random_event(rng))


def m_delete(record, rng):
    if record.events:
        del record.events[rng.randrange(len(record.events))]


def m_swap(record, rng):
    n = len(record.events)
    if n >= 2:
        i = rng.randrange(n - 1)
        j = i + 1 if rng.random() < 0.7 else rng.randrange(n)
        a, b = pb.Event(), pb.Event()
        a.CopyFrom(record.events[i])
        b.CopyFrom(record.events[j])
        record.events[i].CopyFrom(b)
        record.events[j].CopyFrom(a)


def m_duplicate(record, rng):
    if record.events:
        i = rng.randrange(len(record.events))
        copy = pb.Event()
        copy.CopyFrom(record.events[i])
        record.events.insert(i + 1, copy)


def m_truncate(record, rng):
    if record.events:
        del record.events[rng.randrange(len(record.events)):]


def m_seat(record, rng):
    if record.events:
        rng.choice(record.events).seat = rng.choice((0, 1, 2, 3, 4, 5, 127, 128, 255, (1 << 32) - 1))


def m_tile(record, rng):
    """A tile in the wall, a hand or an event replaced by another (valid or not)."""
    places = [record.wall] + [h.tiles for h in record.initial_hands]
    for e in record.events:
        kind = e.WhichOneof("kind")
        sub = getattr(e, kind) if kind else None
        if sub is not None and "tile" in sub.DESCRIPTOR.fields_by_name:
            places.append((sub, "tile"))
        if sub is not None and "tiles" in sub.DESCRIPTOR.fields_by_name:
            places.append(sub.tiles)
    place = rng.choice(places)
    if isinstance(place, tuple):
        setattr(place[0], place[1], _tile(rng))
    elif len(place):
        place[rng.randrange(len(place))] = _tile(rng)
    else:
        place.append(_tile(rng))


def m_wall(record, rng):
    wall = record.wall
    op = rng.random()
    if op < 0.3 and len(wall):
        del wall[rng.randrange(len(wall)):]
    elif op < 0.6 and len(wall) >= 2:
        i, j = rng.randrange(len(wall)), rng.randrange(len(wall))
        wall[i], wall[j] = wall[j], wall[i]
    elif op < 0.8:
        wall.extend(_tile(rng) for _ in range(rng.choice((1, 4, 50, 200))))
    else:
        del wall[:]


def m_option(record, rng):
    options = record.ruleset.options
    if rng.random() < 0.2:
        options.clear()
    options[rng.choice(_OPTION_NAMES)] = rng.choice(_OPTION_VALUES)


def m_ruleset(record, rng):
    record.ruleset.name = rng.choice(RULESETS + ("", "Hebei", "mahjong", "ningxiang "))


def m_claimed(record, rng):
    claimed = record.claimed
    op = rng.random()
    if op < 0.4:
        del claimed.payments[:]
        n = rng.choice((0, 1, 3, 4, 4, 5, 8, 129, 304))
        claimed.payments.extend(rng.choice(_INT64) if rng.random() < 0.3 else rng.randrange(-500, 500)
                                for _ in range(n))
    elif op < 0.6:
        del claimed.winners[:]
        claimed.winners.extend(rng.choice(_UINT32) for _ in range(rng.choice((0, 1, 2, 5))))
    elif op < 0.8:
        for _ in range(rng.choice((1, 3, 40))):
            random_message(claimed.patterns.add(), rng, 2)
    else:
        claimed.has_next_dealer = True
        claimed.next_dealer = rng.choice(_UINT32)


def m_players(record, rng):
    n = rng.choice((0, 1, 3, 5, 8, 200))
    del record.players[:]
    for i in range(n):
        record.players.add(player_id=f"p{i}")


def m_header(record, rng):
    fd = pb.GameRecord.DESCRIPTOR.fields_by_name[rng.choice(
        ("schema_version", "game_id", "dealer", "round_wind", "hand_index", "dice", "start_time_unix_ms"))]
    set_field(record, fd, rng)


RECORD_MUTATIONS = {
    "field": (m_field, 6), "enum": (m_enum, 3), "insert": (m_insert, 3), "delete": (m_delete, 2),
    "swap": (m_swap, 2), "duplicate": (m_duplicate, 2), "truncate": (m_truncate, 1), "seat": (m_seat, 1),
    "tile": (m_tile, 2), "wall": (m_wall, 1), "option": (m_option, 1), "ruleset": (m_ruleset, 1),
    "claimed": (m_claimed, 2), "players": (m_players, 1), "header": (m_header, 1),
}
_NAMES = tuple(RECORD_MUTATIONS)
_WEIGHTS = tuple(w for _f, w in RECORD_MUTATIONS.values())


def mutate_record(record: pb.GameRecord, rng: random.Random, count: int | None = None) -> list[str]:
    """Apply 1-3 (or `count`) random mutations in place; returns their names."""
    names = rng.choices(_NAMES, _WEIGHTS, k=count if count is not None else rng.choice((1, 1, 1, 2, 3)))
    for name in names:
        RECORD_MUTATIONS[name][0](record, rng)
    return names


# -- payload (byte) mutations ---------------------------------------------------------------------
def mutate_payload(data: bytes, rng: random.Random) -> bytes:
    """Bytes of a record damaged at the byte level: flips, cuts, inserts, repeats (framing is redone
    by the caller, so the checksums hold)."""
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4))):
        op = rng.random()
        if not b:
            b += rng.randbytes(rng.randrange(1, 16))
        elif op < 0.45:
            for _ in range(rng.choice((1, 1, 2, 8))):
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8) if rng.random() < 0.6 else rng.randrange(1, 256)
        elif op < 0.6:
            del b[rng.randrange(len(b)):]
        elif op < 0.75:
            i = rng.randrange(len(b) + 1)
            b[i:i] = rng.randbytes(rng.randrange(1, 12))
        elif op < 0.9:
            i = rng.randrange(len(b))
            j = min(len(b), i + rng.randrange(1, 64))
            b[i:i] = b[i:j]
        else:
            i = rng.randrange(len(b))
            del b[i:i + rng.randrange(1, 32)]
    return bytes(b)


# -- archives -------------------------------------------------------------------------------------
@dataclass
class ArchiveStats:
    """What write_archive put in: frames that are intact (each must come out as exactly one games
    or non-framing error row) and the damage between them."""
    frames: int = 0
    unmutated: int = 0
    record_mutations: int = 0
    byte_mutations: int = 0
    random_payloads: int = 0
    damage: dict = field(default_factory=dict)

    def hit(self, kind: str) -> None:
        self.damage[kind] = self.damage.get(kind, 0) + 1


def fuzzed_payload(bases: list[bytes], rng: random.Random, stats: ArchiveStats | None = None) -> bytes:
    """One payload: a base record unchanged (10%), mutated as a record (50%) or as bytes (35%),
    or random bytes (5%)."""
    r = rng.random()
    base = rng.choice(bases)
    kind = "unmutated"
    if r < 0.10:
        data = base
    elif r < 0.60:
        record = records.parse_binary(base)
        mutate_record(record, rng)
        data = record.SerializeToString(deterministic=True)
        kind = "record_mutations"
    elif r < 0.95:
        data = mutate_payload(base, rng)
        kind = "byte_mutations"
    else:
        data = rng.randbytes(rng.randrange(0, 300))
        kind = "random_payloads"
    if stats is not None:
        setattr(stats, kind, getattr(stats, kind) + 1)
    return data


def damage(rng: random.Random, framed: bytes, stats: ArchiveStats) -> bytes:
    """Bytes that break the framing, to put between two intact frames."""
    r = rng.random()
    if r < 0.3:
        stats.hit("garbage")
        return rng.randbytes(rng.randrange(1, 200))
    if r < 0.55:
        stats.hit("bad_payload_crc")
        b = bytearray(framed)
        b[rng.randrange(archive.HEADER_BYTES, len(b))] ^= 0x40
        return bytes(b)
    if r < 0.7:
        stats.hit("bad_length_crc")
        b = bytearray(framed)
        b[rng.randrange(0, archive.HEADER_BYTES)] ^= 0x01
        return bytes(b)
    if r < 0.85:
        stats.hit("cut_frame")
        return framed[: rng.randrange(1, len(framed))]
    stats.hit("zeros")
    return bytes(rng.choice((12, 16, 100, 4096)))


def fuzzed_archive(bases: list[bytes], n: int, seed: int, damage_every: int = 50,
                   stats: ArchiveStats | None = None, tail: bool = True) -> Iterator[bytes]:
    """The bytes of an archive of n fuzzed payloads (plus a few duplicated frames), in chunks,
    with framing damage after about one frame in `damage_every`, and (if `tail`) sometimes a
    truncated tail."""
    rng = random.Random(seed)
    stats = stats if stats is not None else ArchiveStats()
    last = b""
    for i in range(n):
        payload = fuzzed_payload(bases, rng, stats)
        framed = archive.frame(payload)
        if rng.random() < 0.01 and last:
            stats.hit("duplicated_frame")
            yield last  # the same record twice in a row: two records, two rows
            stats.frames += 1
        yield framed
        stats.frames += 1
        last = framed
        if damage_every and rng.random() < 1 / damage_every:
            yield damage(rng, framed, stats)
    if n and rng.random() < 0.5 and tail:
        stats.hit("truncated_tail")
        yield last[: rng.randrange(1, len(last))]


def write_archive(path, bases: list[bytes], n: int, seed: int, damage_every: int = 50) -> ArchiveStats:
    stats = ArchiveStats()
    with open(path, "wb") as fh:
        for chunk in fuzzed_archive(bases, n, seed, damage_every, stats):
            fh.write(chunk)
    return stats


def base_payloads(per_ruleset: int = 8, seed: int = 0, extra: Iterable[bytes] = ()) -> list[bytes]:
    """Clean records to mutate: self-play hands of every ruleset, plus any given."""
    from referee.simulate import simulate

    out = list(extra)
    for name in RULESETS:
        out += [records.to_binary(r) for r in simulate(name, per_ruleset, seed)]
    return out
