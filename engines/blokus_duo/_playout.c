/* Blokus Duo's compiled core (see compiled.py): the legal placements; the random
 * playouts, the same games as playout.play_out, uniform or guided (largest_first and
 * guided both on, the search's), drawing from the caller's random.Random through its
 * random() method so that a seed gives the same placements in both; a new node's moves
 * ranked by the policy's priors; and the search's tree. Each part below says which
 * Python function it follows.
 * Masks are 4 x 64-bit words (the board's 210 bit indices); the placements' masks,
 * edges and corners come from Python once (setup), so the rules stay in pieces.py. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
/* The tree's arithmetic must round as Python's does, step by step, for the same walks:
 * no fused multiply-adds, which the compiler would otherwise make where the processor
 * has them (arm64, the Pi's, always does). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define WORDS 4
#define SQUARES (WORDS * 64)
#define PIECES 21

typedef struct { uint64_t w[WORDS]; } mask_t;
typedef struct { mask_t mask, edges, corners; int piece; } placement_t;

static placement_t *placements;          /* every placement, numbered by setup */
static int placement_count;
static int *covering[SQUARES][PIECES];   /* placement numbers covering a square */
static int covering_count[SQUARES][PIECES];
static int sizes[PIECES];
static int monomino = -1, all_placed_bonus, monomino_last_bonus;
static int ready;
static PyObject *placement_objects;       /* pieces.PLACEMENTS, to hand back moves */
static mask_t board_mask;                 /* every square of the board */
static int stride;                        /* bit indices between rows */

static inline int meets(const mask_t *a, const mask_t *b) {
    return ((a->w[0] & b->w[0]) | (a->w[1] & b->w[1]) | (a->w[2] & b->w[2])
            | (a->w[3] & b->w[3])) != 0;
}

static int read_mask(PyObject *words, mask_t *out) {
    if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != WORDS) {
        PyErr_SetString(PyExc_ValueError, "a mask is a tuple of 4 words");
        return -1;
    }
    for (int i = 0; i < WORDS; i++) {
        out->w[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(words, i));
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* setup(placements, covering, sizes, monomino, all_placed_bonus, monomino_last_bonus,
 *       board, stride, objects):
 * placements a sequence of (mask, edges, corners, piece), masks as 4 words; covering a
 * sequence by square of sequences by piece of placement numbers; objects the Placement
 * values by number, handed back as moves. */
static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *given, *cover, *size_list, *objects;
    PyObject *board_words;
    if (!PyArg_ParseTuple(args, "O!O!O!iiiOiO!", &PyTuple_Type, &given, &PyTuple_Type, &cover,
                          &PyTuple_Type, &size_list, &monomino, &all_placed_bonus,
                          &monomino_last_bonus, &board_words, &stride, &PyTuple_Type, &objects)
        || read_mask(board_words, &board_mask))
        return NULL;
    if (PyTuple_GET_SIZE(cover) > SQUARES || PyTuple_GET_SIZE(size_list) != PIECES
        || PyTuple_GET_SIZE(objects) != PyTuple_GET_SIZE(given)) {
        PyErr_SetString(PyExc_ValueError, "the board or the piece set does not fit");
        return NULL;
    }
    Py_INCREF(objects);
    Py_XSETREF(placement_objects, objects);
    Py_ssize_t n = PyTuple_GET_SIZE(given);
    placement_t *table = calloc((size_t)n, sizeof(placement_t));
    if (!table) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(given, i);
        PyObject *m, *e, *c;
        if (!PyArg_ParseTuple(item, "OOOi", &m, &e, &c, &table[i].piece)
            || read_mask(m, &table[i].mask) || read_mask(e, &table[i].edges)
            || read_mask(c, &table[i].corners)) {
            free(table);
            return NULL;
        }
    }
    for (int i = 0; i < PIECES; i++)
        sizes[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(size_list, i));
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(cover); s++) {
        PyObject *by_piece = PyTuple_GET_ITEM(cover, s);
        for (int p = 0; p < PIECES && p < PyTuple_GET_SIZE(by_piece); p++) {
            PyObject *numbers = PyTuple_GET_ITEM(by_piece, p);
            Py_ssize_t k = PyTuple_GET_SIZE(numbers);
            int *list = malloc(sizeof(int) * (size_t)(k ? k : 1));
            if (!list) return PyErr_NoMemory();
            for (Py_ssize_t j = 0; j < k; j++)
                list[j] = (int)PyLong_AsLong(PyTuple_GET_ITEM(numbers, j));
            free(covering[s][p]);
            covering[s][p] = list;
            covering_count[s][p] = (int)k;
        }
    }
    if (PyErr_Occurred()) { free(table); return NULL; }
    free(placements);
    placements = table;
    placement_count = (int)n;
    ready = 1;
    Py_RETURN_NONE;
}

/* The legal placements (numbers) for one player, in playout.placements's order: by
 * attachment point, lowest first, then by piece number, each at the lowest point. */
static int legal(uint32_t left, const mask_t *forbidden, const mask_t *attach, int *found) {
    int count = 0;
    mask_t below = {{0, 0, 0, 0}};
    for (int word = 0; word < WORDS; word++) {
        uint64_t points = attach->w[word];
        while (points) {
            int bit = __builtin_ctzll(points);
            points &= points - 1;
            int square = word * 64 + bit;
            mask_t blocked = *forbidden;
            for (int i = 0; i < WORDS; i++) blocked.w[i] |= below.w[i];
            for (int piece = 0; piece < PIECES; piece++) {
                if (!(left >> piece & 1)) continue;
                const int *list = covering[square][piece];
                for (int j = 0; j < covering_count[square][piece]; j++)
                    if (!meets(&placements[list[j]].mask, &blocked)) found[count++] = list[j];
            }
            below.w[word] |= (uint64_t)1 << bit;
        }
    }
    return count;
}

static int score(uint32_t left, int last) {
    if (left) {
        int sum = 0;
        for (int n = 0; n < PIECES; n++) if (left >> n & 1) sum += sizes[n];
        return -sum;
    }
    return all_placed_bonus + (last == monomino ? monomino_last_bonus : 0);
}

static mask_t shifted(const mask_t *m, int k) {   /* k > 0 left, k < 0 right, |k| < 64 */
    mask_t out;
    if (k > 0) {
        for (int i = WORDS - 1; i >= 0; i--)
            out.w[i] = m->w[i] << k | (i ? m->w[i - 1] >> (64 - k) : 0);
    } else {
        k = -k;
        for (int i = 0; i < WORDS; i++)
            out.w[i] = m->w[i] >> k | (i < WORDS - 1 ? m->w[i + 1] << (64 - k) : 0);
    }
    return out;
}

