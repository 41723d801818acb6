/* Akron's compiled core: the rules of rules.py (covered balls, playable points, visible
 * groups, drops, destinations), the legal moves of board.py, the connection distance
 * and the win of distance.py, the random playout of playout.py and the search's
 * expansion of a node (listing, shuffling, ranking and sorting its moves, policy.py),
 * in C. The Python code stays the reference: the same position gives the same moves in
 * the same order, the same distances and paths, and the same seed the same draws (see
 * compiled.py, and tests/test_akron_compiled.py).
 *
 * Two kinds of mask, as in Python:
 *  - points_t, a bit per point index (204 points in 4 words): what the rules work on;
 *  - grid_t, the distance's layout, bit level * 256 + y * 16 + x (2048 bits in 32
 *    words), where every contact between two points is one shift.
 * The pyramid's shape (each point's place, what rests on what, the bridges over each
 * contact) comes from geometry.py once (setup), so the shape stays written once. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 256
#define WORDS (MAX_POINTS / 64)
#define LEVELS 8
#define ROW 16                      /* bits per row of a level in the grid layout */
#define FLOOR 256                   /* bits per level */
#define GRID_WORDS (LEVELS * FLOOR / 64)
#define WALL (1 << 20)              /* distance.WALL: no path */
#define MAX_LAYERS (MAX_POINTS + 2) /* a layer adds at least one point */
#define DRAW (-1)                   /* a playout's result without a winner */
#define FAILED (-2)                 /* an exception is set */

typedef struct { uint64_t w[WORDS]; } points_t;
typedef struct { uint64_t w[GRID_WORDS]; } grid_t;
typedef struct { int neighbour; points_t bridges; } side_t;

