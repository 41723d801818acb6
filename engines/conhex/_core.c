/* ConHex's fill playout and the search's tree in C: the same results as
 * ConHexBoard.playout (engines/conhex/fill.py) and the same walks as engines/search.py's
 * Tree with ConHexPolicy, drawing from the caller's random.Random through its random()
 * and getrandbits() methods, so that a seed chooses the same moves in both (see
 * compiled.py).
 *
 * Holes and cells are numbered as in geometry.py; a set of cells is one 64-bit word (41
 * cells). The board's shape (each hole's cells, each cell's threshold, neighbours and
 * sides) comes from geometry.py once (setup), so the rules stay in Python. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>

/* The selection must add and multiply exactly as Python does, one rounding per
 * operation: no fused multiply-add (GCC fuses by default where the processor has one,
 * as arm64 does; clang reads the standard's pragma, GCC its own). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#define MAX_HOLES 128
#define MAX_CELLS 64
#define WALL (1 << 20)   /* engines/paths.py's: a cell no chain passes */
#define B 0
#define W 1

typedef uint64_t cells_t;

static int holes, cells;
static int hole_cells[MAX_HOLES][3], hole_cell_count[MAX_HOLES];
static cells_t hole_cell_set[MAX_HOLES];
static int threshold[MAX_CELLS];
static cells_t neighbours[MAX_CELLS];
static cells_t start_side[2], end_side[2];   /* b: N and S, w: W and E */
static int ready;

static inline int lowest(cells_t set) { return __builtin_ctzll(set); }

static cells_t read_cells(PyObject *numbers) {
    cells_t set = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(numbers); i++)
        set |= 1ULL << PyLong_AsLong(PyTuple_GET_ITEM(numbers, i));
    return set;
}

/* setup(cells_of_hole, thresholds, neighbours, (b start, b end, w start, w end)): each a
 * tuple, cells as tuples of numbers. */
static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *of_hole, *limits, *near, *sides;
    if (!PyArg_ParseTuple(args, "O!O!O!O!", &PyTuple_Type, &of_hole, &PyTuple_Type, &limits,
                          &PyTuple_Type, &near, &PyTuple_Type, &sides))
        return NULL;
    holes = (int)PyTuple_GET_SIZE(of_hole);
    cells = (int)PyTuple_GET_SIZE(limits);
    if (holes >= MAX_HOLES || cells > MAX_CELLS || PyTuple_GET_SIZE(near) != cells
        || PyTuple_GET_SIZE(sides) != 4) {
        PyErr_SetString(PyExc_ValueError, "a ConHex board of at most 128 holes and 64 cells");
        return NULL;
    }
    for (int h = 0; h < holes; h++) {
        PyObject *of = PyTuple_GET_ITEM(of_hole, h);
        hole_cell_count[h] = (int)PyTuple_GET_SIZE(of);
        if (hole_cell_count[h] > 3) {
            PyErr_SetString(PyExc_ValueError, "a hole is in at most three cells");
            return NULL;
        }
        for (int i = 0; i < hole_cell_count[h]; i++)
            hole_cells[h][i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(of, i));
        hole_cell_set[h] = read_cells(of);
    }
    for (int c = 0; c < cells; c++) {
        threshold[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(limits, c));
        neighbours[c] = read_cells(PyTuple_GET_ITEM(near, c));
    }
    for (int player = B; player <= W; player++) {
        start_side[player] = read_cells(PyTuple_GET_ITEM(sides, 2 * player));
        end_side[player] = read_cells(PyTuple_GET_ITEM(sides, 2 * player + 1));
    }
    if (PyErr_Occurred()) return NULL;
    ready = 1;
    Py_RETURN_NONE;
}

/* ---- a position and the rules ------------------------------------------------------- */