static mask_t edges_of(const mask_t *m) {
    int steps[4] = {1, -1, stride, -stride};
    mask_t out = {{0, 0, 0, 0}};
    for (int s = 0; s < 4; s++) {
        mask_t t = shifted(m, steps[s]);
        for (int i = 0; i < WORDS; i++) out.w[i] |= t.w[i];
    }
    for (int i = 0; i < WORDS; i++) out.w[i] &= board_mask.w[i];
    return out;
}

static int is_empty(const mask_t *m) { return !(m->w[0] | m->w[1] | m->w[2] | m->w[3]); }

/* One draw of rng.random(), -1.0 with an exception set on failure. */
static double draw(PyObject *random) {
    PyObject *drawn = PyObject_CallNoArgs(random);
    if (!drawn) return -1.0;
    double r = PyFloat_AsDouble(drawn);
    Py_DECREF(drawn);
    return r;
}
#define PICK(r, n) ((int)((r) * (double)(n)))

/* --- The guided playout (playout._guided): a weighted draw among all legal placements.
 * Each player's legal placements are kept through the playout as a bit set over
 * placement numbers, rather than listed afresh each move: those the corners of their
 * own new piece open are added after it, those no longer legal are dropped as a draw
 * walks past them, and a draw walks them in placement-number order, as the Python
 * reference sorts them. The weights come from playout.py (weigh_playouts). */
#define LOCAL_MOST 10                      /* a pentomino's local squares counted twice */
#define SET_WORDS 256                      /* room for 16,384 placements */
typedef struct { uint64_t bits[SET_WORDS]; } moveset_t;
static double piece_gamma[PIECES], local_gamma[LOCAL_MOST + 1];
static int least_size[2 * PIECES + 1];     /* by pieces on the board: the smallest drawn */
static int playout_weighed;
static double *cumulative;                 /* room for every placement's running sum */
static int *drawn_from;
/* Each placement's squares within two neighbouring words (a piece spans at most five
 * rows, 61 bit indices): tested with two ands, and close together in memory. */
typedef struct { uint64_t low, high; int word, piece, number; } span_t;
static span_t *spans;
/* covering[square][piece] split by which of the square's four neighbours are closed
 * (bit k for neighbour k): those placements that cover none of the closed ones, as
 * spans, so that growing moves from a new corner skips most of those its own piece's
 * edges block without looking at them. */
#define BESIDE 4
static span_t *open_lists;
static int open_start[SQUARES][PIECES][1 << BESIDE], open_count[SQUARES][PIECES][1 << BESIDE];
static int beside[SQUARES][BESIDE];          /* the neighbours, -1 off the board */

static inline uint64_t span_meets(const span_t *s, const mask_t *m) {
    return (s->low & m->w[s->word]) | (s->high & m->w[s->word + 1]);
}

/* The bits set in a word. The scoring and the playouts count many words a move; where the
 * compiler may not assume a popcount instruction (x86-64's baseline, which Python's
 * build flags keep), its builtin is a library call several times slower than these
 * few shifts and adds. */
static inline int popcount(uint64_t x) {
#if defined(__POPCNT__) || defined(__aarch64__)
    return __builtin_popcountll(x);
#else
    x -= x >> 1 & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* weigh_playouts(piece_weights, local_weights, least_sizes) */
static PyObject *weigh_playouts(PyObject *self, PyObject *args) {
    PyObject *pieces_in, *local_in, *least_in;
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "setup first"); return NULL; }
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyTuple_Type, &pieces_in, &PyTuple_Type, &local_in,
                          &PyTuple_Type, &least_in))
        return NULL;
    if (PyTuple_GET_SIZE(pieces_in) != PIECES || PyTuple_GET_SIZE(local_in) != LOCAL_MOST + 1
        || PyTuple_GET_SIZE(least_in) != 2 * PIECES + 1 || placement_count > 64 * SET_WORDS) {
        PyErr_SetString(PyExc_ValueError, "the playout's weights do not fit");
        return NULL;
    }
    for (int i = 0; i < PIECES; i++)
        piece_gamma[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(pieces_in, i));
    for (int i = 0; i <= LOCAL_MOST; i++)
        local_gamma[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(local_in, i));
    for (int i = 0; i <= 2 * PIECES; i++)
        least_size[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(least_in, i));
    if (PyErr_Occurred()) return NULL;
    double *sums = realloc(cumulative, sizeof(double) * (size_t)placement_count);
    if (!sums) return PyErr_NoMemory();
    cumulative = sums;
    int *numbers = realloc(drawn_from, sizeof(int) * (size_t)placement_count);
    if (!numbers) return PyErr_NoMemory();
    drawn_from = numbers;
    span_t *table = realloc(spans, sizeof(span_t) * (size_t)placement_count);
    if (!table) return PyErr_NoMemory();
    spans = table;
    for (int n = 0; n < placement_count; n++) {
        const mask_t *m = &placements[n].mask;
        int word = 0;
        while (word < 2 && !m->w[word]) word++;
        for (int i = 0; i < WORDS; i++)
            if ((i < word || i > word + 1) && m->w[i]) {
                PyErr_SetString(PyExc_ValueError, "a placement spans more than two words");
                return NULL;
            }
        spans[n] = (span_t){m->w[word], m->w[word + 1], word, placements[n].piece, n};
    }
    int steps[BESIDE] = {1, -1, stride, -stride}, total = 0;
    for (int square = 0; square < SQUARES; square++)
        for (int k = 0; k < BESIDE; k++) {
            int next = square + steps[k];
            beside[square][k] = next >= 0 && next < SQUARES
                                && board_mask.w[next / 64] >> (next % 64) & 1 ? next : -1;
        }
    for (int pass = 0; pass < 2; pass++) {
        int at = 0;
        for (int square = 0; square < SQUARES; square++)
            for (int piece = 0; piece < PIECES; piece++)
                for (int closed = 0; closed < 1 << BESIDE; closed++) {
                    open_start[square][piece][closed] = at;
                    for (int j = 0; j < covering_count[square][piece]; j++) {
                        const mask_t *m = &placements[covering[square][piece][j]].mask;
                        int fits = 1;
                        for (int k = 0; k < BESIDE; k++) {
                            int next = beside[square][k];
                            if (closed >> k & 1 && next >= 0
                                && m->w[next / 64] >> (next % 64) & 1)
                                fits = 0;
                        }
                        if (fits && pass) open_lists[at] = spans[covering[square][piece][j]];
                        at += fits;
                    }
                    open_count[square][piece][closed] = at - open_start[square][piece][closed];
                }
        if (!pass) {
            total = at;
            span_t *lists = realloc(open_lists, sizeof(span_t) * (size_t)(total ? total : 1));
            if (!lists) return PyErr_NoMemory();
            open_lists = lists;
        }
    }
    playout_weighed = 1;
    Py_RETURN_NONE;
}

