/* Kulami's random playouts and the search's tree in C: the same games as
 * KulamiBoard.playout and the same walks as engines/search.py's Tree with KulamiPolicy,
 * drawing from the caller's random.Random through its random() and getrandbits()
 * methods, so that a seed chooses the same moves in both (see compiled.py).
 *
 * A set of fields is a mask of two 64-bit words, field (x, y) at bit y * stride + x as in
 * bits.py (a layout is at most 10 x 10, stride 11: under 128 bits). The layout's lines
 * and panels come from bits.py once per layout (shape), so the rules stay in Python. */
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

#define BITS 128
#define MARBLES 56   /* 28 each: the game ends when all are placed */

typedef struct { uint64_t lo, hi; } mask_t;

static inline mask_t both(mask_t a, mask_t b) { return (mask_t){a.lo & b.lo, a.hi & b.hi}; }
static inline mask_t either(mask_t a, mask_t b) { return (mask_t){a.lo | b.lo, a.hi | b.hi}; }
static inline mask_t without(mask_t a, mask_t b) { return (mask_t){a.lo & ~b.lo, a.hi & ~b.hi}; }
static inline int same(mask_t a, mask_t b) { return a.lo == b.lo && a.hi == b.hi; }
static inline int is_empty(mask_t a) { return !(a.lo | a.hi); }
static inline int count(mask_t a) { return __builtin_popcountll(a.lo) + __builtin_popcountll(a.hi); }
static inline mask_t single(int bit) {
    return bit < 64 ? (mask_t){1ULL << bit, 0} : (mask_t){0, 1ULL << (bit - 64)};
}
static inline int lowest(mask_t a) {   /* the lowest bit set; a is not empty */
    return a.lo ? __builtin_ctzll(a.lo) : 64 + __builtin_ctzll(a.hi);
}
/* a << k and a >> k for 0 < k < 64 (a step is at most 4 * (stride + 1) = 44). */
static inline mask_t up(mask_t a, int k) { return (mask_t){a.lo << k, a.hi << k | a.lo >> (64 - k)}; }
static inline mask_t down(mask_t a, int k) { return (mask_t){a.lo >> k | a.hi << (64 - k), a.hi >> k}; }

static mask_t read_mask(PyObject *lo, PyObject *hi) {
    return (mask_t){PyLong_AsUnsignedLongLongMask(lo), PyLong_AsUnsignedLongLongMask(hi)};
}

/* ---- one layout's geometry (bits.Geometry) ------------------------------------------ */

typedef struct {
    int stride;
    mask_t fields;
    mask_t line[BITS];          /* bit -> the other fields of its row and column */
    mask_t panel[BITS];         /* bit -> the fields of its panel */
    int panels;
    mask_t panel_mask[BITS];    /* every panel, with its number of fields */
    int panel_size[BITS];
} shape_t;

static void shape_free(PyObject *capsule) { free(PyCapsule_GetPointer(capsule, "kulami.shape")); }

/* shape(stride, fields, lines, panels, panel_list): masks as (lo, hi) pairs; lines and
 * panels by bit, panel_list as (mask, size) pairs. A capsule the other calls take. */
static PyObject *shape(PyObject *self, PyObject *args) {
    int stride;
    PyObject *fields, *lines, *panels, *list;
    if (!PyArg_ParseTuple(args, "iOO!O!O!", &stride, &fields, &PyTuple_Type, &lines,
                          &PyTuple_Type, &panels, &PyTuple_Type, &list))
        return NULL;
    if (PyTuple_GET_SIZE(lines) > BITS || PyTuple_GET_SIZE(panels) > BITS
        || PyTuple_GET_SIZE(list) > BITS || stride < 2 || 4 * (stride + 1) >= 64) {
        PyErr_SetString(PyExc_ValueError, "a Kulami layout is at most 10 x 10");
        return NULL;
    }
    shape_t *s = calloc(1, sizeof(shape_t));
    if (!s) return PyErr_NoMemory();
    s->stride = stride;
    s->fields = read_mask(PyTuple_GetItem(fields, 0), PyTuple_GetItem(fields, 1));
    for (Py_ssize_t bit = 0; bit < PyTuple_GET_SIZE(lines); bit++) {
        PyObject *l = PyTuple_GET_ITEM(lines, bit), *p = PyTuple_GET_ITEM(panels, bit);
        s->line[bit] = read_mask(PyTuple_GetItem(l, 0), PyTuple_GetItem(l, 1));
        s->panel[bit] = read_mask(PyTuple_GetItem(p, 0), PyTuple_GetItem(p, 1));
    }
    s->panels = (int)PyTuple_GET_SIZE(list);
    for (int i = 0; i < s->panels; i++) {
        PyObject *entry = PyTuple_GetItem(list, i), *m = PyTuple_GetItem(entry, 0);
        s->panel_mask[i] = read_mask(PyTuple_GetItem(m, 0), PyTuple_GetItem(m, 1));
        s->panel_size[i] = (int)PyLong_AsLong(PyTuple_GetItem(entry, 1));
    }
    if (PyErr_Occurred()) { free(s); return NULL; }
    PyObject *capsule = PyCapsule_New(s, "kulami.shape", shape_free);
    if (!capsule) free(s);
    return capsule;
}

