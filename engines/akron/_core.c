/* Akron's compiled core: the rules of rules.py (covered balls, playable points, visible
 * groups, drops, destinations), the legal moves of board.py, the connection distance
 * and the win of distance.py, the random playout of playout.py, the search's expansion
 * of a node (listing, shuffling, ranking and sorting its moves, policy.py) and the
 * search's whole tree (search.py's Tree), in C. The Python code stays the reference:
 * the same position gives the same moves in the same order, the same distances and
 * paths, and the same seed the same draws and the same tree (see compiled.py, and
 * tests/test_akron_compiled.py).
 *
 * A set of points is a mask with a bit per point index, as in Python (204 points in
 * four 64-bit words). The pyramid's shape (each point's place, what rests on what, the
 * bridges over each contact) comes from geometry.py once (setup), so the shape stays
 * written once. */
/* The search's selection and values must round as Python's floats do, one operation at
 * a time, for the compiled tree to walk as the Python one: no fused multiply-add, which
 * GCC makes by default where the processor has one (arm64, the Pi's). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 256
#define WORDS (MAX_POINTS / 64)
#define LEVELS 8
#define SPAN 16                     /* the doubled grid's 15 columns and rows fit */
#define WALL (1 << 20)              /* distance.WALL: no path */
#define DRAW (-1)                   /* a playout's result without a winner */
#define FAILED (-2)                 /* an exception is set */

typedef struct { uint64_t w[WORDS]; } points_t;
typedef struct { int neighbour; points_t bridges; } side_t;

/* --- the shape, from geometry.py --------------------------------------------------- */
static int point_count;
static int level_of[MAX_POINTS], x_of[MAX_POINTS], y_of[MAX_POINTS];
static int at[LEVELS][SPAN][SPAN];      /* geometry.AT: the point at (level, x, y), or -1 */
static points_t below[MAX_POINTS], above[MAX_POINTS], touching_at[MAX_POINTS];
static int under[MAX_POINTS];           /* geometry.UNDER */
static int over[MAX_POINTS];            /* the point straight two levels above, or -1 */
static side_t sides[MAX_POINTS][4];     /* geometry.SIDES */
static int side_count[MAX_POINTS];
static points_t hole_mask;
static points_t goal[2][2];             /* each player's two sides, as points */
static PyObject *placement_of[MAX_POINTS];  /* board.Placement by hole, handed back */
static PyObject *movement_class;            /* board.Movement, made once a move */
static PyObject *pass_object;               /* engines.core.PASS */
static PyObject **movement_of;              /* [source * point_count + target] */
static int ready;

/* --- point masks ------------------------------------------------------------------- */
static inline int has(const points_t *m, int p) { return m->w[p >> 6] >> (p & 63) & 1; }
static inline void put(points_t *m, int p) { m->w[p >> 6] |= (uint64_t)1 << (p & 63); }
static inline void take(points_t *m, int p) { m->w[p >> 6] &= ~((uint64_t)1 << (p & 63)); }

static inline points_t both(points_t a, points_t b) {
    for (int i = 0; i < WORDS; i++) a.w[i] &= b.w[i];
    return a;
}
static inline points_t either(points_t a, points_t b) {
    for (int i = 0; i < WORDS; i++) a.w[i] |= b.w[i];
    return a;
}
static inline points_t except(points_t a, points_t b) {
    for (int i = 0; i < WORDS; i++) a.w[i] &= ~b.w[i];
    return a;
}
static inline int none(points_t a) { return !(a.w[0] | a.w[1] | a.w[2] | a.w[3]); }
static inline int same(points_t a, points_t b) {
    return !memcmp(&a, &b, sizeof a);
}
static inline int count_of(points_t a) {
    int n = 0;
    for (int i = 0; i < WORDS; i++) n += __builtin_popcountll(a.w[i]);
    return n;
}

/* The lowest point of ``m``, taken out of it; -1 when it is empty. Loops over a mask's
 * points in index order, the order of geometry.points_of. */
static int pop_lowest(points_t *m) {
    for (int i = 0; i < WORDS; i++)
        if (m->w[i]) {
            int bit = __builtin_ctzll(m->w[i]);
            m->w[i] &= m->w[i] - 1;
            return i * 64 + bit;
        }
    return -1;
}

static int highest(points_t m) {
    for (int i = WORDS - 1; i >= 0; i--)
        if (m.w[i]) return i * 64 + 63 - __builtin_clzll(m.w[i]);
    return -1;
}

/* The points of ``m`` in index order into ``out``; how many. */
static int list_points(points_t m, int *out) {
    int n = 0;
    for (int p; (p = pop_lowest(&m)) >= 0;) out[n++] = p;
    return n;
}

/* --- Python ints and masks ---------------------------------------------------------- */
#define MOST_WORDS 32  /* the largest int handed either way: a set in the grid layout */

static int read_words(PyObject *value, uint64_t *words, int count) {
    unsigned char bytes[MOST_WORDS * 8];
    size_t size = (size_t)count * 8;
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a mask is an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t needed = PyLong_AsNativeBytes(
        value, bytes, (Py_ssize_t)size, Py_ASNATIVEBYTES_LITTLE_ENDIAN
        | Py_ASNATIVEBYTES_UNSIGNED_BUFFER | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (needed < 0) return -1;
    if ((size_t)needed > size) {
        PyErr_SetString(PyExc_OverflowError, "a mask beyond the pyramid");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)value, bytes, size, 1, 0) < 0) return -1;
#endif
    for (int i = 0; i < count; i++) {
        words[i] = 0;
        for (int b = 0; b < 8; b++) words[i] |= (uint64_t)bytes[i * 8 + b] << (8 * b);
    }
    return 0;
}

static int read_points(PyObject *value, points_t *out) { return read_words(value, out->w, WORDS); }

static PyObject *as_int(const uint64_t *words, int count) {
    unsigned char bytes[MOST_WORDS * 8];
    for (int i = 0; i < count; i++)
        for (int b = 0; b < 8; b++) bytes[i * 8 + b] = (unsigned char)(words[i] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, (size_t)count * 8,
                                          Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, (size_t)count * 8, 1, 0);
#endif
}

