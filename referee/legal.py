"""The move generator: whether an action is legal for a seat now, and every legal action.

The judge (referee/referee.py) asks why a logged action is not legal; the simulator and the
trace ask for the whole legal set, which is built from the same checks, so the two can never
disagree. Each check returns None when the action is legal, else (code, detail). The order is
the same everywhere: the physical checks (tiles held, the wall), then the ruleset's `forbid`
hook, then the ready lock, then the declaration's own conditions.
"""
from __future__ import annotations

from itertools import compress

from referee import actions as A
from referee import tiles as T
from referee.rules.base import Ruleset
from referee.state import ADDED, BORROWED, CHI, CONCEALED, EXPOSED, KONG, PON, Meld, TableView, melds_key

KONG_KIND_BY_FROM_HAND = {4: CONCEALED, 3: EXPOSED, 1: ADDED, 0: BORROWED}  # (actions.KONG_FROM_HAND)

# (code, detail) when an action is not legal, else None. A detail that is costly to write (a
# hand in notation) is a function, written only when the issue becomes a finding.
Issue = tuple[str, str] | None
DISCARD_OF = tuple(A.Action(A.DISCARD, t) for t in range(T.KINDS))
KIND_RANGE = range(T.KINDS)
DRAW_ACTION = A.Action(A.DRAW)
PASS_ACTION = A.Action(A.PASS)
OPENING_READY = A.Action(A.OPENING_READY)
UNKNOWN_WAITS = (-1, ())  # (version, waits) of a seat not looked at yet: no seat's version is -1


def _chi_shapes(tile: int) -> tuple[tuple[int, int, int], ...]:
    """The sequences a suited tile completes: (lowest tile, the two others the hand must hold)."""
    if T.is_honor(tile):
        return ()
    lows = [tile - k for k in (2, 1, 0) if 1 <= T.rank_of(tile) - k <= 7]  # the sequence stays in the suit
    return tuple((low, *[t for t in (low, low + 1, low + 2) if t != tile]) for low in lows)


CHI_SHAPES = tuple(_chi_shapes(t) for t in range(T.KINDS))