/* --- the shape, from geometry.py --------------------------------------------------- */
static int point_count;
static int level_of[MAX_POINTS], x_of[MAX_POINTS], y_of[MAX_POINTS];
static int at[LEVELS][ROW][ROW];        /* geometry.AT: the point at (level, x, y), or -1 */
static points_t below[MAX_POINTS], above[MAX_POINTS], touching_at[MAX_POINTS];
static int under[MAX_POINTS];           /* geometry.UNDER */
static side_t sides[MAX_POINTS][4];     /* geometry.SIDES */
static int side_count[MAX_POINTS];
static points_t hole_mask;
static points_t goal[2][2];             /* each player's two sides, as points */
static grid_t goal_grid[2][2];          /* the same in the grid layout */
static grid_t all_grid, holes_grid;     /* distance.ALL and distance.HOLES */
static PyObject *placement_of[MAX_POINTS];  /* board.Placement by hole, handed back */
static PyObject *movement_class;            /* board.Movement, made once a move */
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
static int read_words(PyObject *value, uint64_t *words, int count) {
    unsigned char bytes[GRID_WORDS * 8];
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
    unsigned char bytes[GRID_WORDS * 8];
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
    if (level >= LEVELS || x < 0 || y < 0 || x >= ROW || y >= ROW) return -1;
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

static inline void grid_and(grid_t *a, const grid_t *b) {
    for (int i = 0; i < GRID_WORDS; i++) a->w[i] &= b->w[i];
}
static inline void grid_or(grid_t *a, const grid_t *b) {
    for (int i = 0; i < GRID_WORDS; i++) a->w[i] |= b->w[i];
}
static inline void grid_except(grid_t *a, const grid_t *b) {
    for (int i = 0; i < GRID_WORDS; i++) a->w[i] &= ~b->w[i];
}
static inline int grid_none(const grid_t *a) {
    uint64_t any = 0;
    for (int i = 0; i < GRID_WORDS; i++) any |= a->w[i];
    return !any;
}
static inline int grid_meets(const grid_t *a, const grid_t *b) {
    uint64_t any = 0;
    for (int i = 0; i < GRID_WORDS; i++) any |= a->w[i] & b->w[i];
    return any != 0;
}

/* ``in`` shifted by ``k`` bits, toward the higher ones when ``k`` is positive (Python's
 * ``<<``), the lower ones when negative (``>>``). Bits past the top of the layout are
 * lost where Python keeps them, which changes nothing: every result is masked by a set
 * of points, all inside the layout. */
static grid_t shifted(const grid_t *in, int k) {
    grid_t out;
    int up = k >= 0, words = (up ? k : -k) / 64, bits = (up ? k : -k) % 64;
    for (int i = 0; i < GRID_WORDS; i++) {
        int from = up ? i - words : i + words;
        int beyond = up ? from - 1 : from + 1;
        uint64_t word = 0;
        if (from >= 0 && from < GRID_WORDS)
            word = up ? in->w[from] << bits : in->w[from] >> bits;
        if (bits && beyond >= 0 && beyond < GRID_WORDS)
            word |= up ? in->w[beyond] >> (64 - bits) : in->w[beyond] << (64 - bits);
        out.w[i] = word;
    }
    return out;
}

static int grid_bit(int point) { return level_of[point] * FLOOR + y_of[point] * ROW + x_of[point]; }

/* distance.to_grid. */
static grid_t to_grid(points_t m) {
    grid_t grid = {{0}};
    for (int p; (p = pop_lowest(&m)) >= 0;) {
        int bit = grid_bit(p);
        grid.w[bit >> 6] |= (uint64_t)1 << (bit & 63);
    }
    return grid;
}

/* distance.Layout: one position in the grid layout. */
typedef struct {
    grid_t own[2], occupied, covered, playable, right, left, up, down;
} layout_t;

#define OVER (2 * FLOOR)  /* from a point to the ball that covers it */

static void layout_of(const points_t own[2], layout_t *out) {
    out->own[0] = to_grid(own[0]);
    out->own[1] = to_grid(own[1]);
    grid_t occupied = out->own[0];
    grid_or(&occupied, &out->own[1]);
    out->occupied = occupied;
    out->covered = shifted(&occupied, -OVER);
    grid_and(&out->covered, &occupied);
    /* A point above the board is playable on four filled points, (x +- 1, y +- 1) one
     * level down. */
    grid_t pairs = shifted(&occupied, -2);
    grid_and(&pairs, &occupied);
    grid_t fours = shifted(&pairs, -2 * ROW);
    grid_and(&fours, &pairs);
    out->playable = shifted(&fours, FLOOR + ROW + 1);
    grid_or(&out->playable, &holes_grid);
    grid_and(&out->playable, &all_grid);
    grid_except(&out->playable, &occupied);
    /* The contacts beside a ball that two bridges cut, kept at the near end. */
    grid_t cut_right = shifted(&occupied, -(FLOOR + 1 - ROW));
    grid_t other = shifted(&occupied, -(FLOOR + 1 + ROW));
    grid_and(&cut_right, &other);
    grid_t cut_up = shifted(&occupied, -(FLOOR + ROW - 1));
    other = shifted(&occupied, -(FLOOR + ROW + 1));
    grid_and(&cut_up, &other);
    out->right = all_grid;
    grid_except(&out->right, &cut_right);
    out->left = all_grid;
    other = shifted(&cut_right, 2);
    grid_except(&out->left, &other);
    out->up = all_grid;
    grid_except(&out->up, &cut_up);
    out->down = all_grid;
    other = shifted(&cut_up, 2 * ROW);
    grid_except(&out->down, &other);
}

/* Layout.touching: the points touching some point of ``points``, cut contacts left out. */
static grid_t touching(const layout_t *layout, const grid_t *points) {
    grid_t part, out;
    /* Beside on one level: two columns or two rows across. */
    part = *points; grid_and(&part, &layout->right); out = shifted(&part, 2);
    part = *points; grid_and(&part, &layout->left); part = shifted(&part, -2); grid_or(&out, &part);
    part = *points; grid_and(&part, &layout->up); part = shifted(&part, 2 * ROW); grid_or(&out, &part);
    part = *points; grid_and(&part, &layout->down); part = shifted(&part, -2 * ROW); grid_or(&out, &part);
    /* Resting on or under: one column and one row across, one level up or down. */
    grid_t diagonal = shifted(points, 1), back = shifted(points, -1);
    grid_or(&diagonal, &back);
    grid_t rows = shifted(&diagonal, ROW);
    back = shifted(&diagonal, -ROW);
    grid_or(&rows, &back);
    part = shifted(&rows, FLOOR); grid_or(&out, &part);
    part = shifted(&rows, -FLOOR); grid_or(&out, &part);
    return out;
}

/* Layout._closure: ``reach`` grown through the ``free`` points from ``fresh``. */
static grid_t closure(const layout_t *layout, grid_t reach, grid_t fresh, const grid_t *free) {
    while (!grid_none(&fresh)) {
        fresh = touching(layout, &fresh);
        grid_and(&fresh, free);
        grid_except(&fresh, &reach);
        grid_or(&reach, &fresh);
    }
    return reach;
}

/* Layout.costs: the points that cost ``player`` nothing, and those that cost one. */
static void costs(const layout_t *layout, int player, grid_t *free, grid_t *one) {
    const grid_t *own = &layout->own[player];
    *free = *own;
    grid_except(free, &layout->covered);
    /* A ball covered by the player's own ball two levels up costs one. */
    grid_t covered_by_own = shifted(own, -OVER);
    grid_and(&covered_by_own, own);
    grid_and(&covered_by_own, &layout->covered);
    *one = layout->playable;
    grid_or(one, &covered_by_own);
}

/* Layout.joins: whether ``player``'s visible balls join their sides (the win). */
static int joins(const layout_t *layout, int player) {
    grid_t free = layout->own[player];
    grid_except(&free, &layout->covered);
    grid_t start = goal_grid[player][0];
    grid_and(&start, &free);
    grid_t reach = closure(layout, start, start, &free);
    return grid_meets(&reach, &goal_grid[player][1]);
}

/* Layout.layers: into ``found``, the points reached from ``start`` at each cost (the
 * k-th set: every point of least cost at most k); how many sets. With ``stop``, no
 * more once a set meets it (the distance needs no layer beyond the far side). */
static int layers(const layout_t *layout, const grid_t *start, const grid_t *free,
                  const grid_t *one, const grid_t *stop, grid_t *found) {
    grid_t reach = *start;
    grid_and(&reach, free);
    reach = closure(layout, reach, reach, free);
    int n = 0;
    found[n++] = reach;
    grid_t layer = reach;
    while (n < MAX_LAYERS && !(stop && grid_meets(&reach, stop))) {
        grid_t fresh = touching(layout, &layer);
        if (n == 1) grid_or(&fresh, start);  /* a side's empty holes cost one from it */
        grid_and(&fresh, one);
        grid_except(&fresh, &reach);
        if (grid_none(&fresh)) break;
        grid_t grown = reach;
        grid_or(&grown, &fresh);
        grown = closure(layout, grown, fresh, free);
        layer = grown;
        grid_except(&layer, &reach);
        reach = grown;
        found[n++] = reach;
    }
    return n;
}

/* Layout.distance: the balls ``player`` needs at the least (WALL: no path): the first
 * layer whose reach meets the far side (Layout.distance grows the same sets). */
static int distance(const layout_t *layout, int player) {
    static grid_t found[MAX_LAYERS];
    grid_t free, one;
    costs(layout, player, &free, &one);
    int n = layers(layout, &goal_grid[player][0], &free, &one, &goal_grid[player][1], found);
    for (int cost = 0; cost < n; cost++)
        if (grid_meets(&found[cost], &goal_grid[player][1])) return cost;
    return WALL;
}

/* Layout.shortest: ``player``'s distance, and into ``on_path`` the points on their
 * shortest paths (none when no path joins their sides). */
static int shortest(const layout_t *layout, int player, grid_t *on_path) {
    static grid_t from_start[MAX_LAYERS], from_end[MAX_LAYERS];
    grid_t free, one;
    costs(layout, player, &free, &one);
    memset(on_path, 0, sizeof *on_path);
    int starts = layers(layout, &goal_grid[player][0], &free, &one, &goal_grid[player][1],
                        from_start);
    int best = WALL;
    for (int cost = 0; cost < starts; cost++)
        if (grid_meets(&from_start[cost], &goal_grid[player][1])) { best = cost; break; }
    if (best == WALL) return WALL;
    /* All the layers from the far side: Layout.shortest reads the last where a cost
     * lies beyond them. */
    int last = layers(layout, &goal_grid[player][1], &free, &one, NULL, from_end) - 1;
    for (int cost = 0; cost <= best; cost++) {
        grid_t exact = from_start[cost];
        if (cost) grid_except(&exact, &from_start[cost - 1]);
        /* A point costing nothing lies on a shortest path when the costs from the two
         * sides add up to the least; a point costing one is counted on both sides. */
        grid_t part = exact;
        grid_and(&part, &free);
        grid_and(&part, &from_end[best - cost < last ? best - cost : last]);
        grid_or(on_path, &part);
        part = exact;
        grid_and(&part, &one);
        grid_and(&part, &from_end[best + 1 - cost < last ? best + 1 - cost : last]);
        grid_or(on_path, &part);
    }
    return best;
}

/* --- drawing from random.Random ----------------------------------------------------- */

/* rng.getrandbits(k), or -1 with an exception set. */
static long long random_bits(PyObject *getrandbits, int k) {
    PyObject *drawn = PyObject_CallFunction(getrandbits, "i", k);
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

/* setup(points, holes, goals, placements, movement): the shape from geometry.py.
 * points: per point (level, x, y, below, above, under, sides, touching_at), sides as
 * (neighbour, bridges) pairs; holes: the hole mask; goals: per player their two sides
 * as point masks; placements: board.Placement by hole; movement: board.Movement. */
static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *points, *holes, *goals, *placements, *movement;
    if (!PyArg_ParseTuple(args, "O!OO!O!O", &PyTuple_Type, &points, &holes, &PyTuple_Type,
                          &goals, &PyTuple_Type, &placements, &movement))
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
        if (level_of[p] < 0 || level_of[p] >= LEVELS || x_of[p] < 0 || x_of[p] >= ROW
            || y_of[p] < 0 || y_of[p] >= ROW || PyTuple_GET_SIZE(s) > 4) {
            PyErr_SetString(PyExc_ValueError, "a point off the core's layout");
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
        goal_grid[player][0] = to_grid(goal[player][0]);
        goal_grid[player][1] = to_grid(goal[player][1]);
    }
    points_t every = {{0}};
    for (int p = 0; p < point_count; p++) put(&every, p);
    all_grid = to_grid(every);
    holes_grid = to_grid(hole_mask);
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(placements); p++) {
        PyObject *placement = PyTuple_GET_ITEM(placements, p);
        Py_INCREF(placement);
        Py_XSETREF(placement_of[p], placement);
    }
    Py_INCREF(movement);
    Py_XSETREF(movement_class, movement);
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
    layout_t layout;
    if (not_ready() || !PyArg_ParseTuple(args, "OOi", &b, &w, &player) || read_own(b, w, own))
        return NULL;
    layout_of(own, &layout);
    return PyBool_FromLong(joins(&layout, player & 1));
}