/* --- the rules (rules.py) ---------------------------------------------------------- */

/* rules.playable_points: the empty holes, and the empty points on four filled ones. */
static points_t playable_points(points_t occupied) {
    points_t held_up = {{0}}, left = occupied;
    for (int p; (p = pop_lowest(&left)) >= 0;) held_up = either(held_up, above[p]);
    points_t playable = except(hole_mask, occupied);
    points_t candidates = except(held_up, occupied);
    for (int p; (p = pop_lowest(&candidates)) >= 0;)
        if (same(both(below[p], occupied), below[p])) put(&playable, p);
    return playable;
}

/* rules.covered_by: the balls with a ball straight two levels above them. */
static points_t covered_by(points_t occupied) {
    points_t covered = {{0}}, upper = except(occupied, hole_mask);
    for (int p; (p = pop_lowest(&upper)) >= 0;)
        if (under[p] >= 0) put(&covered, under[p]);
    return covered;
}

/* rules.visible_neighbours: the own balls a visible ball at ``point`` touches. */
static points_t visible_neighbours(int point, points_t own, points_t occupied,
                                   points_t covered) {
    points_t found = both(either(below[point], above[point]), own);
    for (int s = 0; s < side_count[point]; s++) {
        const side_t *side = &sides[point][s];
        if (has(&own, side->neighbour) && !same(both(occupied, side->bridges), side->bridges))
            put(&found, side->neighbour);
    }
    return except(found, covered);
}

/* rules.group_of: the balls joined to ``start`` by visible contacts, itself included. */
static points_t group_of(int start, points_t own, points_t occupied, points_t covered) {
    points_t group = {{0}}, frontier = {{0}};
    put(&group, start);
    put(&frontier, start);
    /* Python pops its frontier from the end; the group found is the same either way. */
    for (int p; (p = pop_lowest(&frontier)) >= 0;) {
        points_t found = except(visible_neighbours(p, own, occupied, covered), group);
        group = either(group, found);
        frontier = either(frontier, found);
    }
    return group;
}

/* rules.groups: the visible groups of ``own``, lowest ball first; how many. */
static int groups_of(points_t own, points_t occupied, points_t covered, points_t *out) {
    points_t left = except(own, covered);
    int n = 0;
    for (int p; (p = pop_lowest(&left)) >= 0;) {
        out[n] = group_of(p, own, occupied, covered);
        left = except(left, out[n++]);
    }
    return n;
}

/* geometry.step_up: the point one level above ``toward`` on the diagonal from ``point``
 * through it, or -1 off the pyramid. */
static int step_up(int point, int toward) {
    int level = level_of[toward] + 1, x = 2 * x_of[toward] - x_of[point],
        y = 2 * y_of[toward] - y_of[point];
    if (level >= LEVELS || x < 0 || y < 0 || x >= SPAN || y >= SPAN) return -1;
    return at[level][x][y];
}

/* rules.drop_chain: the balls that drop when the ball at ``point`` leaves, lowest
 * first, into ``chain``; how many. */
static int drop_chain(int point, points_t occupied, int *chain) {
    int n = 0, lower = point;
    points_t resting = both(above[point], occupied);
    while (!none(resting)) {
        int upper = highest(resting);
        chain[n++] = upper;
        int next = step_up(lower, upper);
        lower = upper;
        resting = (points_t){{0}};
        if (next >= 0 && has(&occupied, next)) put(&resting, next);
    }
    return n;
}

/* rules.destinations: where the ball at ``source`` may go. ``groups`` are the mover's
 * visible groups in this position. */
static points_t destinations(int source, points_t mine, points_t occupied,
                             const points_t *groups, int group_count, points_t playable) {
    int chain[LEVELS];
    int drops = drop_chain(source, occupied, chain);
    points_t gone = {{0}}, barred = {{0}};
    for (int i = 0; i < drops; i++) {
        put(&gone, chain[i]);
        barred = either(barred, above[chain[i]]);
    }
    points_t group = {{0}};
    if (!none(both(gone, mine))) {  /* one of the mover's balls drops: no link of a path */
        group = group_of(source, except(mine, gone), occupied, covered_by(occupied));
    } else {
        for (int g = 0; g < group_count; g++)
            if (has(&groups[g], source)) { group = groups[g]; break; }
    }
    /* rules.reach_of: what some ball of the group touches, and what two or more do. */
    points_t once = {{0}}, twice = {{0}};
    for (int p; (p = pop_lowest(&group)) >= 0;) {
        twice = either(twice, both(once, touching_at[p]));
        once = either(once, touching_at[p]);
    }
    /* What the other balls of the group touch: all but the source's own contacts, save
     * those another ball shares. */
    points_t own = touching_at[source];
    points_t near = either(except(once, own), both(twice, own));
    return except(except(both(near, playable), above[source]), barred);
}

/* rules.move_ball: the ball at ``source`` to ``target``, the balls above it dropping
 * one step each along their diagonal. */
static void move_ball(points_t own[2], int player, int source, int target) {
    int places[LEVELS + 1];
    places[0] = source;
    int drops = drop_chain(source, either(own[0], own[1]), places + 1);
    take(&own[player], source);
    for (int i = 0; i < drops; i++) {
        int owner = has(&own[0], places[i + 1]) ? 0 : 1;
        take(&own[owner], places[i + 1]);
        put(&own[owner], places[i]);
    }
    put(&own[player], target);
}

/* A move as a number: a ball added to ``target`` is ``target``, a ball moved is
 * ``(source + 1) * MAX_POINTS + target``. */
#define ADDED(target) (target)
#define MOVED(source, target) (((source) + 1) * MAX_POINTS + (target))

/* board.generate_legal_moves: the placements while the supply lasts, then each movable
 * ball's moves, in the board's order; how many (``moves`` holds MAX_MOVES). */