class Legality:
    def __init__(self, table, rules, live, phase):
        self.table, self.rules = table, rules
        self.live = live  # () -> live tiles
        self.phase = phase  # () -> the current phase
        self.view = TableView(self)
        self._waits: list[tuple] = [UNKNOWN_WAITS] * 4  # per seat: (version, waits)
        self._hand_waits: dict[tuple, tuple[int, ...]] = {}  # (hand, melds) -> waits
        self._rooms: dict[tuple, list[int]] = {}  # melds -> room
        self._drawn_wins: list[tuple] = [UNKNOWN_WAITS] * 4  # per seat: (version, drawn tile in the waits)
        # Hooks a rule book keeps as the base has them (nothing forbidden, no instant hands, no
        # drawn wildcard, no 借子开杠) are not asked every time.
        self.forbids = type(rules).forbid is not Ruleset.forbid
        self.forbids_discards = self.forbids and rules.forbids_discards
        self.instant = type(rules).instant_hands is not Ruleset.instant_hands
        self.drawn_wild = type(rules).drawn_wild_wins is not Ruleset.drawn_wild_wins
        self.borrows = type(rules).may_borrow_kong is not Ruleset.may_borrow_kong  # 借子开杠
        self.discard_declares = tuple(k for k in rules.ready.declares if k in A.DISCARDS)  # 听 with a discard
        # chi_calls of each (seat, discarder): the rule book's and the table's, fixed for the hand.
        self.chi_from = [[self.chi_calls(seat, discarder) for discarder in range(4)] for seat in range(4)]

    # -- hands ------------------------------------------------------------------------------
    def room(self, melds) -> list[int] | None:
        """Copies each kind may still total in a concealed hand, where wilds could overstep it.
        Remembered per melds like the waits (and forgotten with them); each caller gets a copy."""
        table = self.table
        if not table.wilds:
            return None
        key = melds_key(melds)
        room = self._rooms.get(key)
        if room is None:
            room = [self.rules.copies - d for d in table.dead]
            for m in melds:
                for t in m.tiles:
                    room[t] -= 1
            room = self._rooms[key] = [max(r, 0) for r in room]  # a 借子杠 holds the indicator, already out of play
        return list(room)

    def is_win(self, hand: list[int], melds) -> bool:
        return self.rules.is_win(hand, melds, self.table.wilds, self.room(melds))

    def waits_of_hand(self, hand: list[int], melds) -> tuple[int, ...]:
        """The waits of any hand with these melds. With wilds they are remembered for this hand of
        play: the move generator asks for the same hands (after each possible discard) turn after
        turn, and for a seat's own waits once it has discarded; valid until the wilds (or the
        copies out of play, which only matter with wilds) change: forget_waits. Without wilds the
        kernel reads the hand in less time than the memo's key takes to make."""
        if not self.table.wilds:
            return self.rules.waits(hand, melds)
        key = (tuple(hand), melds_key(melds))
        found = self._hand_waits.get(key)
        if found is None:
            found = self._hand_waits[key] = self.rules.waits(hand, melds, self.table.wilds, self.room(melds))
        return found

    def waits(self, seat: int) -> tuple[int, ...]:
        """The seat's waits, looked up again only when its own tiles have changed (they are asked
        for on every other seat's discard); a draw then a discard of it finds them remembered."""
        s = self.table.seats[seat]
        cached = self._waits[seat]
        if cached[0] == s.version:
            return cached[1]  # untouched since: the usual case for the three seats not acting
        found = self.waits_of_hand(s.hand, s.melds)
        self._waits[seat] = (s.version, found)
        return found

    def waiting_on(self, tile: int, seats) -> bool:
        """Does any of these seats wait on the tile? `waits` of each, its cache read in place: every
        discard asks it of the three other seats."""
        cached, table_seats = self._waits, self.table.seats
        for seat in seats:
            known = cached[seat]
            if tile in (known[1] if known[0] == table_seats[seat].version else self.waits(seat)):
                return True
        return False

    def draw_wins(self, seat: int, tile: int) -> bool:
        """Is the tile the seat is drawing one of its waits? holds_win answers the same until the
        hand changes again: the draw counts one version (Replay.draw)."""
        wins = tile in self.waits(seat)
        self._drawn_wins[seat] = (self.table.seats[seat].version + 1, wins)
        return wins

    def forget_waits(self) -> None:
        """The wilds (or the copies out of play) changed: every cached wait and room is stale."""
        self._waits = [UNKNOWN_WAITS] * 4
        self._drawn_wins = [UNKNOWN_WAITS] * 4
        self._hand_waits = {}
        self._rooms = {}

    def hand_after_kong(self, seat: int, tile: int, from_hand: int) -> tuple[list[int], list[Meld]]:
        """The seat's hand and melds after a kong of the tile that takes `from_hand` tiles from its
        hand (its kind follows: an open kong keeps a hand open, as 大连's 开门 condition asks)."""
        s = self.table.seats[seat]
        after = list(s.hand)
        after[tile] -= from_hand
        melds = [m for m in s.melds if not (m.kind == PON and m.tile == tile)]
        return after, melds + [Meld(KONG, tile, None, KONG_KIND_BY_FROM_HAND[from_hand])]

    def opening(self, seat: int) -> bool:
        """Before the seat's first discard (起手)."""
        return self.table.deal_window or not self.table.seats[seat].discarded

    def holds_win(self, seat: int) -> bool:
        """is_win of the seat's hand, its drawn tile included: the drawn tile is one of the waits of
        the hand before it, which the draw looked up (and remembered), so no shape search is needed."""
        s = self.table.seats[seat]
        known = self._drawn_wins[seat]
        if known[0] == s.version:
            return known[1]  # the hand is as the draw left it
        drawn = s.drawn
        if drawn is None or not s.hand[drawn]:
            return self.is_win(s.hand, s.melds)
        before = list(s.hand)
        before[drawn] -= 1
        return drawn in self.waits_of_hand(before, s.melds)

    def self_wins(self, seat: int) -> bool:
        """Does the seat's hand (its drawn tile included) win as it stands?"""
        if self.holds_win(seat):
            return True
        s = self.table.seats[seat]
        return self.instant_win(seat) or \
            self.drawn_wild and s.drawn is not None and self.rules.drawn_wild_wins(self.view, seat, s.drawn)

    def instant_win(self, seat: int) -> bool:
        """Does the seat hold a hand that wins as it is, with no shape (宁乡's 起手 and 四王-like hands, NX-A4)?"""
        return self.instant and bool(self.instant_hands(seat))

    def instant_hands(self, seat: int) -> tuple[str, ...]:
        """The names of those hands the seat holds now (the rule book's instant_hands)."""
        s = self.table.seats[seat]
        return self.rules.instant_hands(self.view, s.hand, s.melds, self.opening(seat))

    # -- checks -----------------------------------------------------------------------------
    def why_not_discard(self, seat: int, action: A.Action) -> Issue:
        s, tile = self.table.seats[seat], action.tile
        if not s.hand[tile]:
            return "DISCARD_NOT_HELD", f"seat {seat} discarded {T.label(tile)} but holds {s.concealed()}"
        rules = self.rules
        issue = self.forbids_discards and rules.forbid(self.view, seat, DISCARD_OF[tile]) or (
            s.ready and rules.ready.lock_issue(self, seat, action))
        if issue or action.kind == A.DISCARD:
            return issue or None
        if action.kind not in rules.ready.declares:
            return "ILLEGAL_ACTION", f"{rules.name} has no {A.DECLARES[action.kind]} declaration with a discard"
        after = list(s.hand)
        after[tile] -= 1
        return rules.ready.declaration_issue(self, seat, action, after, s.melds)

    def why_not_self_win(self, seat: int, phase) -> Issue:
        s = self.table.seats[seat]
        if not phase.drew:
            return "FALSE_WIN", f"seat {seat} declared 自摸 without drawing a tile"
        if not self.self_wins(seat):
            return "FALSE_WIN", lambda: f"seat {seat} declared 自摸 with {s.concealed()}{melds_text(s)}, not a winning hand"
        return self.self_win_issue(seat, A.Action(A.SELF_WIN, s.drawn))

    def self_win_issue(self, seat: int, action: A.Action) -> Issue:
        """Why a self-drawn win whose shape holds is still not allowed: the common conditions and
        the rule book's own (a lock such as 封东), on the drawn tile or on a revealed 打筛 tile."""
        return self.win_issue(seat, action, action.tile) or self.rules.forbid(self.view, seat, action)

    def win_issue(self, seat: int, action: A.Action, tile: int | None) -> Issue:
        """The common conditions on any win beyond its shape: 漏胡 marks and the 听 requirement."""
        s = self.table.seats[seat]
        issue = self.rules.missed_win.issue(s, action, tile)
        if issue is None and self.rules.ready.required_to_win and not s.ready:
            issue = "WIN_WITHOUT_READY", f"seat {seat} has not declared 听 and may not win"
        return issue

    def why_not_own_kong(self, seat: int, action: A.Action, phase) -> Issue:
        s, tile, rules = self.table.seats[seat], action.tile, self.rules
        called = s.melds[-1].kind if s.melds else None  # (the turn of a call: the call just made)
        if not phase.drew and not (rules.kong_after_call and called in (PON, CHI)) and not (
                rules.kong_after_pon and action.kind in A.AFTER_PON_KONGS and called == PON):
            after = ", or a 补杠 right after a 碰" if rules.kong_after_pon else ""
            return "ILLEGAL_CALL", f"seat {seat} may not kong in the turn it called (only after a draw{after})"
        if action.kind == A.KONG_CONCEALED and s.hand[tile] != 4:
            return "ILLEGAL_CALL", f"暗杠 {T.label(tile)} needs four in hand; seat {seat} holds {s.hand[tile]}"
        if action.kind == A.KONG_ADDED and tile not in rules.added_kong_tiles(s.hand, s.melds, s.drawn):
            fourth = "in hand" if rules.added_kong_with_held_tile else "just drawn"
            return "ILLEGAL_CALL", f"补杠 {T.label(tile)} needs a 碰 of it and the fourth tile {fourth}"
        return self.why_not_kong_here(seat, action)

    def why_not_kong_here(self, seat: int, action: A.Action) -> Issue:
        """What any kong at this point must meet besides its timing and its tiles in hand: a 借子开杠's
        碰 of the 正王, the ruleset's kong resolution, its forbidden moves and the 听 lock."""
        rules = self.rules
        if action.kind == A.KONG_BORROWED and not rules.may_borrow_kong(self.view, seat, action.tile):
            return "ILLEGAL_CALL", f"借子开杠 {T.label(action.tile)} needs a 碰 of the 正王"
        return (rules.kong_draw.why_not_kong(self) or rules.forbid(self.view, seat, action)
                or rules.ready.lock_issue(self, seat, action))

    def borrowed_kongs(self, seat: int) -> list[A.Action]:
        """借子开杠 kongs the seat's melds allow (whether they may be made now: why_not_kong_here)."""
        rules = self.rules
        return [A.Action(A.KONG_BORROWED, m.tile) for m in self.table.seats[seat].melds
                if rules.may_borrow_kong(self.view, seat, m.tile)]

    def draw_actions(self, seat: int, phase) -> list[A.Action]:
        """A due draw; where the rule book has 借子开杠, a borrowed kong may take its place (the
        indicator is the turn's tile, so the hand keeps 3k+1 tiles and 打筛 follows, SPEC NX.2)."""
        legal = [DRAW_ACTION]
        if self.borrows and not phase.replacement:
            legal += [a for a in self.borrowed_kongs(seat) if self.why_not_kong_here(seat, a) is None]
        return legal

    def deal_actions(self, seat: int) -> list[A.Action]:
        """What a seat other than the dealer may declare in the deal window besides passing: 报听
        (NX.3) and a 起手 hand (NX-A4). 封东, open to every seat at any time, is no listed choice."""
        legal = [PASS_ACTION]
        ready = self.rules.ready
        if A.OPENING_READY in ready.declares and ready.declaration_issue(self, seat, OPENING_READY, None, None) is None:
            legal.append(OPENING_READY)
        if self.rules.deal_window_win(self.view, seat):
            legal.append(A.Action(A.SELF_WIN))
        return legal

    def why_not_ron(self, seat: int, tile: int, action: A.Action) -> Issue:
        s = self.table.seats[seat]
        if tile not in self.waits(seat):
            return "FALSE_WIN", lambda: (f"seat {seat} declared 胡 on {T.label(tile)} with {s.concealed()}"
                                         f"{melds_text(s)}, not a winning hand")
        return self.win_issue(seat, action, tile) or self.last_draws_issue(action) or \
            self.rules.forbid(self.view, seat, action)

    def last_draws_issue(self, action: A.Action) -> Issue:
        """No win on a discard made after one of the last live draws that win by self-draw only
        (哈尔滨 "最后四張牌打出后不點炮"): the discard followed a draw that left the live count now."""
        if action.kind == A.RON and self.rules.wall_end.ron_forbidden(self.live() + 1):
            last = self.rules.wall_end.self_draw_only_last
            return "RON_IN_LAST_DRAWS", (f"the discard comes after one of the last {last} live draws, which win by "
                                         f"self-draw only; nobody may win on it")
        return None

    def can_ron(self, seat: int, tile: int, action: A.Action | None = None) -> bool:
        if tile not in self.waits(seat):
            return False  # the common answer, found without building anything
        return self.why_not_ron(seat, tile, action or A.Action(A.RON, tile)) is None

    def why_not_call(self, seat: int, action: A.Action, discarder: int) -> Issue:
        s, tile, rules = self.table.seats[seat], action.tile, self.rules
        if action.kind in (A.CHI, A.CHI_READY):
            if not rules.chi_allowed:
                return "CHI_FORBIDDEN", f"seat {seat} took {T.label(tile)} by 吃; {rules.name} has no 吃"
            if action.kind == A.CHI_READY and A.CHI_READY not in rules.ready.declares:
                return "ILLEGAL_ACTION", f"{rules.name} has no 吃听 (a 吃 that declares 听)"
            if rules.chi_from_left_only and action.kind == A.CHI and seat != self.table.next_seat(discarder):
                return "CHI_NOT_FROM_LEFT", f"吃 only from the 上家; seat {discarder} is not seat {seat}'s 上家"
            claimed = self.phase().tile  # the discard the 吃 takes (the Claim window's)
            if tile not in self.chi_options(seat, claimed):  # the seat lacks one of the other two
                run = [tile, tile + 1, tile + 2]
                shown = [t for t in run if t != claimed]
                return "ILLEGAL_CALL", (f"吃 {T.format_tiles(run)} needs {T.format_tiles(shown)} in hand; "
                                        f"seat {seat} holds {s.concealed()}")
        elif action.kind == A.PON:
            if s.hand[tile] < 2:
                return "ILLEGAL_CALL", f"碰 {T.label(tile)} needs a pair; seat {seat} holds {s.hand[tile]}"
        else:
            if s.hand[tile] != 3:
                return "ILLEGAL_CALL", f"明杠 {T.label(tile)} needs three in hand; seat {seat} holds {s.hand[tile]}"
            issue = rules.kong_draw.why_not_kong(self)
            if issue:
                return issue
        return rules.forbid(self.view, seat, action) or rules.ready.lock_issue(self, seat, action) or (
            rules.ready.call_declaration_issue(self, seat, action) if action.kind == A.CHI_READY else None) or (
            self.stranding_issue(seat, action) if self.table.wilds and action.kind != A.KONG_EXPOSED else None)

    def stranding_issue(self, seat: int, action: A.Action) -> Issue:
        """A 吃 or 碰 after which the seat holds only tiles it may never discard (宁乡's 纯王, 推倒胡's
        鬼): the discard that must follow it has no legal tile."""
        s, tile = self.table.seats[seat], action.tile
        after = list(s.hand)
        claimed = self.phase().tile
        for t in (tile, tile) if action.kind == A.PON else (t for t in (tile, tile + 1, tile + 2) if t != claimed):
            after[t] -= 1
        held = list(compress(KIND_RANGE, after))
        forbid, view = self.rules.forbid, self.view
        if held and all(forbid(view, seat, DISCARD_OF[t]) for t in held):
            return "ILLEGAL_CALL", (f"after the {A.label(action)} seat {seat} would hold {T.format_tiles(held)}, none "
                                    f"of which it may discard")
        return None

    def every_issue(self, first: Issue, seat: int, action: A.Action) -> list[Issue]:
        """For a finding: the issue a why_not_ check stopped at, and each other rule the call or kong
        breaks that it hid (a 吃 from the wrong seat at four tiles is CHI_NOT_FROM_LEFT and
        CALL_AT_FOUR; a 听 seat's 碰 at four tiles is CALL_AT_FOUR and READY_CALL; a 碰 of one tile
        and a 鬼 is short of a pair and uses a wildcard, where the rule book forbids that), one per code."""
        if first is None:
            return []
        issues = [first]
        rules = self.rules
        for issue in (self.wild_meld_issue(seat, action), rules.forbid(self.view, seat, action),
                      rules.ready.lock_issue(self, seat, action)):
            if issue is not None and all(issue[0] != code for code, _ in issues):
                issues.append(issue)
        return issues

    def wild_meld_issue(self, seat: int, action: A.Action) -> Issue:
        """A 碰 or kong the seat holds too few of the kind for, which its wildcards would make up: the
        rule book's word on wilds in melds (推倒胡's WILD_IN_MELD; None where it says nothing)."""
        s, tile = self.table.seats[seat], action.tile
        ponned = action.kind == A.KONG_ADDED and any(m.kind == PON and m.tile == tile for m in s.melds)
        needs = {A.PON: 2, A.KONG_EXPOSED: 3, A.KONG_CONCEALED: 4}.get(action.kind, 1 if ponned else 5)
        if s.hand[tile] < needs <= s.hand[tile] + sum(s.hand[w] for w in self.table.wilds if w != tile):
            return self.rules.wild_meld_issue(self.view, seat, action)
        return None

    # -- legal action sets (for traces, the simulator, and explaining an illegal action) -----
    def must_win(self, seat: int) -> bool:
        """Is the seat in 托管 where the system must win for it (Ruleset.auto_play_wins, SPEC HB.3)?"""
        return self.rules.auto_play_wins and self.table.seats[seat].auto_play

    def for_auto_play(self, seat: int, legal: list[A.Action]) -> list[A.Action]:
        """A seat that must_win has one choice where it can win: the win (anything else is
        AUTO_WIN_MISSED)."""
        if self.must_win(seat):
            wins = [a for a in legal if a.kind in A.WINS]
            return wins or legal
        return legal

    def forced_win(self, seat: int, legal: list[A.Action]) -> bool:
        """Is this the set for_auto_play leaves a 托管 seat, its wins alone? (In a window, too, it
        may not decline.)"""
        return bool(legal) and self.must_win(seat) and all(a.kind in A.WINS for a in legal)

    def turn_actions(self, seat: int, phase) -> list[A.Action]:
        legal = self.free_turn_actions(seat, phase)
        return self.for_auto_play(seat, legal) if legal and legal[0].kind == A.SELF_WIN else legal

    def free_turn_actions(self, seat: int, phase) -> list[A.Action]:
        """turn_actions before the 托管 rule (for_auto_play)."""
        s, rules = self.table.seats[seat], self.rules
        # why_not_self_win is None, without writing the reason it is not:
        win = phase.drew and self.self_wins(seat) and A.Action(A.SELF_WIN, s.drawn)
        legal = [win] if win and self.self_win_issue(seat, win) is None else []
        if s.melds or 4 in s.hand:  # a kong needs four in hand, or a meld to add to or borrow with
            kongs = [A.Action(A.KONG_CONCEALED, t) for t, n in enumerate(s.hand) if n == 4] if 4 in s.hand else []
            kongs += [A.Action(A.KONG_ADDED, t) for t in rules.added_kong_tiles(s.hand, s.melds, s.drawn)]
            if self.borrows:
                kongs += self.borrowed_kongs(seat)
            legal += [a for a in kongs if self.why_not_own_kong(seat, a, phase) is None]
        # After a 吃听 every discard declares 听; otherwise a plain discard, or a declaration with it
        # where the hand after it may be ready (rules.ready_candidates, found without a wait search).
        declares = (A.READY_DISCARD,) if phase.ready_call else self.discard_declares
        ready = rules.ready_candidates(s.hand, s.melds, self.table.wilds) if declares and not s.ready else ()
        plain = not phase.ready_call
        # A held tile is a legal plain discard unless the ready lock or a rule book's hook says no
        # (why_not_discard): the lock names the kinds it still permits (None: any), the hook the
        # kinds forbid() may reject now, and only those are asked about.
        permitted = rules.ready.lock_discards(s) if plain and s.ready else None
        guarded = rules.guarded_discards(self.view, seat) if plain and self.forbids_discards else ()
        if plain and permitted is None and not ready and not any(map(s.hand.__getitem__, guarded)):
            legal += compress(DISCARD_OF, s.hand)  # each held kind's discard: none is guarded
            return legal
        forbid, view, refines_first = rules.forbid, self.view, rules.ready.refines_first
        for t in compress(KIND_RANGE, s.hand):
            discard = DISCARD_OF[t]
            if plain and (permitted is None or t in permitted) and (t not in guarded or not forbid(view, seat, discard)):
                legal.append(discard)
            if t in ready:
                for kind in declares:
                    action = A.Action(kind, t)
                    if self.why_not_discard(seat, action) is None:
                        legal.append(action)
                    elif refines_first:
                        break  # (the later declarations add conditions to this one)
        return legal

    def may_claim(self, seat: int, tile: int, discarder: int) -> bool:
        """False when claim_actions is only 过 for certain: the tile wins nothing for the seat, it
        holds fewer than two, and it completes no sequence it may take from the discarder (each
        is the first test of its action)."""
        return tile in self.waits(seat) or self.may_call(seat, tile, discarder)

    def may_call(self, seat: int, tile: int, discarder: int) -> bool:
        """may_claim without the win: a pair of the tile, or a sequence it completes and may take."""
        return self.table.seats[seat].hand[tile] >= 2 or bool(self.chi_from[seat][discarder]) and \
            bool(self.chi_options(seat, tile))

    def chi_calls(self, seat: int, discarder: int) -> tuple[str, ...]:
        """The calls that take a sequence which why_not_call's first tests allow the seat on this
        discarder's tile: 吃 where the rule book has it, from the 上家 only where it says so, and
        吃听 where it has that, from anyone."""
        rules = self.rules
        if not rules.chi_allowed:
            return ()
        chi = (A.CHI,) if not rules.chi_from_left_only or seat == self.table.next_seat(discarder) else ()
        return chi + ((A.CHI_READY,) if A.CHI_READY in rules.ready.declares else ())

    def claim_actions(self, seat: int, phase) -> list[A.Action]:
        tile = phase.tile
        legal = [A.Action(A.PASS)]
        wins = tile in self.waits(seat)
        held = self.table.seats[seat].hand[tile]  # a 碰 needs two, a 明杠 three (why_not_call's first check)
        lows = self.chi_options(seat, tile) if self.chi_from[seat][phase.discarder] else ()
        if not (wins or held >= 2 or lows):
            return legal  # the usual answer (may_claim), found without asking about each action
        if wins and self.can_ron(seat, tile):
            legal.append(A.Action(A.RON, tile))
        for kind, needs in ((A.PON, held >= 2), (A.KONG_EXPOSED, held == 3)):
            if needs and self.why_not_call(seat, A.Action(kind, tile), phase.discarder) is None:
                legal.append(A.Action(kind, tile))
        if lows:
            for kind in self.chi_from[seat][phase.discarder]:
                for low in lows:
                    if self.why_not_call(seat, A.Action(kind, low), phase.discarder) is None:
                        legal.append(A.Action(kind, low))
        return self.for_auto_play(seat, legal)

    def rob_actions(self, seat: int, phase) -> list[A.Action]:
        legal = [A.Action(A.PASS)]
        if self.can_ron(seat, phase.tile, A.Action(A.ROB_WIN, phase.tile)):
            legal.append(A.Action(A.ROB_WIN, phase.tile))
        return self.for_auto_play(seat, legal)

    def chi_options(self, seat: int, tile: int) -> list[int]:
        """Lowest tiles of the sequences the seat could complete with this tile."""
        hand = self.table.seats[seat].hand
        return [low for low, a, b in CHI_SHAPES[tile] if hand[a] and hand[b]]


def melds_text(s) -> str:
    return "".join(f" [{m}]" for m in s.melds)