typedef struct {
    uint8_t gem[MAX_HOLES];          /* 0 an open hole, 1 b's gem, 2 w's */
    uint8_t count[2][MAX_CELLS];     /* each player's gems in each cell */
    cells_t owned[2];
    int ply, handicap, pie;
    int winner;                      /* B, W, or -1 while nobody has a chain */
} position_t;

/* The pie rule's swap is move number ``holes`` (the holes are 0 .. holes - 1). */
#define SWAP holes

/* board._swap_allowed: w's first action in a game with the pie rule and no handicap. */
static int swap_allowed(const position_t *p) {
    return p->pie && !p->handicap && p->ply == 1 && p->winner < 0;
}

/* board._recolour: the first gem becomes w's; one gem claims nothing, so no cell moves. */
static void swap(position_t *p) {
    for (int h = 0; h < holes; h++)
        if (p->gem[h]) {
            p->gem[h] = W + 1;
            for (int i = 0; i < hole_cell_count[h]; i++) {
                p->count[B][hole_cells[h][i]]--;
                p->count[W][hole_cells[h][i]]++;
            }
        }
    p->ply++;
}

/* board.player_at: b places the handicap gems in a row, then w moves and turns alternate. */
static int player_at(int ply, int handicap) {
    if (ply < handicap) return B;
    return (ply - handicap) % 2 == (handicap ? 1 : 0) ? B : W;
}

/* fill.joins: whether ``owned`` holds a chain of neighbouring cells from start to end. */
static int joins(cells_t owned, cells_t start, cells_t end) {
    cells_t reach = owned & start, frontier = reach;
    while (frontier) {
        if (reach & end) return 1;
        int cell = lowest(frontier);
        frontier &= frontier - 1;
        cells_t fresh = neighbours[cell] & owned & ~reach;
        reach |= fresh;
        frontier |= fresh;
    }
    return 0;
}

/* ConHexBoard._place: the mover's gem claims each cell of the hole nobody owns where
 * the mover now holds its threshold; a claim may complete the mover's chain. */
static void place(position_t *p, int hole) {
    if (hole == SWAP) { swap(p); return; }
    int mover = player_at(p->ply, p->handicap), claimed = 0;
    p->gem[hole] = (uint8_t)(mover + 1);
    for (int i = 0; i < hole_cell_count[hole]; i++) {
        int cell = hole_cells[hole][i];
        cells_t bit = 1ULL << cell;
        if (++p->count[mover][cell] >= threshold[cell] && !((p->owned[B] | p->owned[W]) & bit)) {
            p->owned[mover] |= bit;
            claimed = 1;
        }
    }
    if (claimed && joins(p->owned[mover], start_side[mover], end_side[mover]))
        p->winner = mover;
    p->ply++;
}

/* ---- the fill playout: ConHexBoard.playout and fill.fill_owners --------------------- */

/* One draw of rng.random(), -1.0 with an exception set on failure. */
static double draw(PyObject *random) {
    PyObject *drawn = PyObject_CallNoArgs(random);
    if (!drawn) return -1.0;
    double r = PyFloat_AsDouble(drawn);
    Py_DECREF(drawn);
    return r;
}

/* The winner when random gems fill the open holes, the players taking turns: a key
 * drawn for every hole (open or not, as the Python does), the open holes filled in
 * the order of their keys (ties by number, as a stable sort keeps them), and the
 * owners of the full board worked out at once (fill.py says why that is the winner).
 * The order goes into ``order`` (room for every hole) when not NULL. B or W, -1 with an
 * exception set on failure. */