#define MAX_MOVES (MAX_POINTS * MAX_POINTS)
static int move_buffer[MAX_MOVES];  /* one listing at a time: the GIL is held throughout */
static int legal(const points_t own[2], int supply, int player, int *moves) {
    int n = 0;
    points_t occupied = either(own[0], own[1]), mine = own[player];
    if (supply) {
        points_t holes = except(hole_mask, occupied);
        for (int p; (p = pop_lowest(&holes)) >= 0;) moves[n++] = ADDED(p);
    }
    points_t covered = covered_by(occupied), playable = playable_points(occupied);
    points_t groups[MAX_POINTS];
    int group_count = groups_of(mine, occupied, covered, groups);
    points_t balls = mine;
    for (int source; (source = pop_lowest(&balls)) >= 0;) {
        if (count_of(both(above[source], occupied)) > 1) continue;  /* pinned */
        points_t targets = destinations(source, mine, occupied, groups, group_count, playable);
        for (int target; (target = pop_lowest(&targets)) >= 0;)
            moves[n++] = MOVED(source, target);
    }
    return n;
}

/* --- the connection distance and the win (distance.py) ------------------------------ */
/* distance.py grows sets of points a layer of cost at a time by shifts of one big
 * integer in a grid layout, which suits Python; here the same least costs come from a
 * search over each point's contacts, cost level by cost level, which visits each point
 * a few times rather than every bit of the layout at every step. The answers are
 * distance.py's: the points of its k-th layer are those of least cost k or less. */

#define UNREACHED (1 << 28)

/* What each point costs a player (Layout.costs): nothing for their visible ball, one for
 * a playable point or their ball covered by their own, and no way through otherwise. */
typedef struct { points_t occupied, free, one; } costs_t;

static costs_t costs_of(const points_t own[2], int player, int with_one) {
    costs_t costs = {{{0}}, {{0}}, {{0}}};
    costs.occupied = either(own[0], own[1]);
    points_t covered = covered_by(costs.occupied), mine = own[player];
    costs.free = except(mine, covered);
    if (!with_one) return costs;  /* the win goes through free points alone */
    costs.one = playable_points(costs.occupied);
    points_t held = both(mine, covered);
    for (int p; (p = pop_lowest(&held)) >= 0;)
        if (over[p] >= 0 && has(&mine, over[p])) put(&costs.one, p);  /* covered by own */
    return costs;
}

static inline int cost_of(const costs_t *costs, int point) {
    return has(&costs->free, point) ? 0 : has(&costs->one, point) ? 1 : -1;
}

/* The least cost to each point from the points of ``start`` (each counting its own
 * cost), through contacts as Layout.touching has them: beside on one level unless two
 * bridges over it cut it, and resting on or under. Points are taken up cost by cost:
 * ``now`` those of the current cost, ``later`` those one more. */
static void least_costs(const costs_t *costs, points_t start, int *cost) {
    int now[MAX_POINTS], later[MAX_POINTS], now_count = 0, later_count = 0;
    for (int p = 0; p < point_count; p++) cost[p] = UNREACHED;
    for (int p; (p = pop_lowest(&start)) >= 0;) {
        int c = cost_of(costs, p);
        if (c < 0) continue;
        cost[p] = c;
        if (c) later[later_count++] = p;
        else now[now_count++] = p;
    }
    for (int level = 0; now_count || later_count; level++) {
        while (now_count) {
            int p = now[--now_count];
            if (cost[p] != level) continue;  /* reached more cheaply since */
            int contacts[12], contact_count = 0;
            for (int s = 0; s < side_count[p]; s++)
                if (!same(both(costs->occupied, sides[p][s].bridges), sides[p][s].bridges))
                    contacts[contact_count++] = sides[p][s].neighbour;
            points_t resting = either(below[p], above[p]);
            for (int q; (q = pop_lowest(&resting)) >= 0;) contacts[contact_count++] = q;
            for (int i = 0; i < contact_count; i++) {
                int q = contacts[i], c = cost_of(costs, q);
                if (c < 0 || level + c >= cost[q]) continue;
                cost[q] = level + c;
                if (c) later[later_count++] = q;
                else now[now_count++] = q;
            }
        }
        memcpy(now, later, sizeof(int) * (size_t)later_count);
        now_count = later_count;
        later_count = 0;
    }
}

/* The least cost of the points of ``side`` (WALL: none reached). */
static int least_on(const int *cost, points_t side) {
    int best = WALL;
    for (int p; (p = pop_lowest(&side)) >= 0;)
        if (cost[p] < best) best = cost[p];
    return best;
}

/* Layout.joins: whether ``player``'s visible balls join their sides (the win). */
static int joins(const points_t own[2], int player) {
    int cost[MAX_POINTS];
    costs_t costs = costs_of(own, player, 0);
    least_costs(&costs, goal[player][0], cost);
    return least_on(cost, goal[player][1]) == 0;
}

/* Layout.distance: the balls ``player`` needs at the least (WALL: no path). */
static int distance(const points_t own[2], int player) {
    int cost[MAX_POINTS];
    costs_t costs = costs_of(own, player, 1);
    least_costs(&costs, goal[player][0], cost);
    return least_on(cost, goal[player][1]);
}

/* Layout.shortest: ``player``'s distance, and into ``on_path`` the points on their
 * shortest paths (none when no path joins their sides): a point whose least costs from
 * the two sides add up to the distance, its own cost counted once. */
static int shortest(const points_t own[2], int player, points_t *on_path) {
    int from_start[MAX_POINTS], from_end[MAX_POINTS];
    costs_t costs = costs_of(own, player, 1);
    *on_path = (points_t){{0}};
    least_costs(&costs, goal[player][0], from_start);
    int best = least_on(from_start, goal[player][1]);
    if (best == WALL) return WALL;
    least_costs(&costs, goal[player][1], from_end);
    for (int p = 0; p < point_count; p++) {
        if (from_start[p] > best) continue;
        int own_cost = cost_of(&costs, p);
        if (from_start[p] + from_end[p] - own_cost <= best) put(on_path, p);
    }
    return best;
}

/* A set of points in distance.py's grid layout (bit level * 256 + y * 16 + x), as
 * Layout.shortest gives its paths. */
