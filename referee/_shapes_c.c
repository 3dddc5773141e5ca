/* The shape kernels of referee/shapes.py, compiled: an optional accelerator.

   Each function answers from the same per-suit cost tables (shapes._C0, _C2) by the same
   arithmetic as its Python twin, which stays the reference: shapes.py binds these only when
   this module is built, and tests/test_shapes_c.py holds the two equal on every hand they try.
   Anything outside the hot case (keywords, a count that is not 0..4, another type of sequence,
   a hand too big for the spare-wild rule, a hand that may be the thirteen orphans with wilds) is
   handed back to the Python function, so errors and rare paths are the reference's own.

   Costs: C0 = fewest wilds completing a part into sets, C2 = into sets and one pair; a hand's
   cost is the sum of the C0s plus the cheapest (C2 - C0). 255 or more is impossible. Room that
   binds and allowed pair kinds give primed costs (C0', C2'), as shapes._CostHand prices them.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define KINDS 34
#define IMP 255

static PyObject *c0_table, *c2_table;  /* bytes, 5**9 entries each, indexed by a suit's base-5 counts */
static const unsigned char *C0, *C2;
static PyObject *win_fallback, *cost_fallback, *waits_fallback, *wild_waits_fallback, *pair_waits_fallback,
    *ready_fallback, *costs_fallback, *candidates_fallback;  /* the Python twins */
static PyObject *pair_bits;  /* shapes._pair_bits */
static long impossible;  /* shapes.IMPOSSIBLE */
static const int POW5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static int suit_index(const unsigned char *k) {
    int i = 0;
    for (int r = 8; r >= 0; r--)
        i = i * 5 + k[r];
    return i;
}

/* shapes._honor_costs: (C0, C2) of the 7 honor counts. */
static void honor_costs(const unsigned char *h, int *c0, int *c2) {
    int n0 = 0, n1 = 0, n2 = 0;
    for (int r = 0; r < 7; r++) {
        if (h[r] == 4) {
            *c0 = *c2 = IMP;
            return;
        }
        n0 += h[r] == 0;
        n1 += h[r] == 1;
        n2 += h[r] == 2;
    }
    *c0 = n1 + n1 + n2;
    *c2 = (n1 || n2) ? *c0 - 1 : (n0 ? *c0 + 2 : IMP);
}

/* The four parts' costs of a hand. */
typedef struct {
    int index[3];
    int c0[4], c2[4];
} Parts;

static void read_parts(const unsigned char *b, Parts *p) {
    for (int q = 0; q < 3; q++) {
        int i = p->index[q] = suit_index(b + 9 * q);
        p->c0[q] = C0[i];
        p->c2[q] = C2[i];
    }
    honor_costs(b + 27, &p->c0[3], &p->c2[3]);
}

/* The hand's cost with part q's costs replaced by (a, c). */
static int cost_with(const Parts *p, int q, int a, int c) {
    int total = 0, pair = 1 << 20;
    for (int part = 0; part < 4; part++) {
        int x = part == q ? a : p->c0[part], y = part == q ? c : p->c2[part];
        total += x;
        if (y - x < pair)
            pair = y - x;
    }
    return total + pair;
}

/* The hand's cost with one t more (step 1; t held fewer than 4 times) or one t less (step -1;
   t held): only t's part changes. */
static int cost_after(unsigned char *b, const Parts *p, int t, int step) {
    int q = t < 27 ? t / 9 : 3, a, c;
    if (q < 3) {
        int i = p->index[q] + step * POW5[t % 9];
        a = C0[i];
        c = C2[i];
    } else {
        b[t] += step;
        honor_costs(b + 27, &a, &c);
        b[t] -= step;
    }
    return cost_with(p, q, a, c);
}

/* The 34 counts of a sequence into b; 0 when it is no sequence of 34 counts 0..4. */
static int read_counts(PyObject *counts, unsigned char *b) {
    if (PyBytes_CheckExact(counts)) {
        if (PyBytes_GET_SIZE(counts) != KINDS)
            return 0;
        const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(counts);
        for (int t = 0; t < KINDS; t++) {
            if (s[t] > 4)
                return 0;
            b[t] = s[t];
        }
        return 1;
    }
    PyObject **items;
    if (PyList_CheckExact(counts)) {
        if (PyList_GET_SIZE(counts) != KINDS)
            return 0;
        items = ((PyListObject *)counts)->ob_item;
    } else if (PyTuple_CheckExact(counts)) {
        if (PyTuple_GET_SIZE(counts) != KINDS)
            return 0;
        items = ((PyTupleObject *)counts)->ob_item;
    } else {
        return 0;
    }
    for (int t = 0; t < KINDS; t++) {
        if (!PyLong_CheckExact(items[t]))
            return 0;
        int overflow;
        long v = PyLong_AsLongAndOverflow(items[t], &overflow);
        if (overflow || v < 0 || v > 4)
            return 0;
        b[t] = (unsigned char)v;
    }
    return 1;
}