static int play_out(const position_t *p, PyObject *random, int *order, int *filled) {
    if (p->winner >= 0) { *filled = 0; return p->winner; }
    double key[MAX_HOLES];
    int sorted[MAX_HOLES], n = 0;
    for (int h = 0; h < holes; h++)
        if ((key[h] = draw(random)) < 0) return -1;
    for (int h = 0; h < holes; h++) {   /* insertion sort by key: stable */
        if (p->gem[h]) continue;
        int j = n++;
        for (; j > 0 && key[sorted[j - 1]] > key[h]; j--) sorted[j] = sorted[j - 1];
        sorted[j] = h;
    }
    /* Who fills each: the handicap gems still due are b's, then turns alternate from the
     * player to move. */
    int lead = p->handicap - p->ply > 0 ? p->handicap - p->ply : 0;
    int first = lead ? W : player_at(p->ply, p->handicap);
    uint8_t filler[MAX_HOLES];
    int count[2][MAX_CELLS];
    for (int c = 0; c < cells; c++) {
        count[B][c] = p->count[B][c];
        count[W][c] = p->count[W][c];
    }
    for (int i = 0; i < n; i++) {
        int hole = sorted[i], player = i < lead ? B : ((i - lead) % 2 == 0 ? first : !first);
        filler[hole] = (uint8_t)player;
        for (int k = 0; k < hole_cell_count[hole]; k++) count[player][hole_cells[hole][k]]++;
    }
    cells_t reached[2] = {0, 0}, taken = p->owned[B] | p->owned[W];
    for (int c = 0; c < cells; c++)
        for (int player = B; player <= W; player++)
            if (count[player][c] >= threshold[c]) reached[player] |= 1ULL << c;
    reached[B] &= ~taken;
    reached[W] &= ~taken;
    cells_t cells_b = p->owned[B] | (reached[B] & ~reached[W]);
    /* A cell both reached (3 to 3) went to the player who did not fill its last hole. */
    cells_t split = reached[B] & reached[W];
    for (int i = n - 1; i >= 0 && split; i--) {
        cells_t here = hole_cell_set[sorted[i]] & split;
        if (here && filler[sorted[i]] == W) cells_b |= here;
        split &= ~here;
    }
    if (order)
        for (int i = 0; i < n; i++) order[i] = sorted[i];
    *filled = n;
    return joins(cells_b, start_side[B], end_side[B]) ? B : W;
}

/* A position from Python: gems (0, 1, 2 by hole), b's and w's counts by cell, owners
 * (0, 1, 2 by cell), ply, handicap, pie, winner (-1 none). 0, or -1 with an exception. */
static int read_position(PyObject *gems, PyObject *counts_b, PyObject *counts_w,
                         PyObject *owners, position_t *p) {
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "setup first"); return -1; }
    if (!PyTuple_Check(gems) || PyTuple_GET_SIZE(gems) != holes || !PyTuple_Check(counts_b)
        || !PyTuple_Check(counts_w) || !PyTuple_Check(owners)
        || PyTuple_GET_SIZE(counts_b) != cells || PyTuple_GET_SIZE(counts_w) != cells
        || PyTuple_GET_SIZE(owners) != cells) {
        PyErr_SetString(PyExc_ValueError, "a position is tuples by hole and by cell");
        return -1;
    }
    p->owned[B] = p->owned[W] = 0;
    for (int h = 0; h < holes; h++) p->gem[h] = (uint8_t)PyLong_AsLong(PyTuple_GET_ITEM(gems, h));
    for (int c = 0; c < cells; c++) {
        p->count[B][c] = (uint8_t)PyLong_AsLong(PyTuple_GET_ITEM(counts_b, c));
        p->count[W][c] = (uint8_t)PyLong_AsLong(PyTuple_GET_ITEM(counts_w, c));
        long owner = PyLong_AsLong(PyTuple_GET_ITEM(owners, c));
        if (owner) p->owned[owner - 1] |= 1ULL << c;
    }
    return PyErr_Occurred() ? -1 : 0;
}

#define POSITION_FORMAT "OOOOiipi"

/* playout(gems, counts b, counts w, owners, ply, handicap, pie, winner, rng, trace or None):
 * the winner, 0 b or 1 w; with ``trace`` (a list) the holes in the order filled. */