#define GRID_WORDS (LEVELS * 256 / 64)
static void to_grid(points_t m, uint64_t *grid) {
    memset(grid, 0, sizeof(uint64_t) * GRID_WORDS);
    for (int p; (p = pop_lowest(&m)) >= 0;) {
        int bit = level_of[p] * 256 + y_of[p] * 16 + x_of[p];
        grid[bit >> 6] |= (uint64_t)1 << (bit & 63);
    }
}

/* --- drawing from random.Random ----------------------------------------------------- */

/* rng.getrandbits(k), or -1 with an exception set. */
static long long random_bits(PyObject *getrandbits, int k) {
    PyObject *bits = PyLong_FromLong(k);  /* a small int: CPython keeps them made */
    if (!bits) return -1;
    PyObject *drawn = PyObject_CallOneArg(getrandbits, bits);
    Py_DECREF(bits);
    if (!drawn) return -1;
    long long r = PyLong_AsLongLong(drawn);
    Py_DECREF(drawn);
    return r;
}

/* Random._randbelow_with_getrandbits, draw for draw (what choice and shuffle use in
 * random.Random itself; compiled.py hands over no subclass): a number below ``n``, or
 * -1 with an exception set. */
static long long below_n(PyObject *getrandbits, long long n) {
    int k = 0;
    while ((1LL << k) <= n) k++;  /* n.bit_length() */
    long long r;
    do {
        r = random_bits(getrandbits, k);
        if (r < 0) return -1;
    } while (r >= n);
    return r;
}

/* --- Python's view ----------------------------------------------------------------- */

static int not_ready(void) {
    if (ready) return 0;
    PyErr_SetString(PyExc_RuntimeError, "the Akron core needs setup() first");
    return 1;
}

static int read_own(PyObject *b, PyObject *w, points_t own[2]) {
    return read_points(b, &own[0]) || read_points(w, &own[1]);
}

/* The move object for a move number: board.Placement by hole, board.Movement made
 * once and kept (a new reference). */
static PyObject *move_object(int move) {
    if (move < MAX_POINTS) {
        Py_INCREF(placement_of[move]);
        return placement_of[move];
    }
    int source = move / MAX_POINTS - 1, target = move % MAX_POINTS;
    PyObject **slot = &movement_of[source * point_count + target];
    if (!*slot) {
        *slot = PyObject_CallFunction(movement_class, "ii", source, target);
        if (!*slot) return NULL;
    }
    Py_INCREF(*slot);
    return *slot;
}

/* setup(points, holes, goals, placements, movement, pass): the shape from geometry.py.
 * points: per point (level, x, y, below, above, under, sides, touching_at), sides as
 * (neighbour, bridges) pairs; holes: the hole mask; goals: per player their two sides
 * as point masks; placements: board.Placement by hole; movement: board.Movement; pass:
 * engines.core.PASS. */
static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *points, *holes, *goals, *placements, *movement, *pass;
    if (!PyArg_ParseTuple(args, "O!OO!O!OO", &PyTuple_Type, &points, &holes, &PyTuple_Type,
                          &goals, &PyTuple_Type, &placements, &movement, &pass))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(points);
    if (n > MAX_POINTS || PyTuple_GET_SIZE(placements) > n || PyTuple_GET_SIZE(goals) != 2) {
        PyErr_SetString(PyExc_ValueError, "the pyramid does not fit the core");
        return NULL;
    }
    memset(at, -1, sizeof at);
    for (Py_ssize_t p = 0; p < n; p++) {
        PyObject *b, *a, *s, *t;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(points, p), "iiiOOiO!O", &level_of[p], &x_of[p],
                              &y_of[p], &b, &a, &under[p], &PyTuple_Type, &s, &t)
            || read_points(b, &below[p]) || read_points(a, &above[p])
            || read_points(t, &touching_at[p]))
            return NULL;
        if (level_of[p] < 0 || level_of[p] >= LEVELS || x_of[p] < 0 || x_of[p] >= SPAN
            || y_of[p] < 0 || y_of[p] >= SPAN || PyTuple_GET_SIZE(s) > 4) {
            PyErr_SetString(PyExc_ValueError, "a point off the core's pyramid");
            return NULL;
        }
        at[level_of[p]][x_of[p]][y_of[p]] = (int)p;
        side_count[p] = (int)PyTuple_GET_SIZE(s);
        for (int i = 0; i < side_count[p]; i++) {
            PyObject *bridges;
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(s, i), "iO", &sides[p][i].neighbour, &bridges)
                || read_points(bridges, &sides[p][i].bridges))
                return NULL;
        }
    }
    point_count = (int)n;
    if (read_points(holes, &hole_mask)) return NULL;
    for (int player = 0; player < 2; player++) {
        PyObject *first, *second;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(goals, player), "OO", &first, &second)
            || read_points(first, &goal[player][0]) || read_points(second, &goal[player][1]))
            return NULL;
    }
    for (int p = 0; p < point_count; p++) {
        int level = level_of[p] + 2;
        over[p] = level < LEVELS ? at[level][x_of[p]][y_of[p]] : -1;
    }
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(placements); p++) {
        PyObject *placement = PyTuple_GET_ITEM(placements, p);
        Py_INCREF(placement);
        Py_XSETREF(placement_of[p], placement);
    }
    Py_INCREF(movement);
    Py_XSETREF(movement_class, movement);
    Py_INCREF(pass);
    Py_XSETREF(pass_object, pass);
    if (!movement_of) movement_of = PyMem_Calloc((size_t)MAX_POINTS * MAX_POINTS, sizeof(PyObject *));
    if (!movement_of) return PyErr_NoMemory();
    ready = 1;
    Py_RETURN_NONE;
}

/* legal_moves(b, w, supply, player) -> the moves of ``player`` (0 or 1) as board.py
 * lists them. */