/* ---- scoring: bits.Geometry.score ---------------------------------------------------- */

static void panel_points(const shape_t *s, mask_t b, mask_t w, int *points) {
    for (int i = 0; i < s->panels; i++) {
        int on_b = count(both(b, s->panel_mask[i])), on_w = count(both(w, s->panel_mask[i]));
        if (on_b != on_w) points[on_w > on_b] += s->panel_size[i];
    }
}

/* The largest orthogonally connected group: each group grown from its lowest field. */
static int largest_area(const shape_t *s, mask_t own) {
    int best = 0;
    while (count(own) > best) {
        mask_t group = single(lowest(own));
        for (;;) {
            mask_t grown = both(either(either(group, either(up(group, 1), down(group, 1))),
                                       either(up(group, s->stride), down(group, s->stride))),
                                own);
            if (same(grown, group)) break;
            group = grown;
        }
        if (count(group) > best) best = count(group);
        own = without(own, group);
    }
    return best;
}

/* The fields covered by some five in a row along each direction, summed. */
static int chain_length(const shape_t *s, mask_t own, int diagonal_only) {
    int steps[4] = {s->stride + 1, s->stride - 1, 1, s->stride};
    int total = 0;
    for (int d = 0; d < (diagonal_only ? 2 : 4); d++) {
        mask_t starts = own, covered;
        for (int i = 1; i < 5; i++) starts = both(starts, down(own, i * steps[d]));
        if (is_empty(starts)) continue;
        covered = starts;
        for (int i = 1; i < 5; i++) covered = either(covered, up(starts, i * steps[d]));
        total += count(covered);
    }
    return total;
}

/* Who wins at scoring ``level``, in halves of a win for black: 2 black, 0 white, 1 a draw. */
static int result_for_b(const shape_t *s, mask_t b, mask_t w, int level, int diagonal_only) {
    int points[2] = {0, 0};
    panel_points(s, b, w, points);
    if (level >= 1) {
        int area = largest_area(s, b) - largest_area(s, w);
        points[area < 0] += abs(area);
    }
    if (level >= 2) {
        int chain = chain_length(s, b, diagonal_only) - chain_length(s, w, diagonal_only);
        points[chain < 0] += abs(chain);
    }
    return points[0] > points[1] ? 2 : points[0] < points[1] ? 0 : 1;
}

/* ---- a position and the move rule --------------------------------------------------- */

typedef struct {
    mask_t own[2];      /* black's marbles, white's */
    int ply;            /* marbles placed: black places on even plies */
    int last, before;   /* the bits of the last two marbles, -1 for none */
} position_t;

/* The empty fields in the row and column of the last marble, off the last two panels. */
static mask_t legal_fields(const shape_t *s, const position_t *p) {
    mask_t free = without(s->fields, either(p->own[0], p->own[1]));
    if (p->last < 0) return free;
    mask_t banned = s->panel[p->last];
    if (p->before >= 0) banned = either(banned, s->panel[p->before]);
    return without(both(free, s->line[p->last]), banned);
}

static int game_over(const shape_t *s, const position_t *p) {
    return p->ply >= MARBLES || is_empty(legal_fields(s, p));
}

static void place(position_t *p, int bit) {
    p->own[p->ply & 1] = either(p->own[p->ply & 1], single(bit));
    p->before = p->last;
    p->last = bit;
    p->ply++;
}