static inline void set_add(moveset_t *s, int n) { s->bits[n >> 6] |= (uint64_t)1 << (n & 63); }

/* Adds the legal placements of the pieces in ``left`` covering ``square``. */
static void add_at(moveset_t *s, int square, uint32_t left, const mask_t *forbidden) {
    int closed = 0;
    for (int k = 0; k < BESIDE; k++) {
        int next = beside[square][k];
        if (next >= 0 && forbidden->w[next / 64] >> (next % 64) & 1) closed |= 1 << k;
    }
    for (int piece = 0; piece < PIECES; piece++) {
        if (!(left >> piece & 1)) continue;
        const span_t *list = open_lists + open_start[square][piece][closed];
        for (int j = 0; j < open_count[square][piece][closed]; j++)
            if (!span_meets(&list[j], forbidden)) set_add(s, list[j].number);
    }
}

/* Adds those covering any square of ``points``. */
static void add_around(moveset_t *s, const mask_t *points, uint32_t left,
                       const mask_t *forbidden) {
    for (int word = 0; word < WORDS; word++) {
        uint64_t bits = points->w[word];
        while (bits) {
            add_at(s, word * 64 + __builtin_ctzll(bits), left, forbidden);
            bits &= bits - 1;
        }
    }
}

/* playout._guided, draw for draw: one of ``s``'s placements still legal (those no
 * longer legal are taken out on the way) drawn with weight
 * piece_gamma[piece] * local_gamma[local squares covered, those that are also the
 * mover's attachment points twice], pieces smaller than least_size[on_board] left out
 * while any other has weight. -1 none, -2 an exception, else a placement. */
static int guided_choice(moveset_t *s, uint32_t left, const mask_t *forbidden,
                         const mask_t *local, const mask_t *local_attach, int on_board,
                         PyObject *random) {
    int words = (placement_count + 63) / 64, least = least_size[on_board];
    for (;;) {
        double total = 0.0;
        int count = 0;
        for (int word = 0; word < words; word++) {
            uint64_t bits = s->bits[word];
            while (bits) {
                int n = word * 64 + __builtin_ctzll(bits);
                bits &= bits - 1;
                const span_t *p = &spans[n];
                if (!(left >> p->piece & 1) || span_meets(p, forbidden)) {
                    s->bits[word] &= ~((uint64_t)1 << (n & 63));   /* no longer legal */
                    continue;
                }
                if (sizes[p->piece] < least) continue;
                int near = 0;
                if (span_meets(p, local))
                    near = popcount(p->low & local->w[p->word])
                           + popcount(p->high & local->w[p->word + 1])
                           + popcount(p->low & local_attach->w[p->word])
                           + popcount(p->high & local_attach->w[p->word + 1]);
                if (near > LOCAL_MOST) near = LOCAL_MOST;
                total += piece_gamma[p->piece] * local_gamma[near];
                cumulative[count] = total;
                drawn_from[count++] = n;
            }
        }
        if (count) {
            double r = draw(random);
            if (r == -1.0 && PyErr_Occurred()) return -2;
            double target = r * total;
            int k = 0;
            while (k < count - 1 && cumulative[k] <= target) k++;
            return drawn_from[k];
        }
        if (least <= 1) return -1;
        least = 1;
    }
}

static PyObject *as_words(const mask_t *m) {
    return Py_BuildValue("(KKKK)", (unsigned long long)m->w[0], (unsigned long long)m->w[1],
                         (unsigned long long)m->w[2], (unsigned long long)m->w[3]);
}

/* legal_moves(left, forbidden, attach) -> list of placement numbers. */
static PyObject *legal_moves(PyObject *self, PyObject *args) {
    unsigned long left;
    PyObject *f, *a;
    mask_t forbidden, attach;
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "setup first"); return NULL; }
    if (!PyArg_ParseTuple(args, "kOO", &left, &f, &a) || read_mask(f, &forbidden)
        || read_mask(a, &attach))
        return NULL;
    int *found = malloc(sizeof(int) * (size_t)(placement_count ? placement_count : 1));
    if (!found) return PyErr_NoMemory();
    int count = legal((uint32_t)left, &forbidden, &attach, found);
    PyObject *out = PyList_New(count);
    for (int i = 0; out && i < count; i++) {
        PyObject *move = PyTuple_GET_ITEM(placement_objects, found[i]);
        Py_INCREF(move);
        PyList_SET_ITEM(out, i, move);
    }
    free(found);
    return out;
}

/* Whether any placement of the pieces in ``left`` is legal: the board asks after every
 * move whether the next player can place, and the first fit answers (listing them all
 * to see whether there is one was a third of a search's time). */
static int any_legal(uint32_t left, const mask_t *forbidden, const mask_t *attach) {
    for (int word = 0; word < WORDS; word++) {
        uint64_t points = attach->w[word];
        while (points) {
            int square = word * 64 + __builtin_ctzll(points);
            points &= points - 1;
            for (int piece = 0; piece < PIECES; piece++) {
                if (!(left >> piece & 1)) continue;
                const int *list = covering[square][piece];
                for (int j = 0; j < covering_count[square][piece]; j++)
                    if (!meets(&placements[list[j]].mask, forbidden)) return 1;
            }
        }
    }
    return 0;
}

/* can_place(left, forbidden, attach) -> bool. */
static PyObject *can_place(PyObject *self, PyObject *args) {
    unsigned long left;
    PyObject *f, *a;
    mask_t forbidden, attach;
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "setup first"); return NULL; }
    if (!PyArg_ParseTuple(args, "kOO", &left, &f, &a) || read_mask(f, &forbidden)
        || read_mask(a, &attach))
        return NULL;
    return PyBool_FromLong(any_legal((uint32_t)left, &forbidden, &attach));
}

/* Plays the position out (the state arrays are changed), ``mover`` first, each placement
 * from ``random`` (rng.random), guided or uniform; with ``trace`` (a list, else NULL)
 * appends (player, mask words) per placement. The two scores in ``scores``; -1 with an
 * exception set on failure. ``found`` is room for every placement number. */