/* distances(b, w) -> (int, int): Layout.distance of both players, one layout. */
static PyObject *distances(PyObject *self, PyObject *args) {
    PyObject *b, *w;
    points_t own[2];
    layout_t layout;
    if (not_ready() || !PyArg_ParseTuple(args, "OO", &b, &w) || read_own(b, w, own))
        return NULL;
    layout_of(own, &layout);
    return Py_BuildValue("(ii)", distance(&layout, 0), distance(&layout, 1));
}

/* shortest(b, w, player) -> (distance, points on the shortest paths as a grid mask). */
static PyObject *py_shortest(PyObject *self, PyObject *args) {
    PyObject *b, *w;
    int player;
    points_t own[2];
    layout_t layout;
    grid_t on_path;
    if (not_ready() || !PyArg_ParseTuple(args, "OOi", &b, &w, &player) || read_own(b, w, own))
        return NULL;
    layout_of(own, &layout);
    int best = shortest(&layout, player & 1, &on_path);
    PyObject *path = as_int(on_path.w, GRID_WORDS);
    if (!path) return NULL;
    return Py_BuildValue("(iN)", best, path);
}

/* The prior of a move for the mover (policy.AkronPolicy.priors, the same arithmetic in
 * the same order, so the same doubles). */
static double prior_of(int move, const grid_t *own_path, const grid_t *rival_path) {
    int target = move % MAX_POINTS, source = move < MAX_POINTS ? -1 : move / MAX_POINTS - 1;
    int bit = grid_bit(target);
    uint64_t word = (uint64_t)1 << (bit & 63);
    double score = (own_path->w[bit >> 6] & word ? 0.6 : 0.0)
                   + (rival_path->w[bit >> 6] & word ? 0.4 : 0.0);
    if (source >= 0) {
        int from = grid_bit(source);
        if (own_path->w[from >> 6] >> (from & 63) & 1) score -= 0.3;
    }
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

/* expansion(b, w, supply, player, rng) -> [(move, prior), ...]: Policy.expansion with
 * AkronPolicy's priors, the next to grow last. The moves are listed as board.py lists
 * them, shuffled as rng.shuffle does, draw for draw, ranked and sorted. Empty when there
 * is no move (the caller's Python path then offers the pass, with no draw). */
static PyObject *expansion(PyObject *self, PyObject *args) {
    PyObject *b, *w, *rng;
    int supply, player;
    points_t own[2];
    if (not_ready() || !PyArg_ParseTuple(args, "OOiiO", &b, &w, &supply, &player, &rng)
        || read_own(b, w, own))
        return NULL;
    player &= 1;
    int *moves = move_buffer;
    int n = legal(own, supply, player, moves);
    ranked_t *ranked = PyMem_Malloc(sizeof(ranked_t) * (size_t)(n ? n : 1));
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    PyObject *out = NULL;
    if (!ranked || !getrandbits) goto done;
    for (int i = n - 1; i > 0; i--) {  /* random.shuffle */
        long long j = below_n(getrandbits, i + 1);
        if (j < 0) goto done;
        int swap = moves[i];
        moves[i] = moves[j];
        moves[j] = swap;
    }
    if (n) {
        layout_t layout;
        grid_t own_path, rival_path;
        layout_of(own, &layout);
        shortest(&layout, player, &own_path);
        shortest(&layout, player ^ 1, &rival_path);
        for (int i = 0; i < n; i++)
            ranked[i] = (ranked_t){prior_of(moves[i], &own_path, &rival_path), i, moves[i]};
        qsort(ranked, (size_t)n, sizeof *ranked, by_prior);
    }
    out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *move = move_object(ranked[i].move);
        PyObject *pair = move ? Py_BuildValue("(Nd)", move, ranked[i].prior) : NULL;
        if (!pair) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, pair);
    }
done:
    if (!ranked && !PyErr_Occurred()) PyErr_NoMemory();
    Py_XDECREF(getrandbits);
    PyMem_Free(ranked);
    return out;
}

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

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