/* ---- the random playout: KulamiBoard.playout ---------------------------------------- */

/* One draw of rng.random(), -1.0 with an exception set on failure. */
static double draw(PyObject *random) {
    PyObject *drawn = PyObject_CallNoArgs(random);
    if (!drawn) return -1.0;
    double r = PyFloat_AsDouble(drawn);
    Py_DECREF(drawn);
    return r;
}

/* Random legal fields to the end, the n-th lowest for n = int(random() * count), and the
 * result in halves for black; with ``trace`` (a list, else NULL) a (legal lo, legal hi,
 * bit) tuple a marble. -1 with an exception set on failure. */
static int play_out(const shape_t *s, position_t p, int level, int diagonal_only,
                    PyObject *random, PyObject *trace) {
    while (p.ply < MARBLES) {
        mask_t legal = legal_fields(s, &p);
        if (is_empty(legal)) break;
        double r = draw(random);
        if (r < 0) return -1;
        mask_t chosen = legal;
        for (int skip = (int)(r * count(legal)); skip; skip--)
            chosen = without(chosen, single(lowest(chosen)));
        int bit = lowest(chosen);
        if (trace) {
            PyObject *step = Py_BuildValue("(KKi)", (unsigned long long)legal.lo,
                                           (unsigned long long)legal.hi, bit);
            if (!step || PyList_Append(trace, step)) { Py_XDECREF(step); return -1; }
            Py_DECREF(step);
        }
        place(&p, bit);
    }
    return result_for_b(s, p.own[0], p.own[1], level, diagonal_only);
}

static shape_t *shape_of(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "kulami.shape");
}

/* The position from Python: shape, black lo, hi, white lo, hi, ply, last, before. */
#define POSITION_FORMAT "OOOOOiii"

/* playout(shape, b lo, b hi, w lo, w hi, ply, last, before, level, diagonal_only, rng,
 *         trace or None): the result in halves of a win for black. */
static PyObject *playout(PyObject *self, PyObject *args) {
    PyObject *capsule, *b_lo, *b_hi, *w_lo, *w_hi, *rng, *trace;
    position_t p;
    int level, diagonal_only;
    if (!PyArg_ParseTuple(args, POSITION_FORMAT "ipOO", &capsule, &b_lo, &b_hi, &w_lo, &w_hi,
                          &p.ply, &p.last, &p.before, &level, &diagonal_only, &rng, &trace))
        return NULL;
    shape_t *s = shape_of(capsule);
    if (!s) return NULL;
    p.own[0] = read_mask(b_lo, b_hi);
    p.own[1] = read_mask(w_lo, w_hi);
    PyObject *random = PyObject_GetAttrString(rng, "random");
    if (!random) return NULL;
    int result = play_out(s, p, level, diagonal_only, random, trace == Py_None ? NULL : trace);
    Py_DECREF(random);
    return result < 0 ? NULL : PyLong_FromLong(result);
}

/* ---- the search's tree: engines/search.py's Tree with KulamiPolicy -------------------- */

/* A node. Its children sit side by side from ``first``: when a node is expanded, one slot
 * a legal move in the order the Python node's ``untried`` list pops them, so that growing
 * a child is taking the next slot. */
typedef struct {
    int32_t visits;
    int32_t half_wins;   /* wins of the player who moved into it, in halves: sums exact */
    int32_t first;       /* the slot of its first child, -1 until expanded */
    int8_t bit;          /* the field its marble went on */
    int8_t swing;        /* the prior's numerator: prior = swing / largest swing */
    int8_t grown;        /* children grown so far */
    int8_t moves;        /* slots reserved: its legal moves */
} node_t;

typedef struct {
    const shape_t *shape;
    PyObject *shape_capsule, *random, *getrandbits;
    position_t root;
    int level, diagonal_only;
    double exploration, prior_weight, largest_swing;
    node_t *nodes;
    int32_t used, room;
} tree_t;

static void tree_free(PyObject *capsule) {
    tree_t *t = PyCapsule_GetPointer(capsule, "kulami.tree");
    Py_XDECREF(t->shape_capsule);
    Py_XDECREF(t->random);
    Py_XDECREF(t->getrandbits);
    free(t->nodes);
    free(t);
}