static int run_playout(mask_t own[2], mask_t forbidden[2], mask_t attach[2], uint32_t left[2],
                       int last[2], mask_t recent[2], int mover, PyObject *random, int guided,
                       PyObject *trace, int *found, int scores[2]) {
    int done[2] = {!left[0], !left[1]};
    moveset_t sets[2];
    mover &= 1;
    if (guided) {
        if (!playout_weighed) {
            PyErr_SetString(PyExc_RuntimeError, "weigh_playouts first");
            return -1;
        }
        int words = (placement_count + 63) / 64;
        for (int p = 0; p < 2; p++) {
            memset(sets[p].bits, 0, sizeof(uint64_t) * (size_t)words);
            add_around(&sets[p], &attach[p], left[p], &forbidden[p]);
        }
    }
    while (!(done[0] && done[1])) {
        int number = -1;
        if (done[mover]) {
        } else if (guided) {
            int rival = mover ^ 1;
            mask_t threat, local, local_attach;
            for (int i = 0; i < WORDS; i++) threat.w[i] = recent[rival].w[i] & attach[rival].w[i];
            mask_t around = edges_of(&threat);
            for (int i = 0; i < WORDS; i++) {
                local.w[i] = threat.w[i] | (around.w[i] & ~forbidden[rival].w[i]);
                local_attach.w[i] = local.w[i] & attach[mover].w[i];
            }
            int on_board = 2 * PIECES - __builtin_popcount(left[0]) - __builtin_popcount(left[1]);
            number = guided_choice(&sets[mover], left[mover], &forbidden[mover], &local,
                                   &local_attach, on_board, random);
            if (number == -2) return -1;
        } else {
            int count = legal(left[mover], &forbidden[mover], &attach[mover], found);
            if (count) {
                double r = draw(random);
                if (r == -1.0 && PyErr_Occurred()) return -1;
                number = found[PICK(r, count)];
            }
        }
        if (number < 0) { done[mover] = 1; mover ^= 1; continue; }
        const placement_t *chosen = &placements[number];
        if (trace) {
            PyObject *entry = Py_BuildValue("(iN)", mover, as_words(&chosen->mask));
            if (!entry || PyList_Append(trace, entry)) { Py_XDECREF(entry); return -1; }
            Py_DECREF(entry);
        }
        int rival = mover ^ 1;
        int first = is_empty(&own[mover]);
        for (int i = 0; i < WORDS; i++) {
            own[mover].w[i] |= chosen->mask.w[i];
            forbidden[mover].w[i] |= chosen->mask.w[i] | chosen->edges.w[i];
            attach[mover].w[i] = ((first ? 0 : attach[mover].w[i]) | chosen->corners.w[i])
                                 & ~forbidden[mover].w[i];
            forbidden[rival].w[i] |= chosen->mask.w[i];
            attach[rival].w[i] &= ~chosen->mask.w[i];
        }
        left[mover] &= ~((uint32_t)1 << chosen->piece);
        last[mover] = chosen->piece;
        recent[mover] = chosen->corners;
        if (guided) {
            mask_t opened;
            for (int i = 0; i < WORDS; i++)
                opened.w[i] = chosen->corners.w[i] & attach[mover].w[i];
            add_around(&sets[mover], &opened, left[mover], &forbidden[mover]);
        }
        mover = rival;
    }
    scores[0] = score(left[0], last[0]);
    scores[1] = score(left[1], last[1]);
    return 0;
}

/* play_out(own, forbidden, attach, left, last, recent, mover, rng, trace, guided)
 * -> (score_b, score_w): the first six pairs by player; trace a list or None, given
 * (player, mask words); guided as playout._guided, else uniform. */
static PyObject *play_out(PyObject *self, PyObject *args) {
    PyObject *own_in[2], *forbidden_in[2], *attach_in[2], *recent_in[2], *rng, *trace;
    unsigned long left_in[2];
    int last[2], mover, guided, scores[2];
    mask_t own[2], forbidden[2], attach[2], recent[2];
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "setup first"); return NULL; }
    if (!PyArg_ParseTuple(args, "(OO)(OO)(OO)(kk)(ii)(OO)iOOp", &own_in[0], &own_in[1],
                          &forbidden_in[0], &forbidden_in[1], &attach_in[0], &attach_in[1],
                          &left_in[0], &left_in[1], &last[0], &last[1], &recent_in[0],
                          &recent_in[1], &mover, &rng, &trace, &guided))
        return NULL;
    if (trace != Py_None && !PyList_Check(trace)) {
        PyErr_SetString(PyExc_TypeError, "trace must be a list or None");
        return NULL;
    }
    for (int p = 0; p < 2; p++)
        if (read_mask(own_in[p], &own[p]) || read_mask(forbidden_in[p], &forbidden[p])
            || read_mask(attach_in[p], &attach[p]) || read_mask(recent_in[p], &recent[p]))
            return NULL;
    uint32_t left[2] = {(uint32_t)left_in[0], (uint32_t)left_in[1]};
    PyObject *random = PyObject_GetAttrString(rng, "random");
    if (!random) return NULL;
    int *found = malloc(sizeof(int) * (size_t)(placement_count ? placement_count : 1));
    if (!found) { Py_DECREF(random); return PyErr_NoMemory(); }
    int failed = run_playout(own, forbidden, attach, left, last, recent, mover, random, guided,
                             trace == Py_None ? NULL : trace, found, scores);
    free(found);
    Py_DECREF(random);
    return failed ? NULL : Py_BuildValue("(ii)", scores[0], scores[1]);
}

/* --- A new node's moves for the search (policy.BlokusDuoPolicy.expansion) ------------
 * Listing, shuffling, scoring and sorting the hundreds of moves of every new node was
 * most of a Python search's time. The scores are policy.move_units's, whole numbers
 * (twentieths), so C and Python add them exactly alike; the shuffle is random.Random's,
 * draw for draw, so a seed grows the same tree on either path. */

typedef struct {
    mask_t edge;                          /* the open squares along its edges */
    mask_t to_left, to_right, up, down;   /* what it closes, shifted one step each way */
    int size, centre_units;
} shape_t;

static shape_t *shapes;                   /* by placement number, made by weigh */
static int size_units[6], block_units, corner_base_units, corner_room_units;
static int edge_open_units, edge_attach_units, local_units, unit;


static int count_bits(const mask_t *m) {
    return popcount(m->w[0]) + popcount(m->w[1]) + popcount(m->w[2]) + popcount(m->w[3]);
}

static int count_both(const mask_t *a, const mask_t *b) {
    return popcount(a->w[0] & b->w[0]) + popcount(a->w[1] & b->w[1])
           + popcount(a->w[2] & b->w[2]) + popcount(a->w[3] & b->w[3]);
}

/* weigh(size_units, (block, corner_base, corner_room, edge_open, edge_attach, local),
 *       centre_units, unit): the policy's weights in whole units, sizes 1 to 5, and the
 * centre's part of each placement's score; the shapes follow from setup's tables. */