static PyObject *fall_back(PyObject *function, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    return PyObject_Vectorcall(function, args, nargs, kwnames);
}

/* A count of wilds from `o`: 1 when it is an int from 0 to `most` (a negative count, or any
   other value, is the twin's to judge). */
static int read_wilds(PyObject *o, long most, long *wilds) {
    if (!PyLong_CheckExact(o))
        return 0;
    *wilds = PyLong_AsLong(o);
    if (*wilds < 0 || *wilds > most) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* The four part masks of kind_masks(): 0 when `masks` is no tuple of four ints that fit. */
static int read_allowed(PyObject *masks, unsigned long *allowed) {
    if (!PyTuple_CheckExact(masks) || PyTuple_GET_SIZE(masks) != 4)
        return 0;
    for (int q = 0; q < 4; q++) {
        PyObject *m = PyTuple_GET_ITEM(masks, q);
        if (!PyLong_CheckExact(m))
            return 0;
        allowed[q] = PyLong_AsUnsignedLong(m);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

/* Room and allowed pair kinds of a wait check (shapes._CostHand): caps per kind (4 where room
   cannot bind), which parts room lowers, and each part's allowed pair ranks. */
typedef struct {
    unsigned char caps[KINDS];
    int capped[4], ranks[4];
} Limits;

static const int PART_BITS[4] = {511, 511, 511, 127};
static const unsigned long long ALL_KINDS_BITS = (1ULL << KINDS) - 1;

/* The limits of `room` (None, or a list of 34 counts) and the 34-bit `pairs`: room that cannot
   bind (every kind it lowers below 4 keeps room for its naturals plus `extra`) is dropped, as
   shapes._binding_room drops it. 0 when `room` is anything else (the twin judges it). */
static int read_limits(PyObject *room, unsigned long long pairs, const unsigned char *b, long extra, Limits *L) {
    int binds = 0;
    for (int t = 0; t < KINDS; t++)
        L->caps[t] = 4;
    if (room != Py_None) {
        if (!PyList_CheckExact(room) || PyList_GET_SIZE(room) != KINDS)
            return 0;
        for (int t = 0; t < KINDS; t++) {
            PyObject *item = PyList_GET_ITEM(room, t);
            int overflow = 0;
            long cap = PyLong_CheckExact(item) ? PyLong_AsLongAndOverflow(item, &overflow) : -1;
            if (cap < 0 || cap > 255 || overflow)
                return 0;
            L->caps[t] = cap < 4 ? (unsigned char)cap : 4;
            binds |= cap < 4 && b[t] + extra > cap;
        }
    }
    for (int q = 0; q < 4; q++) {
        L->capped[q] = 0;
        L->ranks[q] = (int)(pairs >> (9 * q) & PART_BITS[q]);
    }
    if (!binds) {  /* (room that cannot bind changes nothing) */
        for (int t = 0; t < KINDS; t++)
            L->caps[t] = 4;
    } else {
        for (int t = 0; t < KINDS; t++)
            L->capped[t < 27 ? t / 9 : 3] |= L->caps[t] < 4;
    }
    return 1;
}

/* shapes._restricted_pair_cost: C2 of a suit (base-5 index i, counts k) whose pair is one of the
   ranks in `ranks`, from the tables; -1 when they cannot be sure (the twin's programme decides). */
static int restricted_pair_cost(const unsigned char *k, int i, int ranks) {
    int best = IMP, sure = 0;
    for (int r = 0; r < 9; r++) {
        if (!(ranks >> r & 1))
            continue;
        int n = k[r], m = n > 2 ? 2 : n;
        int rest = C0[i - m * POW5[r]], cost = rest + 2 - m;
        if (cost < best) {
            best = cost;
            sure = rest + n - m <= 2;
        } else if (cost == best && !sure) {
            sure = rest + n - m <= 2;
        }
    }
    return best >= IMP ? IMP : (sure ? best : -1);
}

/* shapes._suit_costs: (C0', C2') of one suit under room caps and allowed pair ranks, by the
   programme over ranks: state (a chows end here, b chows need this rank and the next, paired). */
static void suit_costs(const unsigned char *k, const unsigned char *cap, int ranks, int *c0, int *c2) {
    int cost[18], next[18];
    for (int st = 0; st < 18; st++)
        cost[st] = IMP;
    cost[0] = 0;
    for (int r = 0; r < 9; r++) {
        int n = k[r], room = cap[r], may_pair = ranks >> r & 1, chows = r <= 6 ? 2 : 0;
        for (int st = 0; st < 18; st++)
            next[st] = IMP;
        for (int st = 0; st < 18; st++) {
            if (cost[st] >= IMP)
                continue;
            int a = st / 6, held = st / 2 % 3, paired = st & 1;
            for (int s = 0; s <= chows; s++)  /* new chows (three equal chows are three pungs) */
                for (int pung = 0; pung <= 3; pung += 3)
                    for (int pair = 0; pair <= (may_pair && !paired ? 2 : 0); pair += 2) {
                        int f = a + held + s + pung + pair;  /* copies of this rank */
                        if (f > room || f < n)
                            continue;
                        int to = held * 6 + s * 2 + (paired || pair);
                        if (cost[st] + f - n < next[to])
                            next[to] = cost[st] + f - n;
                    }
        }
        for (int st = 0; st < 18; st++)
            cost[st] = next[st];
    }
    *c0 = cost[0];
    *c2 = cost[1];
}

/* shapes._honor_sets' lowest bits: (C0', C2') of the honors under room caps and pair kinds. */
static void honor_costs_limited(const unsigned char *h, const unsigned char *cap, int ranks, int *c0, int *c2) {
    int sets[7], pair[7], total = 0;
    for (int k = 0; k < 7; k++) {
        int n = h[k];
        sets[k] = n == 0 ? 0 : (n <= 3 && 3 <= cap[k] ? 3 - n : IMP);
        pair[k] = (ranks >> k & 1) && n <= 2 && 2 <= cap[k] ? 2 - n : IMP;
        total += sets[k];
    }
    *c0 = total < IMP ? total : IMP;
    *c2 = IMP;
    for (int j = 0; j < 7; j++) {
        int with = total - sets[j] + pair[j];
        if (pair[j] < IMP && total - sets[j] < IMP && with < *c2)
            *c2 = with;
    }
}

/* shapes._CostHand's part q of the counts b (p: its table costs): (C0', C2') under the limits,
   from the tables where nothing restricts the part, else the tables' sure restricted pair cost,
   else the programme (exact). */
static void part_costs_limited(const unsigned char *b, const Limits *L, const Parts *p, int q, int *c0, int *c2) {
    int plain = !L->capped[q] && L->ranks[q] == PART_BITS[q];
    int sets = p->c0[q], floor = p->c2[q], prog0 = -1, prog2 = -1;
    if (L->capped[q] || (!plain && floor < IMP && L->ranks[q])) {
        if (q < 3 && !L->capped[q]) {
            int sure = restricted_pair_cost(b + 9 * q, p->index[q], L->ranks[q]);
            if (sure >= 0) {
                *c0 = sets;
                *c2 = sure;
                return;
            }
        }
        if (q < 3)
            suit_costs(b + 9 * q, L->caps + 9 * q, L->ranks[q], &prog0, &prog2);
        else
            honor_costs_limited(b + 27, L->caps + 27, L->ranks[q], &prog0, &prog2);
    }
    *c0 = L->capped[q] ? prog0 : sets;
    if (floor >= IMP || plain)
        *c2 = floor;
    else if (!L->ranks[q])
        *c2 = IMP;
    else
        *c2 = prog2;
}

/* The fewest wilds completing b into sets and one pair under the limits (IMP or more: none). */
static int limited_cost(const unsigned char *b, const Limits *L) {
    Parts p;
    read_parts(b, &p);
    int sets[4], pairs[4], total = 0, cost = IMP;
    for (int part = 0; part < 4; part++) {
        part_costs_limited(b, L, &p, part, &sets[part], &pairs[part]);
        total += sets[part];
    }
    for (int part = 0; part < 4; part++)
        if (total - sets[part] + pairs[part] < cost)
            cost = total - sets[part] + pairs[part];
    return cost;
}

/* Kinds room lowers below 4: the spare-wild rule needs two free copies of each other kind
   (shapes._CostHand.fits). */
static int fits(const Limits *L, long tiles) {
    int low = 0;
    for (int t = 0; t < KINDS; t++)
        low += L->caps[t] < 4;
    return tiles <= 68 && tiles + 2 * low <= 2 * KINDS;
}

/* The standard waits under room and pair kinds (shapes._cost_waits on the table's candidates):
   wins[t] for each allowed t with room for one more. 0 when the hand is too big for the
   spare-wild rule (the twin's exact path). */
static int limited_waits(unsigned char *b, int size, long wilds, const Limits *L, const unsigned long *allowed,
                         unsigned char *wins) {
    if (!fits(L, size + wilds + 1))
        return 0;  /* (shapes._MAX_FAST_TILES too) */
    Parts p;
    read_parts(b, &p);
    if ((size + wilds + 1) % 3 != 2 || cost_with(&p, -1, 0, 0) > wilds + 1)
        return 1;  /* (a 3k+1 hand's cost is wilds + 1 mod 3; the tables' cost is a lower bound) */
    for (int t = 0; t < KINDS; t++) {
        int q = t < 27 ? t / 9 : 3;
        if (b[t] >= L->caps[t] || !(allowed[q] >> (t < 27 ? t % 9 : t - 27) & 1) || cost_after(b, &p, t, 1) > wilds)
            continue;
        b[t]++;
        wins[t] = limited_cost(b, L) <= wilds;
        b[t]--;
    }
    return 1;
}

/* The 34-bit mask of pair_kinds (None: every kind) by shapes._pair_bits; 0 when it raises (the
   twin raises its own error). */
static int read_pair_bits(PyObject *kinds, unsigned long long *bits) {
    *bits = ALL_KINDS_BITS;
    if (kinds == Py_None)
        return 1;
    PyObject *bits_obj = PyObject_CallOneArg(pair_bits, kinds);
    if (bits_obj == NULL) {
        PyErr_Clear();
        return 0;
    }
    *bits = PyLong_AsUnsignedLongLong(bits_obj);
    Py_DECREF(bits_obj);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* is_standard_win(counts, wilds=0, room=None, pair_kinds=None) */
static PyObject *is_standard_win(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    unsigned char b[KINDS];
    long wilds = 0;
    unsigned long long bits = ALL_KINDS_BITS;
    int plain = nargs >= 1 && kwnames == NULL && nargs <= 4 && read_counts(args[0], b);
    plain = plain && (nargs < 2 || read_wilds(args[1], 60, &wilds));
    plain = plain && (nargs < 4 || read_pair_bits(args[3], &bits));
    int size = 0;
    for (int t = 0; plain && t < KINDS; t++)
        size += b[t];
    Limits L;
    int limited = (nargs >= 3 && args[2] != Py_None) || bits != ALL_KINDS_BITS;
    if (!plain || size + wilds > 68 || (limited && !read_limits(args[2], bits, b, wilds, &L)))
        return fall_back(win_fallback, args, nargs, kwnames);
    Parts p;
    read_parts(b, &p);
    int cost = cost_with(&p, -1, 0, 0);
    if (cost > wilds || (wilds - cost) % 3)  /* the restrictions only remove completions */
        return PyBool_FromLong(0);
    if (limited) {  /* (room that cannot bind, or every pair kind, restricts nothing) */
        limited = 0;
        for (int q = 0; q < 4; q++)
            limited |= L.capped[q] || L.ranks[q] != PART_BITS[q];
    }
    if (!limited)
        return PyBool_FromLong(1);
    if ((size + wilds) % 3 != 2)
        return PyBool_FromLong(0);
    if (!fits(&L, size + wilds))
        return fall_back(win_fallback, args, nargs, kwnames);
    return PyBool_FromLong(limited_cost(b, &L) <= wilds);
}

/* shapes._seven_pairs_room_waits: t completing seven pairs of b + t with wilds, under caps. */
static void seven_pairs_room_waits(const unsigned char *b, long wilds, const unsigned char *caps,
                                   unsigned char *wins) {
    int singles = 0, over = 0, spare_room = 0;
    for (int t = 0; t < KINDS; t++) {
        int n = b[t], full = n + (n & 1);
        singles += n & 1;
        over += full > caps[t];
        spare_room += full <= caps[t] ? (caps[t] - full) / 2 : 0;
    }
    for (int t = 0; t < KINDS; t++) {
        int n = b[t], cap = caps[t];
        if (n >= cap)
            continue;
        int was_full = n + (n & 1), now_full = n + 1 + ((n + 1) & 1);
        int was_over = was_full > cap, now_over = now_full > cap;
        int was_spare = was_full <= cap ? (cap - was_full) / 2 : 0, now_spare = now_full <= cap ? (cap - now_full) / 2 : 0;
        long spare = wilds - (singles - (n & 1) + ((n + 1) & 1));
        if (over - was_over + now_over == 0 && spare >= 0 && spare % 2 == 0 &&
            spare / 2 <= spare_room - was_spare + now_spare)
            wins[t] = 1;
    }
}

/* The kinds marked in wins[] that `allowed` admits, as a tuple in kind order. */
static PyObject *allowed_kinds(const unsigned char *wins, const unsigned long *allowed) {
    PyObject *found[KINDS];
    Py_ssize_t n = 0;
    for (int t = 0; t < KINDS; t++) {
        int q = t < 27 ? t / 9 : 3, r = t < 27 ? t % 9 : t - 27;
        if (wins[t] && (allowed[q] >> r & 1))
            found[n++] = PyLong_FromLong(t);
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(out, i, found[i]);
    return out;
}

/* wild_waits(b, wilds, room, allowed, seven_pairs=False, thirteen_orphans=False, orphan_pair_kinds=None): the
   standard and seven-pairs waits with wilds from the costs, under room that binds as pair_waits
   prices it; a hand too big for the tables' spare-wild rule and any hand that may be the
   thirteen orphans go to Python. */
static PyObject *wild_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    unsigned char b[KINDS];
    unsigned long allowed[4];
    long wilds = -1;
    int plain = kwnames == NULL && nargs >= 4 && nargs <= 7 && PyBytes_CheckExact(args[0]) && read_counts(args[0], b) &&
                read_wilds(args[1], 60, &wilds) && read_allowed(args[3], allowed);
    int size = 0;
    for (int t = 0; plain && t < KINDS; t++)
        size += b[t];
    plain = plain && size + wilds + 1 <= 68;  /* shapes._MAX_FAST_TILES */
    Limits L;
    plain = plain && read_limits(args[2], ALL_KINDS_BITS, b, wilds + 1, &L);
    int seven_pairs = plain && nargs > 4 ? PyObject_IsTrue(args[4]) : 0;
    int orphans = plain && nargs > 5 ? PyObject_IsTrue(args[5]) : 0;
    if (seven_pairs < 0 || orphans < 0)
        return NULL;
    if (plain && orphans && size + wilds == 13) {  /* only terminals and honors: the twin's search */
        int strays = 0, missing = 0;
        for (int t = 0; t < 27; t++)
            strays += (t % 9 != 0 && t % 9 != 8) ? b[t] : 0;
        for (int k = 0; k < 13; k++)
            missing += b[ORPHANS[k]] == 0;
        plain = strays || missing > wilds + 1;
    }
    if (!plain)
        return fall_back(wild_waits_fallback, args, nargs, kwnames);

    unsigned char wins[KINDS] = {0};
    int capped = L.capped[0] || L.capped[1] || L.capped[2] || L.capped[3];
    if (capped) {
        if (!limited_waits(b, size, wilds, &L, allowed, wins))
            return fall_back(wild_waits_fallback, args, nargs, kwnames);
    } else {
        Parts p;
        read_parts(b, &p);
        /* One tile lowers a cost by at most 1: only a hand costing at most wilds + 1 may complete. */
        if (cost_with(&p, -1, 0, 0) <= wilds + 1) {
            for (int t = 0; t < KINDS; t++) {
                if (b[t] >= 4)
                    continue;  /* no fifth copy */
                int cost = cost_after(b, &p, t, 1);
                wins[t] = cost <= wilds && (wilds - cost) % 3 == 0;  /* spare wilds make sets of their own */
            }
        }
    }
    if (seven_pairs && size + wilds == 13) {  /* shapes._seven_pairs_wait_masks */
        int odd = 0;
        for (int t = 0; t < KINDS; t++)
            odd += b[t] & 1;
        if (odd - 1 <= wilds && capped)
            seven_pairs_room_waits(b, wilds, L.caps, wins);
        else if (odd - 1 <= wilds)
            for (int t = 0; t < KINDS; t++)  /* the tile pairs a single, or is one more for a wild */
                if ((b[t] & 1) || (odd + 1 <= wilds && (b[t] == 0 || b[t] == 2)))
                    wins[t] = 1;
    }
    return allowed_kinds(wins, allowed);
}

/* standard_cost(counts): fewest wilds completing the hand into sets and a pair (no room, any pair). */
static PyObject *standard_cost(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    unsigned char b[KINDS];
    if (kwnames != NULL || nargs != 1 || !read_counts(args[0], b))
        return fall_back(cost_fallback, args, nargs, kwnames);
    Parts p;
    read_parts(b, &p);
    int cost = cost_with(&p, -1, 0, 0);
    return PyLong_FromLong(cost < IMP ? cost : impossible);
}

/* pair_waits(b, wilds, room, allowed, pair_kinds): the standard waits whose pair is one of
   pair_kinds, under room: each part's costs from the tables, or where room or the pair kinds
   restrict it, from the programme (shapes._CostHand). A hand too big for the spare-wild rule
   goes to Python. */
static PyObject *pair_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    unsigned char b[KINDS];
    unsigned long allowed[4];
    long wilds = -1;
    int plain = kwnames == NULL && nargs == 5 && PyBytes_CheckExact(args[0]) && read_counts(args[0], b) &&
                read_wilds(args[1], 60, &wilds) && read_allowed(args[3], allowed);
    unsigned long long bits = 0;
    plain = plain && read_pair_bits(args[4], &bits);
    int size = 0;
    for (int t = 0; plain && t < KINDS; t++)
        size += b[t];
    Limits L;
    unsigned char wins[KINDS] = {0};
    if (!plain || !read_limits(args[2], bits, b, wilds + 1, &L) || !limited_waits(b, size, wilds, &L, allowed, wins))
        return fall_back(pair_waits_fallback, args, nargs, kwnames);
    return allowed_kinds(wins, allowed);
}

/* natural_waits(counts, allowed, seven_pairs=False, thirteen_orphans=False, orphan_pair_kinds=None): counts
   as bytes, a list or a tuple (read_counts); anything else, or a count outside 0..4, goes to the twin. */
static PyObject *natural_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    unsigned char b[KINDS];
    unsigned long allowed[4];
    int plain = kwnames == NULL && nargs >= 2 && nargs <= 5 && read_counts(args[0], b) && read_allowed(args[1], allowed);
    if (!plain)
        return fall_back(waits_fallback, args, nargs, kwnames);
    int seven_pairs = nargs >= 3 ? PyObject_IsTrue(args[2]) : 0;
    int orphans = nargs >= 4 ? PyObject_IsTrue(args[3]) : 0;
    if (seven_pairs < 0 || orphans < 0)
        return NULL;
    int size = 0;
    for (int t = 0; t < KINDS; t++)
        size += b[t];

    unsigned char wins[KINDS] = {0};
    Parts p;
    read_parts(b, &p);
    /* One tile lowers a cost by at most 1: only a hand costing 1 can win with one more. */
    if (cost_with(&p, -1, 0, 0) == 1) {
        for (int t = 0; t < KINDS; t++)
            wins[t] = b[t] < 4 && cost_after(b, &p, t, 1) == 0;  /* (no fifth copy) */
    }
    if (size == 13 && seven_pairs) {  /* the one single (or third copy) left unpaired */
        int odd = 0, last = -1;
        for (int t = 0; t < KINDS; t++)
            if (b[t] & 1) {
                odd++;
                last = t;
            }
        if (odd == 1)
            wins[last] = 1;
    }
    if (size == 13 && orphans) {
        int orphan_tiles = 0, missing = 0;
        for (int k = 0; k < 13; k++) {
            orphan_tiles += b[ORPHANS[k]];
            missing += b[ORPHANS[k]] == 0;
        }
        if (orphan_tiles == 13 && missing <= 1) {
            /* The duplicate's kinds: called back only here, which few hands reach. */
            PyObject *kinds = nargs >= 5 ? args[4] : Py_None;
            PyObject *bits_obj = PyObject_CallOneArg(pair_bits, kinds);
            if (bits_obj == NULL)
                return NULL;
            unsigned long long pair_ok = PyLong_AsUnsignedLongLong(bits_obj);
            Py_DECREF(bits_obj);
            if (PyErr_Occurred())
                return NULL;
            for (int k = 0; k < 13; k++) {
                int t = ORPHANS[k];
                if (b[t] >= 4)
                    continue;
                b[t]++;
                int doubles = 0, double_kind = -1, ok = 1;
                for (int j = 0; j < 13 && ok; j++) {
                    int n = b[ORPHANS[j]];
                    if (n > 2)
                        ok = 0;
                    else if (n == 2) {
                        doubles++;
                        double_kind = ORPHANS[j];
                    }
                }
                b[t]--;
                if (ok && doubles == 1 && (pair_ok >> double_kind & 1))
                    wins[t] = 1;
                /* (14 orphan tiles with none doubled cannot be: 13 kinds hold at most 13 singles.) */
            }
        }
    }
    return allowed_kinds(wins, allowed);
}

/* ready_discard_set(b, wilds): kinds t held with cost(b less t) <= wilds + 1, as a set. */
static PyObject *ready_discard_set(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    unsigned char b[KINDS];
    long wilds = -1;  /* (limits up to 201 stay below the tables' 255) */
    if (!(kwnames == NULL && nargs == 2 && PyBytes_CheckExact(args[0]) && read_counts(args[0], b) &&
          read_wilds(args[1], 200, &wilds)))
        return fall_back(ready_fallback, args, nargs, kwnames);
    int limit = (int)wilds + 1;
    Parts p;
    read_parts(b, &p);
    PyObject *out = PySet_New(NULL);
    if (out == NULL)
        return NULL;
    for (int t = 0; t < KINDS; t++) {
        if (b[t] && cost_after(b, &p, t, -1) <= limit) {
            PyObject *kind = PyLong_FromLong(t);
            if (PySet_Add(out, kind) < 0) {
                Py_DECREF(kind);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(kind);
        }
    }
    return out;
}

/* ready_candidates(counts, wilds, seven_pairs, thirteen_orphans): ready_discard_set's kinds, plus
   those a discard of which may leave seven pairs (at most wilds + 1 singles) or the thirteen
   orphans (no stray natural, twelve orphan kinds less one per wild) one tile from complete. */
static PyObject *ready_candidates(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    unsigned char b[KINDS];
    long wilds = -1;
    if (!(kwnames == NULL && nargs == 4 && read_counts(args[0], b) && read_wilds(args[1], 200, &wilds)))
        return fall_back(candidates_fallback, args, nargs, kwnames);
    int seven_pairs = PyObject_IsTrue(args[2]), orphans = PyObject_IsTrue(args[3]);
    if (seven_pairs < 0 || orphans < 0)
        return NULL;
    int limit = (int)wilds + 1, singles = 0, empty = 0, strays = 0;
    unsigned char found[KINDS] = {0}, orphan[KINDS] = {0};
    for (int k = 0; k < 13; k++)
        orphan[ORPHANS[k]] = 1;
    Parts p;
    read_parts(b, &p);
    for (int t = 0; t < KINDS; t++) {
        empty += b[t] == 0;
        singles += b[t] & 1;
        strays += orphan[t] ? 0 : b[t];
        if (b[t] && cost_after(b, &p, t, -1) <= limit)
            found[t] = 1;
    }
    if (seven_pairs && singles - 1 <= limit)
        for (int t = 0; t < KINDS; t++)
            if (b[t] && singles + ((b[t] & 1) ? -1 : 1) <= limit)
                found[t] = 1;
    if (orphans && empty <= KINDS - 12 + wilds && strays <= 1)
        for (int t = 0; t < KINDS; t++)  /* the stray, or else every orphan held */
            if (b[t] && (strays ? !orphan[t] : orphan[t]))
                found[t] = 1;
    PyObject *out = PySet_New(NULL);
    if (out == NULL)
        return NULL;
    for (int t = 0; t < KINDS; t++) {
        if (!found[t])
            continue;
        PyObject *kind = PyLong_FromLong(t);
        if (kind == NULL || PySet_Add(out, kind) < 0) {
            Py_XDECREF(kind);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(kind);
    }
    return out;
}

/* discard_costs(counts): {t: cost of the hand less one t} for each kind held, in kind order. */
static PyObject *discard_costs(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    unsigned char b[KINDS];
    if (kwnames != NULL || nargs != 1 || !read_counts(args[0], b))
        return fall_back(costs_fallback, args, nargs, kwnames);
    Parts p;
    read_parts(b, &p);
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (int t = 0; t < KINDS; t++) {
        if (!b[t])
            continue;
        int cost = cost_after(b, &p, t, -1);
        PyObject *kind = PyLong_FromLong(t), *value = PyLong_FromLong(cost < IMP ? cost : impossible);
        int failed = kind == NULL || value == NULL || PyDict_SetItem(out, kind, value) < 0;
        Py_XDECREF(kind);
        Py_XDECREF(value);
        if (failed) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* init(c0, c2, impossible, pair_bits, twins): the tables, shapes.IMPOSSIBLE, shapes._pair_bits,
   and {name: Python function} of the twins to hand the rare cases to. */
static PyObject *init(PyObject *self, PyObject *args) {
    PyObject *c0, *c2, *bits, *twins;
    if (!PyArg_ParseTuple(args, "SSlOO!", &c0, &c2, &impossible, &bits, &PyDict_Type, &twins))
        return NULL;
    if (PyBytes_GET_SIZE(c0) != 1953125 || PyBytes_GET_SIZE(c2) != 1953125) {
        PyErr_SetString(PyExc_ValueError, "the cost tables hold 5**9 entries each");
        return NULL;
    }
    const char *names[8] = {"is_standard_win", "standard_cost", "natural_waits", "wild_waits", "pair_waits",
                            "ready_discard_set", "discard_costs", "ready_candidates"};
    PyObject **fallbacks[8] = {&win_fallback, &cost_fallback, &waits_fallback, &wild_waits_fallback,
                               &pair_waits_fallback, &ready_fallback, &costs_fallback, &candidates_fallback};
    for (int i = 0; i < 8; i++) {
        PyObject *twin = PyDict_GetItemString(twins, names[i]);
        if (twin == NULL) {
            PyErr_Format(PyExc_KeyError, "no Python twin for %s", names[i]);
            return NULL;
        }
        Py_INCREF(twin);
        Py_XSETREF(*fallbacks[i], twin);
    }
    PyObject *held[3] = {c0, c2, bits};
    PyObject **slots[3] = {&c0_table, &c2_table, &pair_bits};
    for (int i = 0; i < 3; i++) {
        Py_INCREF(held[i]);
        Py_XSETREF(*slots[i], held[i]);
    }
    C0 = (const unsigned char *)PyBytes_AS_STRING(c0_table);
    C2 = (const unsigned char *)PyBytes_AS_STRING(c2_table);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", init, METH_VARARGS, "Give the kernels the cost tables and their Python twins."},
    {"is_standard_win", (PyCFunction)(void (*)(void))is_standard_win, METH_FASTCALL | METH_KEYWORDS,
     "shapes.is_standard_win, compiled."},
    {"standard_cost", (PyCFunction)(void (*)(void))standard_cost, METH_FASTCALL | METH_KEYWORDS,
     "shapes.standard_cost, compiled for calls without room or pair kinds."},
    {"natural_waits", (PyCFunction)(void (*)(void))natural_waits, METH_FASTCALL | METH_KEYWORDS,
     "shapes.natural_waits, compiled."},
    {"wild_waits", (PyCFunction)(void (*)(void))wild_waits, METH_FASTCALL | METH_KEYWORDS,
     "shapes.wild_waits, compiled."},
    {"pair_waits", (PyCFunction)(void (*)(void))pair_waits, METH_FASTCALL | METH_KEYWORDS,
     "shapes.pair_waits, compiled."},
    {"ready_discard_set", (PyCFunction)(void (*)(void))ready_discard_set, METH_FASTCALL | METH_KEYWORDS,
     "shapes.ready_discard_set, compiled."},
    {"discard_costs", (PyCFunction)(void (*)(void))discard_costs, METH_FASTCALL | METH_KEYWORDS,
     "shapes.discard_costs, compiled."},
    {"ready_candidates", (PyCFunction)(void (*)(void))ready_candidates, METH_FASTCALL | METH_KEYWORDS,
     "shapes.ready_candidates, compiled."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "referee._shapes_c", NULL, -1, methods};

PyMODINIT_FUNC PyInit__shapes_c(void) { return PyModule_Create(&module); }