/* ``count`` more slots at the end; their first index, -1 (out of memory) on failure. */
static int32_t reserve(tree_t *t, int count) {
    if (t->used + count > t->room) {
        int32_t room = t->room ? t->room : 4096;
        while (t->used + count > room) room *= 2;
        node_t *grown = realloc(t->nodes, sizeof(node_t) * (size_t)room);
        if (!grown) { PyErr_NoMemory(); return -1; }
        t->nodes = grown;
        t->room = room;
    }
    t->used += count;
    return t->used - count;
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

/* KulamiPolicy.priors' numerator for a marble of the player to move on ``bit``: the
 * panel's fields when it turns the panel's majority a step its way (the rival's lead of
 * one into a tie, a tie into its own), else 0. */
static int swing(const shape_t *s, const position_t *p, int bit) {
    mask_t panel = s->panel[bit];
    int lead = count(both(p->own[p->ply & 1], panel)) - count(both(p->own[!(p->ply & 1)], panel));
    return (lead == 0 || lead == -1) ? count(panel) : 0;
}

/* Policy.expansion: the legal fields lowest first, shuffled by the rng, sorted by prior
 * (stably: ties keep the shuffled order), laid out in the order ``pop()`` takes them,
 * the highest prior first. -1 with an exception on failure. */
static int expand(tree_t *t, int32_t node, const position_t *p) {
    int items[BITS], swings[BITS], n = 0;
    for (mask_t legal = legal_fields(t->shape, p); !is_empty(legal); n++) {
        items[n] = lowest(legal);
        legal = without(legal, single(items[n]));
    }
    if (shuffle(items, n, t->getrandbits)) return -1;
    for (int i = 0; i < n; i++) swings[i] = swing(t->shape, p, items[i]);
    for (int i = 1; i < n; i++) {   /* insertion sort: stable, and n is at most 18 */
        int item = items[i], key = swings[i], j = i;
        for (; j > 0 && swings[j - 1] > key; j--) {
            items[j] = items[j - 1];
            swings[j] = swings[j - 1];
        }
        items[j] = item;
        swings[j] = key;
    }
    int32_t first = reserve(t, n);
    if (first < 0) return -1;
    for (int i = 0; i < n; i++)
        t->nodes[first + i] = (node_t){0, 0, -1, (int8_t)items[n - 1 - i],
                                       (int8_t)swings[n - 1 - i], 0, 0};
    t->nodes[node].first = first;
    t->nodes[node].moves = (int8_t)n;
    return 0;
}

/* Node.best_child: the upper confidence bound plus the prior fading with visits, the
 * first of equal scores; each term computed as search.py computes it. */
static int32_t best_child(const tree_t *t, int32_t node) {
    const node_t *n = &t->nodes[node];
    double log_visits = log((double)n->visits), best_score = -1.0;
    int32_t best = -1;
    for (int32_t c = n->first; c < n->first + n->grown; c++) {
        const node_t *child = &t->nodes[c];
        double visits = (double)child->visits;
        double prior = child->swing / t->largest_swing;
        double score = child->half_wins * 0.5 / visits
                       + t->exploration * sqrt(log_visits / visits)
                       + t->prior_weight * prior / (visits + 1.0);
        if (score > best_score) { best = c; best_score = score; }
    }
    return best;
}

/* search._walk: select down the tree, grow one child, play out, count the result up the
 * path. -1 with an exception on failure. */
static int walk(tree_t *t) {
    position_t p = t->root;
    int32_t path[MARBLES + 2], node = 0;
    int depth = 0;
    path[depth++] = node;
    while (!game_over(t->shape, &p)) {
        if (t->nodes[node].first < 0 && expand(t, node, &p)) return -1;
        node_t *n = &t->nodes[node];
        if (n->grown < n->moves) {
            node = n->first + n->grown++;
            place(&p, t->nodes[node].bit);
            path[depth++] = node;
            break;
        }
        if (!n->grown) break;
        node = best_child(t, node);
        place(&p, t->nodes[node].bit);
        path[depth++] = node;
    }
    int halves_b = play_out(t->shape, p, t->level, t->diagonal_only, t->random, NULL);
    if (halves_b < 0) return -1;
    t->nodes[0].visits++;
    for (int i = 1; i < depth; i++) {
        int mover = (t->root.ply + i - 1) & 1;   /* who placed the marble into path[i] */
        t->nodes[path[i]].visits++;
        t->nodes[path[i]].half_wins += mover ? 2 - halves_b : halves_b;
    }
    return 0;
}

static tree_t *tree_of(PyObject *capsule) { return PyCapsule_GetPointer(capsule, "kulami.tree"); }

/* tree(shape, b lo, b hi, w lo, w hi, ply, last, before, level, diagonal_only,
 *      exploration, prior_weight, largest_swing, rng): a tree with its root expanded. */
static PyObject *tree(PyObject *self, PyObject *args) {
    PyObject *capsule, *b_lo, *b_hi, *w_lo, *w_hi, *rng;
    tree_t *t = calloc(1, sizeof(tree_t));
    if (!t) return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, POSITION_FORMAT "ipdddO", &capsule, &b_lo, &b_hi, &w_lo,
                          &w_hi, &t->root.ply, &t->root.last, &t->root.before, &t->level,
                          &t->diagonal_only, &t->exploration, &t->prior_weight,
                          &t->largest_swing, &rng)
        || !(t->shape = shape_of(capsule))) {
        free(t);
        return NULL;
    }
    PyObject *made = PyCapsule_New(t, "kulami.tree", tree_free);
    if (!made) { free(t); return NULL; }
    Py_INCREF(capsule);
    t->shape_capsule = capsule;
    t->root.own[0] = read_mask(b_lo, b_hi);
    t->root.own[1] = read_mask(w_lo, w_hi);
    t->random = PyObject_GetAttrString(rng, "random");
    t->getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (!t->random || !t->getrandbits || reserve(t, 1) < 0) { Py_DECREF(made); return NULL; }
    t->nodes[0] = (node_t){0, 0, -1, -1, 0, 0, 0};
    if (!game_over(t->shape, &t->root) && expand(t, 0, &t->root)) { Py_DECREF(made); return NULL; }
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