static PyObject *weigh(PyObject *self, PyObject *args) {
    PyObject *centre;
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "setup first"); return NULL; }
    if (!PyArg_ParseTuple(args, "(iiiii)(iiiiii)O!i", &size_units[1], &size_units[2],
                          &size_units[3], &size_units[4], &size_units[5], &block_units,
                          &corner_base_units, &corner_room_units, &edge_open_units,
                          &edge_attach_units, &local_units, &PyTuple_Type, &centre, &unit))
        return NULL;
    if (PyTuple_GET_SIZE(centre) != placement_count || unit <= 0) {
        PyErr_SetString(PyExc_ValueError, "a centre weight per placement, and a unit");
        return NULL;
    }
    shape_t *table = calloc((size_t)placement_count, sizeof(shape_t));
    if (!table) return PyErr_NoMemory();
    for (int n = 0; n < placement_count; n++) {
        const placement_t *p = &placements[n];
        shape_t *s = &table[n];
        mask_t closes;
        for (int i = 0; i < WORDS; i++) {
            s->edge.w[i] = p->edges.w[i] & ~p->mask.w[i];
            closes.w[i] = p->mask.w[i] | p->edges.w[i];
        }
        s->to_left = shifted(&closes, 1);
        s->to_right = shifted(&closes, -1);
        s->up = shifted(&closes, stride);
        s->down = shifted(&closes, -stride);
        s->size = count_bits(&p->mask);
        s->centre_units = (int)PyLong_AsLong(PyTuple_GET_ITEM(centre, n));
        if (s->size > 5) { free(table); PyErr_SetString(PyExc_ValueError, "a piece of six"); return NULL; }
    }
    if (PyErr_Occurred()) { free(table); return NULL; }
    free(shapes);
    shapes = table;
    Py_RETURN_NONE;
}

/* What the scoring of one position's moves reads besides the move (policy.prior_context
 * and the masks move_units makes of it). */
typedef struct {
    mask_t free, left_open, right_open, below_open, above_open, taken, attach, zone, recent;
    int early;
} context_t;

static void make_context(context_t *c, const mask_t *forbidden, const mask_t *attach,
                         const mask_t *zone, const mask_t *recent, int early) {
    for (int i = 0; i < WORDS; i++) {
        c->free.w[i] = board_mask.w[i] & ~forbidden->w[i];
        c->taken.w[i] = ~forbidden->w[i] & ~attach->w[i];
    }
    c->left_open = shifted(&c->free, 1);
    c->right_open = shifted(&c->free, -1);
    c->below_open = shifted(&c->free, stride);
    c->above_open = shifted(&c->free, -stride);
    c->attach = *attach;
    c->zone = *zone;
    c->recent = *recent;
    c->early = early;
}

/* policy.move_units for one placement, term for term. */
static int move_units(int number, const context_t *c) {
    const placement_t *p = &placements[number];
    const shape_t *s = &shapes[number];
    mask_t open_corners;   /* the corners still open after the move */
    int room = 0;
    for (int i = 0; i < WORDS; i++) {
        open_corners.w[i] = p->corners.w[i] & c->free.w[i] & ~s->edge.w[i];
        room += popcount(open_corners.w[i] & c->left_open.w[i] & ~s->to_left.w[i])
                + popcount(open_corners.w[i] & c->right_open.w[i] & ~s->to_right.w[i])
                + popcount(open_corners.w[i] & c->below_open.w[i] & ~s->up.w[i])
                + popcount(open_corners.w[i] & c->above_open.w[i] & ~s->down.w[i]);
    }
    int units = size_units[s->size]
                + block_units * count_both(&p->mask, &c->zone)
                + corner_base_units * count_bits(&open_corners)
                + corner_room_units * room
                + edge_open_units * count_both(&s->edge, &c->taken)
                + edge_attach_units * count_both(&s->edge, &c->attach);
    if (meets(&p->mask, &c->recent)) units += local_units;
    if (c->early) units += s->centre_units;
    return units;
}

/* random.Random.shuffle, draw for draw: from the last item down, each swapped with one
 * at or below it, chosen by getrandbits of the bound's bit length, drawn again while
 * out of range (Random._randbelow_with_getrandbits). -1 with an exception on failure. */