static PyObject *playout(PyObject *self, PyObject *args) {
    PyObject *gems, *counts_b, *counts_w, *owners, *rng, *trace;
    position_t p;
    if (!PyArg_ParseTuple(args, POSITION_FORMAT "OO", &gems, &counts_b, &counts_w, &owners,
                          &p.ply, &p.handicap, &p.pie, &p.winner, &rng, &trace)
        || read_position(gems, counts_b, counts_w, owners, &p))
        return NULL;
    PyObject *random = PyObject_GetAttrString(rng, "random");
    if (!random) return NULL;
    int order[MAX_HOLES], filled;
    int winner = play_out(&p, random, order, &filled);
    Py_DECREF(random);
    if (winner < 0) return NULL;
    if (trace != Py_None)
        for (int i = 0; i < filled; i++) {
            PyObject *hole = PyLong_FromLong(order[i]);
            if (!hole || PyList_Append(trace, hole)) { Py_XDECREF(hole); return NULL; }
            Py_DECREF(hole);
        }
    return PyLong_FromLong(winner);
}

/* ---- the priors: ConHexPolicy.priors, with engines/paths.py's shortest chains ------- */

/* paths.distances: the least cost from a cell of ``start`` up to and including each
 * cell (Dijkstra by picking the nearest unsettled cell: there are 41). */
static void distances(const int *cost, cells_t start, int *distance) {
    cells_t settled = 0;
    for (int c = 0; c < cells; c++)
        distance[c] = (start >> c & 1) && cost[c] < WALL ? cost[c] : WALL;
    for (;;) {
        int nearest = -1;
        for (int c = 0; c < cells; c++)
            if (!(settled >> c & 1) && distance[c] < WALL
                && (nearest < 0 || distance[c] < distance[nearest]))
                nearest = c;
        if (nearest < 0) return;
        settled |= 1ULL << nearest;
        for (cells_t near = neighbours[nearest]; near; near &= near - 1) {
            int next = lowest(near), through = distance[nearest] + cost[next];
            if (through < distance[next]) distance[next] = through;
        }
    }
}

/* policy.chain_cells: the cells on ``player``'s shortest chains they do not own yet (a
 * cell's cost is the gems it still needs, nothing when owned, a wall when the rival's). */
static cells_t chain_cells(const position_t *p, int player) {
    int cost[MAX_CELLS] = {0}, from_start[MAX_CELLS], from_end[MAX_CELLS];
    for (int c = 0; c < cells; c++)
        cost[c] = p->owned[player] >> c & 1 ? 0 : p->owned[!player] >> c & 1
                  ? WALL : threshold[c] - p->count[player][c];
    distances(cost, start_side[player], from_start);
    distances(cost, end_side[player], from_end);
    int best = 3 * WALL;
    for (int c = 0; c < cells; c++)
        if (from_start[c] + from_end[c] - cost[c] < best) best = from_start[c] + from_end[c] - cost[c];
    cells_t chain = 0;
    if (best >= WALL) return 0;
    for (int c = 0; c < cells; c++)
        if (from_start[c] + from_end[c] - cost[c] == best && cost[c]) chain |= 1ULL << c;
    return chain;
}

/* The prior of a gem of the player to move in each of ``moves``: for each of the hole's
 * cells, 0.5 on the mover's chain when it is one gem from claimed (else 0.3), 0.2 on the
 * rival's chain, added in that order as the Python adds them; at most 1 (the swap 0). */
static void priors(const position_t *p, const int *moves, int n, double *prior) {
    int mover = player_at(p->ply, p->handicap);
    cells_t own = chain_cells(p, mover), rival = chain_cells(p, !mover);
    for (int i = 0; i < n; i++) {
        double score = 0.0;
        for (int k = 0; moves[i] != SWAP && k < hole_cell_count[moves[i]]; k++) {
            int cell = hole_cells[moves[i]][k];
            if (own >> cell & 1)
                score += threshold[cell] - p->count[mover][cell] == 1 ? 0.5 : 0.3;
            if (rival >> cell & 1) score += 0.2;
        }
        prior[i] = score > 1.0 ? 1.0 : score;
    }
}