static PyObject *legal_moves(PyObject *self, PyObject *args) {
    PyObject *b, *w;
    int supply, player;
    points_t own[2];
    if (not_ready() || !PyArg_ParseTuple(args, "OOii", &b, &w, &supply, &player)
        || read_own(b, w, own))
        return NULL;
    int *moves = move_buffer;
    int n = legal(own, supply, player & 1, moves);
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *move = move_object(moves[i]);
        if (!move) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, move);
    }
    return out;
}

/* joins(b, w, player) -> bool: Layout.joins. */
static PyObject *py_joins(PyObject *self, PyObject *args) {
    PyObject *b, *w;
    int player;
    points_t own[2];
    if (not_ready() || !PyArg_ParseTuple(args, "OOi", &b, &w, &player) || read_own(b, w, own))
        return NULL;
    return PyBool_FromLong(joins(own, player & 1));
}

/* distances(b, w) -> (int, int): Layout.distance of both players. */
static PyObject *distances(PyObject *self, PyObject *args) {
    PyObject *b, *w;
    points_t own[2];
    if (not_ready() || !PyArg_ParseTuple(args, "OO", &b, &w) || read_own(b, w, own))
        return NULL;
    return Py_BuildValue("(ii)", distance(own, 0), distance(own, 1));
}

/* shortest(b, w, player) -> (distance, the points on the shortest paths in the grid
 * layout): Layout.shortest. */
static PyObject *py_shortest(PyObject *self, PyObject *args) {
    PyObject *b, *w;
    int player;
    points_t own[2], on_path;
    uint64_t grid[GRID_WORDS];
    if (not_ready() || !PyArg_ParseTuple(args, "OOi", &b, &w, &player) || read_own(b, w, own))
        return NULL;
    int best = shortest(own, player & 1, &on_path);
    to_grid(on_path, grid);
    PyObject *path = as_int(grid, GRID_WORDS);
    if (!path) return NULL;
    return Py_BuildValue("(iN)", best, path);
}

/* The prior of a move for the mover (policy.AkronPolicy.priors, the same arithmetic in
 * the same order, so the same doubles). */
static double prior_of(int move, const points_t *own_path, const points_t *rival_path) {
    int target = move % MAX_POINTS, source = move < MAX_POINTS ? -1 : move / MAX_POINTS - 1;
    double score = (has(own_path, target) ? 0.6 : 0.0) + (has(rival_path, target) ? 0.4 : 0.0);
    if (source >= 0 && has(own_path, source)) score -= 0.3;
    double least = level_of[target] ? 0.05 : 0.0;
    if (score < least) score = least;
    return score > 1.0 ? 1.0 : score;
}

typedef struct { double prior; int order, move; } ranked_t;

/* By prior, then by place in the shuffled list: Python's stable sort by prior. */
static int by_prior(const void *a, const void *b) {
    const ranked_t *x = a, *y = b;
    if (x->prior != y->prior) return x->prior < y->prior ? -1 : 1;
    return x->order - y->order;
}

/* Policy.expansion with AkronPolicy's priors, into ``ranked`` (room for MAX_MOVES): the
 * moves listed as board.py lists them, shuffled as rng.shuffle does, draw for draw,
 * ranked and sorted, the next to grow last; how many, -1 with an exception set. Zero
 * when the only move is the pass (the pass draws nothing: the caller adds it). */
static ranked_t ranked_buffer[MAX_MOVES];  /* one expansion at a time, as move_buffer */

static int expand(const points_t own[2], int supply, int player, PyObject *getrandbits,
                  ranked_t *ranked) {
    int *moves = move_buffer;
    int n = legal(own, supply, player, moves);
    for (int i = n - 1; i > 0; i--) {  /* random.shuffle */
        long long j = below_n(getrandbits, i + 1);
        if (j < 0) return -1;
        int swap = moves[i];
        moves[i] = moves[j];
        moves[j] = swap;
    }
    if (!n) return 0;
    points_t own_path, rival_path;
    shortest(own, player, &own_path);
    shortest(own, player ^ 1, &rival_path);
    for (int i = 0; i < n; i++)
        ranked[i] = (ranked_t){prior_of(moves[i], &own_path, &rival_path), i, moves[i]};
    qsort(ranked, (size_t)n, sizeof *ranked, by_prior);
    return n;
}

/* expansion(b, w, supply, player, rng) -> [(move, prior), ...]: expand()'s, empty
 * where the only move is the pass (the caller's Python path then offers it). */
static PyObject *expansion(PyObject *self, PyObject *args) {
    PyObject *b, *w, *rng;
    int supply, player;
    points_t own[2];
    if (not_ready() || !PyArg_ParseTuple(args, "OOiiO", &b, &w, &supply, &player, &rng)
        || read_own(b, w, own))
        return NULL;
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (!getrandbits) return NULL;
    int n = expand(own, supply, player & 1, getrandbits, ranked_buffer);
    Py_DECREF(getrandbits);
    if (n < 0) return NULL;
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *move = move_object(ranked_buffer[i].move);
        PyObject *pair = move ? Py_BuildValue("(Nd)", move, ranked_buffer[i].prior) : NULL;
        if (!pair) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, pair);
    }
    return out;
}

/* --- the search's tree (search.Tree and search._walk) ------------------------------ */
/* With the moves and the values in C, walking the tree in Python (selecting, pushing and
 * popping the board, backing up) cost more than both; here it is grown as search.Tree
 * grows it, walk for walk and draw for draw, so a seed chooses the same move. The
 * selection's arithmetic is Python's, operation for operation (see the pragma above). */

#define PASS_MOVE (-1)  /* a node's move: the pass */
#define NO_MOVE (-2)    /* the root's */

typedef struct { points_t own[2]; int supply[2], turn, passes; } position_t;

typedef struct {
    int move, mover;                /* mover -1 for the root */
    double visits, wins, prior, minimax;
    int *children, child_count, child_room;
    int *untried;                   /* moves not grown yet, the next last */
    double *untried_priors;
    int untried_count, expanded;
} node_t;