/* only_move(tree): the root's field when it has one legal move, else None. */
static PyObject *only_move(PyObject *self, PyObject *capsule) {
    tree_t *t = tree_of(capsule);
    if (!t) return NULL;
    if (t->nodes[0].moves != 1) Py_RETURN_NONE;
    return PyLong_FromLong(t->nodes[t->nodes[0].first].bit);
}

/* best_move(tree): the field of the root's most visited child, the first on a tie. */
static PyObject *best_move(PyObject *self, PyObject *capsule) {
    tree_t *t = tree_of(capsule);
    if (!t) return NULL;
    const node_t *root = &t->nodes[0];
    int32_t best = -1;
    for (int32_t c = root->first; c < root->first + root->grown; c++)
        if (best < 0 || t->nodes[c].visits > t->nodes[best].visits) best = c;
    if (best < 0) Py_RETURN_NONE;
    return PyLong_FromLong(t->nodes[best].bit);
}

/* counts(tree): the root's children as (field, visits, wins for the player to move), in
 * the order grown, as search.Tree.counts has them (a hint says how sure it is from them). */
static PyObject *counts(PyObject *self, PyObject *capsule) {
    tree_t *t = tree_of(capsule);
    if (!t) return NULL;
    const node_t *root = &t->nodes[0];
    PyObject *out = PyList_New(root->grown);
    for (int k = 0; out && k < root->grown; k++) {
        const node_t *child = &t->nodes[root->first + k];
        PyObject *count = Py_BuildValue("(iid)", child->bit, child->visits,
                                        child->half_wins * 0.5);
        if (!count) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, k, count);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"shape", shape, METH_VARARGS, "Take one layout's lines and panels from bits.py."},
    {"playout", playout, METH_VARARGS, "A random playout: the result in halves for black."},
    {"tree", tree, METH_VARARGS, "A search tree for a position, its root expanded."},
    {"walk", walks, METH_VARARGS, "Walk the tree a number of times."},
    {"only_move", only_move, METH_O, "The root's field when it is the only legal one."},
    {"best_move", best_move, METH_O, "The root's most visited child's field."},
    {"counts", counts, METH_O, "The root's children's fields, visits and wins."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "Kulami's playout and search tree in C (see compiled.py).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