/* ---- the search's tree: engines/search.py's Tree with ConHexPolicy ------------------- */

/* A node. A new node's moves are kept in the tree's arenas (hole and prior), sorted as
 * the Python node's ``untried`` list, the next to grow last; its children are a list
 * from the newest, each naming the one grown before it. */
typedef struct {
    double prior;
    int32_t visits;
    int32_t half_wins;   /* wins of the player who moved into it, in halves: sums exact */
    int32_t untried;     /* where its moves start in the arenas, -1 until expanded */
    int32_t newest;      /* its newest child, -1 for none */
    int32_t older;       /* the child its parent grew before this one, -1 for none */
    int8_t hole;         /* the hole its gem went in, or SWAP */
    int8_t left;         /* its moves not grown yet */
} node_t;

typedef struct {
    position_t root;
    double exploration, prior_weight;
    PyObject *random, *getrandbits;
    node_t *nodes;
    int32_t node_count, node_room;
    int8_t *move_hole;          /* the arenas of the nodes' moves */
    double *move_prior;
    int32_t move_count, move_room;
} tree_t;

static void tree_free(PyObject *capsule) {
    tree_t *t = PyCapsule_GetPointer(capsule, "conhex.tree");
    Py_XDECREF(t->random);
    Py_XDECREF(t->getrandbits);
    free(t->nodes);
    free(t->move_hole);
    free(t->move_prior);
    free(t);
}

/* A new node reached by a gem in ``hole``; its index, -1 (out of memory) on failure. */
static int32_t new_node(tree_t *t, int hole, double prior) {
    if (t->node_count == t->node_room) {
        int32_t room = t->node_room ? 2 * t->node_room : 4096;
        node_t *grown = realloc(t->nodes, sizeof(node_t) * (size_t)room);
        if (!grown) { PyErr_NoMemory(); return -1; }
        t->nodes = grown;
        t->node_room = room;
    }
    t->nodes[t->node_count] = (node_t){prior, 0, 0, -1, -1, -1, (int8_t)hole, 0};
    return t->node_count++;
}

/* Room for ``n`` more moves in the arenas; where they start, -1 on failure. */
static int32_t reserve_moves(tree_t *t, int n) {
    if (t->move_count + n > t->move_room) {
        int32_t room = t->move_room ? t->move_room : 65536;
        while (t->move_count + n > room) room *= 2;
        int8_t *holes_grown = realloc(t->move_hole, (size_t)room);
        if (!holes_grown) { PyErr_NoMemory(); return -1; }
        t->move_hole = holes_grown;
        double *priors_grown = realloc(t->move_prior, sizeof(double) * (size_t)room);
        if (!priors_grown) { PyErr_NoMemory(); return -1; }
        t->move_prior = priors_grown;
        t->move_room = room;
    }
    t->move_count += n;
    return t->move_count - n;
}

/* random.Random.shuffle, draw for draw: from the last item down, each swapped with one
 * at or below it, chosen by getrandbits of the bound's bit length, drawn again while
 * out of range (Random._randbelow_with_getrandbits). -1 with an exception on failure. */
static int shuffle(int *items, int n, PyObject *getrandbits) {
    for (int i = n - 1; i > 0; i--) {
        unsigned long bound = (unsigned long)i + 1, r;
        PyObject *bits = PyLong_FromLong(64 - __builtin_clzll(bound));
        if (!bits) return -1;
        do {
            PyObject *drawn = PyObject_CallOneArg(getrandbits, bits);
            if (!drawn) { Py_DECREF(bits); return -1; }
            r = PyLong_AsUnsignedLong(drawn);
            Py_DECREF(drawn);
        } while (r >= bound);
        Py_DECREF(bits);
        int swap = items[i];
        items[i] = items[r];
        items[r] = swap;
    }
    return 0;
}