typedef struct {
    PyObject_HEAD
    position_t root;
    node_t *nodes;
    int node_count, node_room;
    double exploration, prior_weight, widening, prior_visits, prior_value, minimax_weight;
    double steepness, no_path;
    int widens;                     /* widening is not None */
    PyObject *getrandbits;
    int *path, path_room;           /* a walk's nodes, root first */
} tree_t;

/* Whether the player to move has won, as the board reads it at the start of a turn:
 * their chain joins their sides. */
static int mover_won(const position_t *p) { return joins(p->own, p->turn); }

static void apply(position_t *p, int move) {
    if (move == PASS_MOVE) {
        p->passes++;
    } else {
        p->passes = 0;
        if (move < MAX_POINTS) {
            put(&p->own[p->turn], move);
            p->supply[p->turn]--;
        } else {
            move_ball(p->own, p->turn, move / MAX_POINTS - 1, move % MAX_POINTS);
        }
    }
    p->turn ^= 1;
}

/* A new node's index, -1 out of memory (with the exception set). */
static int new_node(tree_t *t, int move, int mover, double prior) {
    if (t->node_count == t->node_room) {
        int room = t->node_room ? 2 * t->node_room : 256;
        node_t *grown = PyMem_Realloc(t->nodes, sizeof(node_t) * (size_t)room);
        if (!grown) { PyErr_NoMemory(); return -1; }
        t->nodes = grown;
        t->node_room = room;
    }
    node_t *n = &t->nodes[t->node_count];
    memset(n, 0, sizeof(node_t));
    n->move = move;
    n->mover = mover;
    n->prior = prior;
    n->minimax = 0.5;
    return t->node_count++;
}

/* Node.expand_moves: the moves of the position at node ``index`` with their priors, the
 * pass alone (prior 0) where there is no other. */
static int expand_node(tree_t *t, int index, const position_t *p) {
    int n = expand(p->own, p->supply[p->turn], p->turn, t->getrandbits, ranked_buffer);
    if (n < 0) return -1;
    int count = n ? n : 1;
    int *moves = PyMem_Malloc(sizeof(int) * (size_t)count);
    double *priors = PyMem_Malloc(sizeof(double) * (size_t)count);
    if (!moves || !priors) { PyMem_Free(moves); PyMem_Free(priors); PyErr_NoMemory(); return -1; }
    for (int i = 0; i < n; i++) {
        moves[i] = ranked_buffer[i].move;
        priors[i] = ranked_buffer[i].prior;
    }
    if (!n) { moves[0] = PASS_MOVE; priors[0] = 0.0; }
    node_t *node = &t->nodes[index];
    node->untried = moves;
    node->untried_priors = priors;
    node->untried_count = count;
    node->expanded = 1;
    return 0;
}

/* Node.may_grow: moves left to grow, and (with widening) fewer children than
 * 1 + widening * sqrt(visits). */
static int may_grow(const tree_t *t, const node_t *n) {
    if (!n->untried_count) return 0;
    return !t->widens || (double)n->child_count < 1 + t->widening * sqrt(n->visits);
}

/* Grows node ``index``'s next move as a child started from its prior; the child's index,
 * -1 out of memory. */
static int grow(tree_t *t, int index, int mover) {
    node_t *n = &t->nodes[index];
    if (n->child_count == n->child_room) {
        int room = n->child_room ? 2 * n->child_room : 4;
        int *grown = PyMem_Realloc(n->children, sizeof(int) * (size_t)room);
        if (!grown) { PyErr_NoMemory(); return -1; }
        n->children = grown;
        n->child_room = room;
    }
    n->untried_count--;
    int move = n->untried[n->untried_count];
    double prior = n->untried_priors[n->untried_count];
    int child = new_node(t, move, mover, prior);  /* may move the nodes: n is stale */
    if (child < 0) return -1;
    node_t *c = &t->nodes[child];
    if (t->prior_visits) {
        c->visits = t->prior_visits;
        c->wins = t->prior_visits * t->prior_value * sqrt(prior);
    }
    n = &t->nodes[index];
    n->children[n->child_count++] = child;
    return child;
}

/* Node.best_child: the average mixed with the minimax, plus exploration, plus the
 * fading prior; the first of equals. */
static int best_child(const tree_t *t, const node_t *n) {
    double log_visits = log(n->visits), average = 1.0 - t->minimax_weight, best_score = -1.0;
    int best = -1;
    for (int k = 0; k < n->child_count; k++) {
        const node_t *c = &t->nodes[n->children[k]];
        double visits = c->visits;
        double score = average * c->wins / visits + t->minimax_weight * c->minimax
                       + t->exploration * sqrt(log_visits / visits)
                       + t->prior_weight * c->prior / (visits + 1);
        if (score > best_score) { best = n->children[k]; best_score = score; }
    }
    return best;
}

/* AkronPolicy.value: the result where the game is over (``winner``: -1 none, a draw by
 * two passes when ``drawn``), else the logistic of the difference of the distances, the
 * player to move half a ball ahead. */
static double value_for_b(const tree_t *t, const position_t *p, int winner, int drawn) {
    if (winner >= 0) return winner == 0 ? 1.0 : 0.0;
    if (drawn) return 0.5;
    double b = distance(p->own, 0), w = distance(p->own, 1);
    double ahead = (w < t->no_path ? w : t->no_path) - (b < t->no_path ? b : t->no_path);
    ahead += p->turn == 0 ? 0.5 : -0.5;
    return 1.0 / (1.0 + exp(-t->steepness * ahead));
}

/* search._walk and _back_up_minimax: select down the tree, grow one child, value the
 * position, count the result up the path. -1 with an exception set on failure. */