static int shuffle(int *items, int count, PyObject *getrandbits) {
    for (int i = count - 1; i > 0; i--) {
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

/* The positions 0..count-1 ordered by ``units``, lowest first, ties in position order
 * (list.sort's stable order): a counting sort, as the scores are whole numbers within a
 * few hundred of each other and a node has hundreds of moves. -1 out of memory. */
static int sort_by_units(const int *units, int count, int *order) {
    if (!count) return 0;
    int low = units[0], high = units[0];
    for (int i = 1; i < count; i++) {
        if (units[i] < low) low = units[i];
        if (units[i] > high) high = units[i];
    }
    int *start = calloc((size_t)(high - low + 2), sizeof(int));
    if (!start) return -1;
    for (int i = 0; i < count; i++) start[units[i] - low + 1]++;
    for (int u = 1; u <= high - low; u++) start[u] += start[u - 1];
    for (int i = 0; i < count; i++) order[start[units[i] - low]++] = i;
    free(start);
    return 0;
}

/* A node's moves not grown yet, best last, as search.Node.untried uses them (len, pop,
 * and an item by index): a list of (move, prior) pairs kept as placement numbers and
 * scores. A node has hundreds of moves and grows a few (progressive widening): making
 * every pair a Python tuple cost more than the scoring, and the collector then walked
 * hundreds of thousands of them in every search. */
typedef struct {
    PyObject_HEAD
    int count, best;     /* moves left; the best score, whose prior is 1 */
    int *numbers, *units;
} untried_t;

static PyTypeObject untried_type;

/* The sorted moves of rank_moves (copied). */
static PyObject *untried_new(const int *numbers, const int *units, int count) {
    untried_t *self = PyObject_New(untried_t, &untried_type);
    if (!self) return NULL;
    self->count = count;
    self->numbers = malloc(sizeof(int) * (size_t)(count ? count : 1));
    self->units = malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (!self->numbers || !self->units) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    memcpy(self->numbers, numbers, sizeof(int) * (size_t)count);
    memcpy(self->units, units, sizeof(int) * (size_t)count);
    self->best = count ? self->units[count - 1] : 0;
    return (PyObject *)self;
}

static void untried_dealloc(untried_t *self) {
    free(self->numbers);
    free(self->units);
    PyObject_Free(self);
}

static Py_ssize_t untried_length(untried_t *self) { return self->count; }

/* The pair at ``i``: the placement and its prior, exp((score - best) / unit). */
static PyObject *untried_item(untried_t *self, Py_ssize_t i) {
    if (i < 0 || i >= self->count) {
        PyErr_SetString(PyExc_IndexError, "no such move");
        return NULL;
    }
    PyObject *move = PyTuple_GET_ITEM(placement_objects, self->numbers[i]);
    return Py_BuildValue("(Od)", move, exp((double)(self->units[i] - self->best) / unit));
}

static PyObject *untried_pop(untried_t *self, PyObject *unused) {
    if (!self->count) {
        PyErr_SetString(PyExc_IndexError, "pop from no moves");
        return NULL;
    }
    PyObject *pair = untried_item(self, self->count - 1);
    if (pair) self->count--;
    return pair;
}

static PySequenceMethods untried_sequence = {
    .sq_length = (lenfunc)untried_length,
    .sq_item = (ssizeargfunc)untried_item,
};

static PyMethodDef untried_methods[] = {
    {"pop", (PyCFunction)untried_pop, METH_NOARGS, "The best move left and its prior."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject untried_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engines.blokus_duo._playout.Untried",
    .tp_basicsize = sizeof(untried_t),
    .tp_dealloc = (destructor)untried_dealloc,
    .tp_as_sequence = &untried_sequence,
    .tp_methods = untried_methods,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A node's moves not grown yet, best last (see expand).",
};

/* A position's legal moves as a new node grows them: listed, shuffled by
 * ``getrandbits`` (rng.getrandbits), scored, and sorted by score into ``numbers`` and
 * ``units`` (lowest first; each room for every placement), their count returned; -1 with
 * an exception set on failure. ``scratch`` is room for two lists of every placement. */
static int rank_moves(uint32_t left, const mask_t *forbidden, const mask_t *attach,
                      const mask_t *zone, const mask_t *recent, int early,
                      PyObject *getrandbits, int *numbers, int *units, int *scratch) {
    int *found = scratch, *order = scratch + placement_count;
    int count = legal(left, forbidden, attach, found);
    if (shuffle(found, count, getrandbits)) return -1;
    context_t context;
    make_context(&context, forbidden, attach, zone, recent, early);
    for (int i = 0; i < count; i++) units[i] = move_units(found[i], &context);
    if (sort_by_units(units, count, order)) { PyErr_NoMemory(); return -1; }
    /* The moves and their scores in sorted order; the scores are gathered in ``order``
     * (each entry read before it is overwritten), then copied over ``units``. */
    for (int i = 0; i < count; i++) {
        numbers[i] = found[order[i]];
        order[i] = units[order[i]];
    }
    memcpy(units, order, sizeof(int) * (size_t)count);
    return count;
}

/* expand(left, forbidden, attach, zone, recent, early, rng) -> Untried: the moves of
 * search.Policy.expansion with the policy's priors, exp((score - best) / unit). */
static PyObject *expand(PyObject *self, PyObject *args) {
    unsigned long left;
    PyObject *f, *a, *z, *r, *rng;
    int early;
    mask_t forbidden, attach, zone, recent;
    if (!ready || !shapes) { PyErr_SetString(PyExc_RuntimeError, "setup and weigh first"); return NULL; }
    if (!PyArg_ParseTuple(args, "kOOOOpO", &left, &f, &a, &z, &r, &early, &rng)
        || read_mask(f, &forbidden) || read_mask(a, &attach) || read_mask(z, &zone)
        || read_mask(r, &recent))
        return NULL;
    size_t room = (size_t)(placement_count ? placement_count : 1);
    int *numbers = malloc(sizeof(int) * room), *units = malloc(sizeof(int) * room);
    int *scratch = malloc(2 * sizeof(int) * room);
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    PyObject *out = NULL;
    if (!numbers || !units || !scratch || !getrandbits) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
    } else {
        int count = rank_moves((uint32_t)left, &forbidden, &attach, &zone, &recent, early,
                               getrandbits, numbers, units, scratch);
        if (count >= 0) out = untried_new(numbers, units, count);
    }
    free(numbers);
    free(units);
    free(scratch);
    Py_XDECREF(getrandbits);
    return out;
}

/* --- The search's tree in C (search.Tree, policy.BlokusDuoPolicy.native_tree) ---------
 * With the moves and the playouts in C, a Python walk down the tree (choosing children,
 * pushing moves on the board and taking them back, reading masks into words) cost more
 * than both. This tree walks as search._walk does, draw for draw from the same
 * random.Random and with the same arithmetic, so a seed chooses the same move on either
 * path; the Python search stays the reference. Only what Blokus Duo's policy uses is
 * here: progressive widening, priors as starting visits, the guided playout's value,
 * and no minimax. */

/* A position as the board keeps it, with its two latest moves for recent_corners. */
typedef struct {
    mask_t own[2], forbidden[2], attach[2];
    uint32_t left[2];
    int last[2];              /* the last piece each placed, -1 none */
    int turn, over;
    int latest[2][2];         /* (mover, placement) of the latest move, then the one
                                 before; mover -1 where there is none */
} position_t;

/* board._apply and _turn_after: the mover places ``number``; the rival moves next if
 * they can place, else the mover again if they can, else the game is over. */
static void apply(position_t *p, int number) {
    const placement_t *chosen = &placements[number];
    int mover = p->turn, rival = mover ^ 1;
    int first = is_empty(&p->own[mover]);
    for (int i = 0; i < WORDS; i++) {
        p->own[mover].w[i] |= chosen->mask.w[i];
        p->forbidden[mover].w[i] |= chosen->mask.w[i] | chosen->edges.w[i];
        p->attach[mover].w[i] = ((first ? 0 : p->attach[mover].w[i]) | chosen->corners.w[i])
                                & ~p->forbidden[mover].w[i];
        p->forbidden[rival].w[i] |= chosen->mask.w[i];
        p->attach[rival].w[i] &= ~chosen->mask.w[i];
    }
    p->left[mover] &= ~((uint32_t)1 << chosen->piece);
    p->last[mover] = chosen->piece;
    p->latest[1][0] = p->latest[0][0];
    p->latest[1][1] = p->latest[0][1];
    p->latest[0][0] = mover;
    p->latest[0][1] = number;
    if (any_legal(p->left[rival], &p->forbidden[rival], &p->attach[rival])) {
        p->turn = rival;
    } else if (!any_legal(p->left[mover], &p->forbidden[mover], &p->attach[mover])) {
        p->over = 1;
        p->turn = rival;
    }
}

/* board.recent_corners: the corners ``player``'s latest piece opened, still open to
 * them, if that piece is one of the last two moves; else nothing. */
static mask_t recent_corners(const position_t *p, int player) {
    mask_t out = {{0, 0, 0, 0}};
    for (int back = 0; back < 2; back++)
        if (p->latest[back][0] == player) {
            const mask_t *corners = &placements[p->latest[back][1]].corners;
            for (int i = 0; i < WORDS; i++) out.w[i] = corners->w[i] & p->attach[player].w[i];
            break;
        }
    return out;
}

/* One node: reached by ``move`` (placement number), played by ``mover`` (-1 the root);
 * its children by index into the tree's nodes (they move as the array grows); its
 * moves not grown yet sorted by score, the next last. */
typedef struct {
    int move, mover;
    double visits, wins, prior;
    int *children, child_count, child_room;
    int *untried, *untried_units, untried_count, best_units;
    int expanded;
} node_t;

typedef struct {
    PyObject_HEAD
    node_t *nodes;
    int node_count, node_room;
    position_t root;
    PyObject *random, *getrandbits;        /* the rng's bound methods */
    double exploration, prior_weight, widening, prior_visits, prior_value;
    double margin_weight;                  /* the policy's value of a playout, */
    double margins, margin_mean, margin_spread;   /* with the search's margins so far */
    int widens, centre_moves;
    int *scratch;                           /* room for rank_moves (four lists of every
                                               placement) and the playouts (one) */
} tree_t;

static PyTypeObject tree_type;

/* A new node's index, -1 out of memory (with the exception set). */
static int new_node(tree_t *t, int move, int mover, double prior) {
    if (t->node_count == t->node_room) {
        int room = t->node_room ? 2 * t->node_room : 256;
        node_t *grown = realloc(t->nodes, sizeof(node_t) * (size_t)room);
        if (!grown) { PyErr_NoMemory(); return -1; }
        t->nodes = grown;
        t->node_room = room;
    }
    node_t *n = &t->nodes[t->node_count];
    memset(n, 0, sizeof(node_t));
    n->move = move;
    n->mover = mover;
    n->prior = prior;
    return t->node_count++;
}

/* Node.expand_moves: the moves of the position at node ``index`` with their scores. */
static int expand_node(tree_t *t, int index, const position_t *p) {
    int player = p->turn, rival = player ^ 1;
    mask_t zone, around = edges_of(&p->attach[rival]), recent = recent_corners(p, rival);
    for (int i = 0; i < WORDS; i++)
        zone.w[i] = p->attach[rival].w[i] | (around.w[i] & ~p->forbidden[rival].w[i]);
    int early = PIECES - __builtin_popcount(p->left[player]) < t->centre_moves;
    int *ranked = t->scratch + 2 * placement_count, *ranked_units = ranked + placement_count;
    int count = rank_moves(p->left[player], &p->forbidden[player], &p->attach[player], &zone,
                           &recent, early, t->getrandbits, ranked, ranked_units, t->scratch);
    if (count < 0) return -1;
    /* A node keeps only its own moves: thousands of nodes a search. */
    int *numbers = malloc(sizeof(int) * (size_t)(count ? count : 1));
    int *units = malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (!numbers || !units) { free(numbers); free(units); PyErr_NoMemory(); return -1; }
    memcpy(numbers, ranked, sizeof(int) * (size_t)count);
    memcpy(units, ranked_units, sizeof(int) * (size_t)count);
    node_t *n = &t->nodes[index];
    n->untried = numbers;
    n->untried_units = units;
    n->untried_count = count;
    n->best_units = count ? units[count - 1] : 0;
    n->expanded = 1;
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
        int *grown = realloc(n->children, sizeof(int) * (size_t)room);
        if (!grown) { PyErr_NoMemory(); return -1; }
        n->children = grown;
        n->child_room = room;
    }
    n->untried_count--;
    int move = n->untried[n->untried_count];
    double prior = exp((double)(n->untried_units[n->untried_count] - n->best_units) / unit);
    int child = new_node(t, move, mover, prior);   /* may move the nodes: n is stale */
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

/* Node.best_child (no minimax): the best average plus exploration plus the fading
 * prior, the first of equals. */
static int best_child(const tree_t *t, const node_t *n) {
    double log_visits = log(n->visits), best_score = -1.0;
    int best = -1;
    for (int k = 0; k < n->child_count; k++) {
        const node_t *c = &t->nodes[n->children[k]];
        double visits = c->visits;
        double score = c->wins / visits + t->exploration * sqrt(log_visits / visits)
                       + t->prior_weight * c->prior / (visits + 1);
        if (score > best_score) { best = n->children[k]; best_score = score; }
    }
    return best;
}

/* The value for b of the position: the result where the game is over, else
 * BlokusDuoPolicy.value of a guided playout (the winner, a share for the margin measured
 * against the search's margins so far). */
static int value_for_b(tree_t *t, const position_t *p, double *value) {
    int scores[2];
    if (p->over) {
        scores[0] = score(p->left[0], p->last[0]);
        scores[1] = score(p->left[1], p->last[1]);
        *value = scores[0] > scores[1] ? 1.0 : scores[0] < scores[1] ? 0.0 : 0.5;
        return 0;
    }
    position_t q = *p;
    mask_t recent[2] = {recent_corners(p, 0), recent_corners(p, 1)};
    if (run_playout(q.own, q.forbidden, q.attach, q.left, q.last, recent, q.turn, t->random,
                    1, NULL, t->scratch, scores))
        return -1;
    int margin = scores[0] - scores[1];
    double won = margin > 0 ? 1.0 : margin < 0 ? 0.0 : 0.5;
    /* Margins.standardised: Welford's running sums, in the same order as Python's. */
    t->margins += 1;
    double off = margin - t->margin_mean;
    t->margin_mean += off / t->margins;
    t->margin_spread += off * (margin - t->margin_mean);
    double variance = t->margin_spread / t->margins;
    double spread = variance > 0 ? (margin - t->margin_mean) / sqrt(variance) : 0.0;
    *value = (1.0 - t->margin_weight) * won + t->margin_weight * (0.5 + 0.5 * tanh(spread));
    return 0;
}

/* search._walk: select down the tree, grow one child, play out, count the result up
 * the path. -1 with an exception set on failure. */
static int walk(tree_t *t) {
    position_t p = t->root;
    int path[PIECES * 2 + 2], depth = 0, index = 0;
    path[depth++] = 0;
    while (!p.over) {
        if (!t->nodes[index].expanded && expand_node(t, index, &p)) return -1;
        if (may_grow(t, &t->nodes[index])) {
            int child = grow(t, index, p.turn);
            if (child < 0) return -1;
            apply(&p, t->nodes[child].move);
            path[depth++] = child;
            break;
        }
        if (!t->nodes[index].child_count) break;
        index = best_child(t, &t->nodes[index]);
        apply(&p, t->nodes[index].move);
        path[depth++] = index;
    }
    double value_b;
    if (value_for_b(t, &p, &value_b)) return -1;
    for (int k = 0; k < depth; k++) {
        node_t *n = &t->nodes[path[k]];
        n->visits += 1;
        if (n->mover >= 0) n->wins += n->mover == 0 ? value_b : 1.0 - value_b;
    }
    return 0;
}

static void tree_dealloc(tree_t *t) {
    for (int i = 0; i < t->node_count; i++) {
        free(t->nodes[i].children);
        free(t->nodes[i].untried);
        free(t->nodes[i].untried_units);
    }
    free(t->nodes);
    free(t->scratch);
    Py_XDECREF(t->random);
    Py_XDECREF(t->getrandbits);
    PyObject_Free(t);
}

/* Tree(position, policy, rng): position (own, forbidden, attach as pairs of mask words,
 * left, last, turn, latest as ((mover, placement), (mover, placement))); policy
 * (exploration, prior_weight, widening or None, prior_visits, prior_value,
 * margin_weight, centre_moves). The root is expanded at once, as
 * search.Tree's is. */
static PyObject *tree_create(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *own_in[2], *forbidden_in[2], *attach_in[2], *widening, *rng;
    unsigned long left[2];
    int last[2], turn, latest[2][2], centre_moves;
    double exploration, prior_weight, prior_visits, prior_value, margin_weight;
    if (!ready || !shapes) { PyErr_SetString(PyExc_RuntimeError, "setup and weigh first"); return NULL; }
    if (!PyArg_ParseTuple(args, "((OO)(OO)(OO)(kk)(ii)i((ii)(ii)))(ddOdddi)O",
                          &own_in[0], &own_in[1], &forbidden_in[0], &forbidden_in[1],
                          &attach_in[0], &attach_in[1], &left[0], &left[1], &last[0], &last[1],
                          &turn, &latest[0][0], &latest[0][1], &latest[1][0], &latest[1][1],
                          &exploration, &prior_weight, &widening, &prior_visits, &prior_value,
                          &margin_weight, &centre_moves, &rng))
        return NULL;
    tree_t *t = PyObject_New(tree_t, type);
    if (!t) return NULL;
    t->nodes = NULL;
    t->node_count = t->node_room = 0;
    t->random = t->getrandbits = NULL;
    /* rank_moves's two lists, then its results (a node copies its share) */
    t->scratch = malloc(4 * sizeof(int) * (size_t)(placement_count ? placement_count : 1));
    position_t *p = &t->root;
    memset(p, 0, sizeof(position_t));
    for (int k = 0; k < 2; k++) {
        if (read_mask(own_in[k], &p->own[k]) || read_mask(forbidden_in[k], &p->forbidden[k])
            || read_mask(attach_in[k], &p->attach[k]))
            goto fail;
        p->left[k] = (uint32_t)left[k];
        p->last[k] = last[k];
        p->latest[k][0] = latest[k][0];
        p->latest[k][1] = latest[k][1];
        if (latest[k][0] >= 0 && (latest[k][1] < 0 || latest[k][1] >= placement_count)) {
            PyErr_SetString(PyExc_ValueError, "no such placement");
            goto fail;
        }
    }
    p->turn = turn & 1;
    t->exploration = exploration;
    t->prior_weight = prior_weight;
    t->widens = widening != Py_None;
    t->widening = t->widens ? PyFloat_AsDouble(widening) : 0.0;
    t->prior_visits = prior_visits;
    t->prior_value = prior_value;
    t->margin_weight = margin_weight;
    t->margins = t->margin_mean = t->margin_spread = 0.0;
    t->centre_moves = centre_moves;
    t->random = PyObject_GetAttrString(rng, "random");
    t->getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (PyErr_Occurred() || !t->random || !t->getrandbits) goto fail;
    if (!t->scratch) { PyErr_NoMemory(); goto fail; }
    if (new_node(t, -1, -1, 0.0) < 0 || expand_node(t, 0, p)) goto fail;
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

/* only_move() -> the move when the root has only one, else None. */
static PyObject *tree_only_move(tree_t *t, PyObject *unused) {
    if (t->nodes[0].untried_count != 1 || t->nodes[0].child_count) Py_RETURN_NONE;
    PyObject *move = PyTuple_GET_ITEM(placement_objects, t->nodes[0].untried[0]);
    Py_INCREF(move);
    return move;
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
    PyObject *move = PyTuple_GET_ITEM(placement_objects, t->nodes[best].move);
    Py_INCREF(move);
    return move;
}

/* counts() -> [(move, visits, wins)] of the root's children, in the order grown, wins for
 * the player to move (what the walks played out, as search.Tree.counts). */
static PyObject *tree_counts(tree_t *t, PyObject *unused) {
    const node_t *root = &t->nodes[0];
    PyObject *out = PyList_New(root->child_count);
    for (int k = 0; out && k < root->child_count; k++) {
        const node_t *c = &t->nodes[root->children[k]];
        PyObject *triple = Py_BuildValue("(Odd)", PyTuple_GET_ITEM(placement_objects, c->move),
                                         c->visits, c->wins);
        if (!triple) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, k, triple);
    }
    return out;
}

static PyMethodDef tree_methods[] = {
    {"counts", (PyCFunction)tree_counts, METH_NOARGS, "The root's children's visits and wins."},
    {"only_move", (PyCFunction)tree_only_move, METH_NOARGS, "The only move, or None."},
    {"walk", (PyCFunction)tree_walk, METH_O, "Walk the tree so many times."},
    {"best_move", (PyCFunction)tree_best_move, METH_NOARGS, "The most visited move."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject tree_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engines.blokus_duo._playout.Tree",
    .tp_basicsize = sizeof(tree_t),
    .tp_dealloc = (destructor)tree_dealloc,
    .tp_methods = tree_methods,
    .tp_new = tree_create,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search's tree grown in C (search.Tree's methods).",
};

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "Take the placements' tables from pieces.py."},
    {"legal_moves", legal_moves, METH_VARARGS, "The legal placements' numbers."},
    {"play_out", play_out, METH_VARARGS, "A uniform or guided random playout: the two scores."},
    {"can_place", can_place, METH_VARARGS, "Whether any placement is legal."},
    {"weigh_playouts", weigh_playouts, METH_VARARGS, "Take the guided playout's weights."},
    {"weigh", weigh, METH_VARARGS, "Take the policy's weights for the priors."},
    {"expand", expand, METH_VARARGS, "A new node's moves and priors, in the search's order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout",
                                    "Blokus Duo's playout in C (see compiled.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__playout(void) {
    if (PyType_Ready(&untried_type) < 0 || PyType_Ready(&tree_type) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddObjectRef(m, "Tree", (PyObject *)&tree_type) < 0) Py_CLEAR(m);
    return m;
}