/* Policy.expansion: the open holes in order and the swap where allowed, shuffled by the rng, sorted by prior
 * (stably: ties keep the shuffled order) into the arenas. -1 with an exception on failure. */
static int expand(tree_t *t, int32_t node, const position_t *p) {
    int moves[MAX_HOLES], n = 0;
    double prior[MAX_HOLES];
    for (int h = 0; h < holes; h++)
        if (!p->gem[h]) moves[n++] = h;
    if (swap_allowed(p)) moves[n++] = SWAP;
    if (shuffle(moves, n, t->getrandbits)) return -1;
    priors(p, moves, n, prior);
    for (int i = 1; i < n; i++) {   /* insertion sort: stable */
        int move = moves[i], j = i;
        double key = prior[i];
        for (; j > 0 && prior[j - 1] > key; j--) {
            moves[j] = moves[j - 1];
            prior[j] = prior[j - 1];
        }
        moves[j] = move;
        prior[j] = key;
    }
    int32_t at = reserve_moves(t, n);
    if (at < 0) return -1;
    for (int i = 0; i < n; i++) {
        t->move_hole[at + i] = (int8_t)moves[i];
        t->move_prior[at + i] = prior[i];
    }
    t->nodes[node].untried = at;
    t->nodes[node].left = (int8_t)n;
    return 0;
}

/* Node.best_child: the upper confidence bound plus the prior fading with visits, the
 * first grown of equal scores (the list runs from the newest: ``>=`` keeps the oldest);
 * each term computed as search.py computes it. */
static int32_t best_child(const tree_t *t, int32_t node) {
    double log_visits = log((double)t->nodes[node].visits), best_score = -1.0;
    int32_t best = -1;
    for (int32_t c = t->nodes[node].newest; c >= 0; c = t->nodes[c].older) {
        const node_t *child = &t->nodes[c];
        double visits = (double)child->visits;
        double score = child->half_wins * 0.5 / visits
                       + t->exploration * sqrt(log_visits / visits)
                       + t->prior_weight * child->prior / (visits + 1.0);
        if (score >= best_score) { best = c; best_score = score; }
    }
    return best;
}

/* search._walk: select down the tree, grow one child, play out, count the result up the
 * path. -1 with an exception on failure. */
static int walk(tree_t *t) {
    position_t p = t->root;
    int32_t path[MAX_HOLES + 2], node = 0;
    int depth = 0;
    path[depth++] = node;
    while (p.winner < 0) {
        if (t->nodes[node].untried < 0 && expand(t, node, &p)) return -1;
        if (t->nodes[node].left) {
            node_t *n = &t->nodes[node];
            int32_t at = n->untried + --n->left;
            int32_t child = new_node(t, t->move_hole[at], t->move_prior[at]);
            if (child < 0) return -1;
            t->nodes[child].older = t->nodes[node].newest;
            t->nodes[node].newest = child;
            node = child;
            place(&p, t->nodes[node].hole);
            path[depth++] = node;
            break;
        }
        if (t->nodes[node].newest < 0) break;
        node = best_child(t, node);
        place(&p, t->nodes[node].hole);
        path[depth++] = node;
    }
    int filled, winner = play_out(&p, t->random, NULL, &filled);
    if (winner < 0) return -1;
    t->nodes[0].visits++;
    for (int i = 1; i < depth; i++) {
        int mover = player_at(t->root.ply + i - 1, t->root.handicap);
        t->nodes[path[i]].visits++;
        t->nodes[path[i]].half_wins += mover == winner ? 2 : 0;
    }
    return 0;
}

static tree_t *tree_of(PyObject *capsule) { return PyCapsule_GetPointer(capsule, "conhex.tree"); }

/* tree(gems, counts b, counts w, owners, ply, handicap, pie, winner, exploration,
 *      prior_weight, rng): a tree with its root expanded. */