static int walk(tree_t *t) {
    position_t p = t->root;
    if (t->path_room < t->node_count + 1) {  /* a walk adds one node at the most */
        int room = 2 * (t->node_count + 1);
        int *grown = PyMem_Realloc(t->path, sizeof(int) * (size_t)room);
        if (!grown) { PyErr_NoMemory(); return -1; }
        t->path = grown;
        t->path_room = room;
    }
    int *path = t->path, depth = 0, index = 0, winner = -1, drawn = 0;
    path[depth++] = 0;
    for (;;) {
        winner = mover_won(&p) ? p.turn : -1;
        drawn = winner < 0 && p.passes >= 2;
        if (winner >= 0 || drawn) break;
        if (!t->nodes[index].expanded && expand_node(t, index, &p)) return -1;
        if (may_grow(t, &t->nodes[index])) {
            int child = grow(t, index, p.turn);
            if (child < 0) return -1;
            apply(&p, t->nodes[child].move);
            path[depth++] = child;
            winner = mover_won(&p) ? p.turn : -1;
            drawn = winner < 0 && p.passes >= 2;
            break;
        }
        if (!t->nodes[index].child_count) break;
        index = best_child(t, &t->nodes[index]);
        apply(&p, t->nodes[index].move);
        path[depth++] = index;
    }
    double value_b = value_for_b(t, &p, winner, drawn);
    for (int k = 0; k < depth; k++) {
        node_t *n = &t->nodes[path[k]];
        n->visits += 1;
        if (n->mover >= 0) n->wins += n->mover == 0 ? value_b : 1.0 - value_b;
    }
    if (!t->minimax_weight) return 0;
    node_t *leaf = &t->nodes[path[depth - 1]];
    leaf->minimax = leaf->mover == 0 ? value_b : 1.0 - value_b;
    for (int k = depth - 2; k >= 1; k--) {
        node_t *n = &t->nodes[path[k]];
        int chooser = t->nodes[n->children[0]].mover;
        double best = t->nodes[n->children[0]].minimax;
        for (int c = 1; c < n->child_count; c++)
            if (t->nodes[n->children[c]].minimax > best) best = t->nodes[n->children[c]].minimax;
        n->minimax = chooser == n->mover ? best : 1.0 - best;
    }
    return 0;
}

static void tree_dealloc(tree_t *t) {
    for (int i = 0; i < t->node_count; i++) {
        PyMem_Free(t->nodes[i].children);
        PyMem_Free(t->nodes[i].untried);
        PyMem_Free(t->nodes[i].untried_priors);
    }
    PyMem_Free(t->nodes);
    PyMem_Free(t->path);
    Py_XDECREF(t->getrandbits);
    PyObject_Free(t);
}

/* Tree(b, w, supply_b, supply_w, turn, passes, policy, rng): the position, and the
 * policy's numbers (exploration, prior_weight, widening or None, prior_visits,
 * prior_value, minimax_weight, steepness, no_path). The root is expanded at once, as
 * search.Tree's is. */
static PyObject *tree_create(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *b, *w, *widening, *rng;
    int supply[2], turn, passes;
    double exploration, prior_weight, prior_visits, prior_value, minimax_weight, steepness,
        no_path;
    if (not_ready() || !PyArg_ParseTuple(args, "OOiiii(ddOddddd)O", &b, &w, &supply[0],
                                         &supply[1], &turn, &passes, &exploration,
                                         &prior_weight, &widening, &prior_visits, &prior_value,
                                         &minimax_weight, &steepness, &no_path, &rng))
        return NULL;
    tree_t *t = PyObject_New(tree_t, type);
    if (!t) return NULL;
    t->nodes = NULL;
    t->node_count = t->node_room = 0;
    t->path = NULL;
    t->path_room = 0;
    t->getrandbits = NULL;
    if (read_own(b, w, t->root.own)) goto fail;
    t->root.supply[0] = supply[0];
    t->root.supply[1] = supply[1];
    t->root.turn = turn & 1;
    t->root.passes = passes;
    t->exploration = exploration;
    t->prior_weight = prior_weight;
    t->widens = widening != Py_None;
    t->widening = t->widens ? PyFloat_AsDouble(widening) : 0.0;
    t->prior_visits = prior_visits;
    t->prior_value = prior_value;
    t->minimax_weight = minimax_weight;
    t->steepness = steepness;
    t->no_path = no_path;
    t->getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (PyErr_Occurred() || !t->getrandbits) goto fail;
    if (new_node(t, NO_MOVE, -1, 0.0) < 0 || expand_node(t, 0, &t->root)) goto fail;
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

/* The move object of a node's move, a new reference. */
static PyObject *node_move(int move) {
    if (move == PASS_MOVE) {
        Py_INCREF(pass_object);
        return pass_object;
    }
    return move_object(move);
}

/* only_move() -> the move when the root has only one, else None. */
static PyObject *tree_only_move(tree_t *t, PyObject *unused) {
    if (t->nodes[0].untried_count != 1 || t->nodes[0].child_count) Py_RETURN_NONE;
    return node_move(t->nodes[0].untried[0]);
}

/* walk(count): ``count`` walks from the root. */
static PyObject *tree_walk(tree_t *t, PyObject *arg) {
    long count = PyLong_AsLong(arg);
    if (count == -1 && PyErr_Occurred()) return NULL;
    for (long k = 0; k < count; k++)
        if (walk(t)) return NULL;
    Py_RETURN_NONE;
}

/* best_move() -> the root's most visited child's move, the first of equals. */
static PyObject *tree_best_move(tree_t *t, PyObject *unused) {
    const node_t *root = &t->nodes[0];
    int best = -1;
    for (int k = 0; k < root->child_count; k++)
        if (best < 0 || t->nodes[root->children[k]].visits > t->nodes[best].visits)
            best = root->children[k];
    if (best < 0) { PyErr_SetString(PyExc_ValueError, "no walk made"); return NULL; }
    return node_move(t->nodes[best].move);
}

/* counts() -> [(move, visits, wins)] of the root's children, in the order grown, the
 * wins the player to move's and both started from the prior as search.Tree.counts has
 * them (a hint says how sure it is from them). */
static PyObject *tree_counts(tree_t *t, PyObject *unused) {
    const node_t *root = &t->nodes[0];
    PyObject *out = PyList_New(root->child_count);
    for (int k = 0; out && k < root->child_count; k++) {
        const node_t *c = &t->nodes[root->children[k]];
        PyObject *move = node_move(c->move);
        PyObject *count = move ? Py_BuildValue("(Ndd)", move, c->visits, c->wins) : NULL;
        if (!count) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, k, count);
    }
    return out;
}