static PyObject *tree(PyObject *self, PyObject *args) {
    PyObject *gems, *counts_b, *counts_w, *owners, *rng;
    tree_t *t = calloc(1, sizeof(tree_t));
    if (!t) return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, POSITION_FORMAT "ddO", &gems, &counts_b, &counts_w, &owners,
                          &t->root.ply, &t->root.handicap, &t->root.pie, &t->root.winner,
                          &t->exploration,
                          &t->prior_weight, &rng)
        || read_position(gems, counts_b, counts_w, owners, &t->root)) {
        free(t);
        return NULL;
    }
    PyObject *made = PyCapsule_New(t, "conhex.tree", tree_free);
    if (!made) { free(t); return NULL; }
    t->random = PyObject_GetAttrString(rng, "random");
    t->getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (!t->random || !t->getrandbits || new_node(t, -1, 0.0) < 0
        || (t->root.winner < 0 && expand(t, 0, &t->root))) {
        Py_DECREF(made);
        return NULL;
    }
    return made;
}

/* walk(tree, count): ``count`` walks. */
static PyObject *walks(PyObject *self, PyObject *args) {
    PyObject *capsule;
    int times;
    if (!PyArg_ParseTuple(args, "Oi", &capsule, &times)) return NULL;
    tree_t *t = tree_of(capsule);
    if (!t) return NULL;
    for (int i = 0; i < times; i++)
        if (walk(t)) return NULL;
    Py_RETURN_NONE;
}

/* only_move(tree): the root's move (a hole, or SWAP) when it has one, else None. */
static PyObject *only_move(PyObject *self, PyObject *capsule) {
    tree_t *t = tree_of(capsule);
    if (!t) return NULL;
    if (t->nodes[0].untried < 0 || t->nodes[0].left != 1 || t->nodes[0].newest >= 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(t->move_hole[t->nodes[0].untried]);
}

/* best_move(tree): the move of the root's most visited child, the first grown on a tie. */
static PyObject *best_move(PyObject *self, PyObject *capsule) {
    tree_t *t = tree_of(capsule);
    if (!t) return NULL;
    int32_t best = -1;
    for (int32_t c = t->nodes[0].newest; c >= 0; c = t->nodes[c].older)
        if (best < 0 || t->nodes[c].visits >= t->nodes[best].visits) best = c;
    if (best < 0) Py_RETURN_NONE;
    return PyLong_FromLong(t->nodes[best].hole);
}

/* counts(tree): the root's children as (hole or SWAP, visits, wins for the player to
 * move), in the order grown (the list runs from the newest: filled from the back), as
 * search.Tree.counts has them (a hint says how sure it is from them). */
static PyObject *counts(PyObject *self, PyObject *capsule) {
    tree_t *t = tree_of(capsule);
    if (!t) return NULL;
    Py_ssize_t grown = 0;
    for (int32_t c = t->nodes[0].newest; c >= 0; c = t->nodes[c].older) grown++;
    PyObject *out = PyList_New(grown);
    for (int32_t c = t->nodes[0].newest; out && c >= 0; c = t->nodes[c].older) {
        const node_t *child = &t->nodes[c];
        PyObject *count = Py_BuildValue("(iid)", child->hole, child->visits,
                                        child->half_wins * 0.5);
        if (!count) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, --grown, count);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "Take the board's cells and sides from geometry.py."},
    {"playout", playout, METH_VARARGS, "A fill playout: the winner, 0 b or 1 w."},
    {"tree", tree, METH_VARARGS, "A search tree for a position, its root expanded."},
    {"walk", walks, METH_VARARGS, "Walk the tree a number of times."},
    {"only_move", only_move, METH_O, "The root's hole when it is the only legal one."},
    {"best_move", best_move, METH_O, "The root's most visited child's hole."},
    {"counts", counts, METH_O, "The root's children's holes, visits and wins."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "ConHex's playout and search tree in C (see compiled.py).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