static PyMethodDef tree_methods[] = {
    {"counts", (PyCFunction)tree_counts, METH_NOARGS,
     "The root's children's moves, visits and wins."},
    {"only_move", (PyCFunction)tree_only_move, METH_NOARGS, "The only move, or None."},
    {"walk", (PyCFunction)tree_walk, METH_O, "Walk the tree so many times."},
    {"best_move", (PyCFunction)tree_best_move, METH_NOARGS, "The most visited move."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject tree_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engines.akron._core.Tree",
    .tp_basicsize = sizeof(tree_t),
    .tp_dealloc = (destructor)tree_dealloc,
    .tp_methods = tree_methods,
    .tp_new = tree_create,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search's tree grown in C (search.Tree's methods).",
};

/* Appends one action to a playout's trace: (source, target), None for a ball from
 * the supply and for both of a pass. */
static int record(PyObject *trace, int source, int target) {
    if (trace == Py_None) return 0;
    PyObject *action = Py_BuildValue("(NN)", source < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(source),
                                     target < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(target));
    if (!action) return -1;
    int failed = PyList_Append(trace, action);
    Py_DECREF(action);
    return failed;
}

/* playout.play_out, draw for draw: the winner (0, 1), DRAW, or FAILED. */
static int play(points_t own[2], int supply[2], int turn, int passes, PyObject *getrandbits,
                long limit, PyObject *trace) {
    points_t groups[MAX_POINTS];
    int sources[MAX_POINTS], holes[MAX_POINTS], targets[MAX_POINTS];
    for (long played = 0;; played++) {
        points_t occupied = either(own[0], own[1]), mine = own[turn];
        points_t covered = covered_by(occupied);
        int group_count = groups_of(mine, occupied, covered, groups);
        for (int g = 0; g < group_count; g++)
            if (!none(both(groups[g], goal[turn][0])) && !none(both(groups[g], goal[turn][1])))
                return turn;
        if (passes >= 2 || played == limit) return DRAW;
        int source_count = 0;
        points_t balls = mine;
        for (int p; (p = pop_lowest(&balls)) >= 0;)
            if (count_of(both(above[p], occupied)) <= 1) sources[source_count++] = p;
        points_t empty_holes = except(hole_mask, occupied);
        int hole_count = list_points(empty_holes, holes);
        int source = -1, target = -1;
        if (supply[turn] && hole_count) {
            /* The supply weighs as much as its holes (playout.py says why). */
            long long r = random_bits(getrandbits, 16);
            if (r < 0) return FAILED;
            if (r % (hole_count + source_count) < hole_count) {
                long long i = below_n(getrandbits, hole_count);
                if (i < 0) return FAILED;
                target = holes[i];
            }
        }
        points_t playable = {{0}};
        int playable_known = 0;
        while (source_count && target < 0) {
            long long r = random_bits(getrandbits, 16);
            if (r < 0) return FAILED;
            int index = (int)(r % source_count);
            int candidate = sources[index];
            sources[index] = sources[--source_count];
            if (!playable_known) playable = playable_points(occupied), playable_known = 1;
            int found = list_points(destinations(candidate, mine, occupied, groups, group_count,
                                                 playable), targets);
            if (found) {
                long long i = below_n(getrandbits, found);
                if (i < 0) return FAILED;
                source = candidate;
                target = targets[i];
            }
        }
        if (target < 0 && supply[turn] && hole_count) {
            long long i = below_n(getrandbits, hole_count);
            if (i < 0) return FAILED;
            target = holes[i];
        }
        if (target < 0) {
            passes++;
            if (record(trace, -1, -1)) return FAILED;
            turn ^= 1;
            continue;
        }
        passes = 0;
        if (source < 0) {
            put(&own[turn], target);
            supply[turn]--;
        } else {
            move_ball(own, turn, source, target);
        }
        if (record(trace, source, target)) return FAILED;
        turn ^= 1;
    }
}

/* play_out(b, w, supply_b, supply_w, turn, passes, rng, limit, trace) -> 0, 1 or None:
 * playout.play_out's winner; the trace a list or None. */
static PyObject *play_out(PyObject *self, PyObject *args) {
    PyObject *b, *w, *rng, *trace;
    int supply[2], turn, passes;
    long limit;
    points_t own[2];
    if (not_ready() || !PyArg_ParseTuple(args, "OOiiiiOlO", &b, &w, &supply[0], &supply[1],
                                         &turn, &passes, &rng, &limit, &trace)
        || read_own(b, w, own))
        return NULL;
    if (trace != Py_None && !PyList_Check(trace)) {
        PyErr_SetString(PyExc_TypeError, "trace must be a list or None");
        return NULL;
    }
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (!getrandbits) return NULL;
    int winner = play(own, supply, turn & 1, passes, getrandbits, limit, trace);
    Py_DECREF(getrandbits);
    if (winner == FAILED) return NULL;
    if (winner == DRAW) Py_RETURN_NONE;
    return PyLong_FromLong(winner);
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "The pyramid's shape, from geometry.py."},
    {"legal_moves", legal_moves, METH_VARARGS, "A player's legal moves, as board.py lists them."},
    {"joins", py_joins, METH_VARARGS, "Whether a player's visible chain joins their sides."},
    {"distances", distances, METH_VARARGS, "Both players' connection distances."},
    {"shortest", py_shortest, METH_VARARGS, "A player's distance and shortest paths."},
    {"expansion", expansion, METH_VARARGS, "A new node's moves and priors, in growing order."},
    {"play_out", play_out, METH_VARARGS, "A random playout's winner."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "Akron's compiled core (see compiled.py).", -1, methods};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&tree_type) < 0) return NULL;
    PyObject *core = PyModule_Create(&module);
    if (!core) return NULL;
    Py_INCREF(&tree_type);
    if (PyModule_AddObject(core, "Tree", (PyObject *)&tree_type) < 0) {
        Py_DECREF(&tree_type);
        Py_DECREF(core);
        return NULL;
    }
    return core;
}
