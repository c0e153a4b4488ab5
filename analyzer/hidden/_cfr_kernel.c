/* The CFR iteration (Discounted CFR: ``cfr_iterate``) as a kernel: analyzer/hidden/cfr.py's ``_walk`` and
 * analyzer/hidden/ranges.py's in plain C, no Python (see ``_cfr_kernel.h``).
 * One walk serves both forms of the tree: a form values its terminals at a node
 * (``deal_node``, ``range_node``) and hands the node's moves to ``walk_moves``, which recurses through the form's own
 * ``node``. The walk touches only the hands alive at a node (``alive``), not every hand: a value vector is read and
 * written only there, so an iteration costs in proportion to the public tree and the hands (or deals) ending at its
 * nodes.
 */
#include "_cfr_kernel.h"

#ifndef __wasm__
#include <pthread.h>
#define CFR_PARALLEL 1
#else
#define CFR_PARALLEL 0          /* (no threads in the WebAssembly module: one walk) */
#endif

enum { MODE_CFR, MODE_BEST, MODE_EVAL };
enum { PHASE_WALK, PHASE_FIND, PHASE_JOIN };

/* A task of a walk over several threads: the node ``node`` at depth ``level``, walked for the walk's player with the
 * reaches at ``own`` and ``opp`` (offsets in ``taskbuf``: his hands', the other's), its values of his hands at
 * ``sub``. */
typedef struct WalkTask {
    int32_t node, level, size;        /* (``size``: the nodes of its subtree) */
    int64_t own, opp, sub;
} WalkTask;

static int fail(const char **err, int kind, const char *text) {
    *err = text;
    return kind;
}

/* -- what both forms share ------------------------------------------------------------------------------------ */

/* The depth of the subtree at ``n`` (the tree is a few dozen deep). */
/* ``calloc``, the bytes counted in ``w->held`` (what a run holds for as long as it lives: ``cfr_held``). */
static void *held_calloc(CfrWalk *w, size_t count, size_t size) {
    void *p = calloc(count, size);
    if (p != NULL) w->held += (int64_t)(count * size);
    return p;
}

int64_t cfr_held(const CfrWalk *w) { return w->held; }

static int32_t depth_of(const CfrMoves *t, int32_t n) {
    int32_t best = 0;
    if (t->player[n] >= 0)
        for (int32_t c = t->child_at[n]; c < t->child_at[n + 1]; c++) {
            int32_t d = depth_of(t, t->child[c]);
            if (d > best) best = d;
        }
    return best + 1;
}

/* Node ``n``'s lists checked: its children after it in preorder, its player (a draw, 2 or 3, only where ``draws``:
 * one child and no information set), its information sets and alive hands in range. */
static int check_node(const CfrMoves *t, int32_t n, int draws, const char **err) {
    if (t->child_at[n] > t->child_at[n + 1] || t->iset_at[n] > t->iset_at[n + 1])
        return fail(err, K_VALUE, "a node's lists run backwards");
    for (int32_t c = t->child_at[n]; c < t->child_at[n + 1]; c++)
        if (t->child[c] <= n || t->child[c] >= t->nodes) return fail(err, K_VALUE, "a child out of preorder");
    int32_t width = t->child_at[n + 1] - t->child_at[n];
    int32_t p = t->player[n];
    if (p > 1 && draws && p < 4) {
        if (width != 1 || t->iset_at[n] != t->iset_at[n + 1]) return fail(err, K_VALUE, "a draw has one child");
    } else if (p > 1 || (p < 0 && width)) return fail(err, K_VALUE, "a node's player is not 0, 1 or -1");
    for (int32_t i = t->iset_at[n]; i < t->iset_at[n + 1]; i++)
        if (p < 0 || t->iset_hand[i] >= t->nh[p] || t->slot[i] < 0
            || t->slot[i] + width > t->size)
            return fail(err, K_VALUE, "an information set out of range");
    for (int q = 0; q < 2; q++) {
        if (t->alive_at[q][n] > t->alive_at[q][n + 1]) return fail(err, K_VALUE, "a node's lists run backwards");
        for (int32_t k = t->alive_at[q][n]; k < t->alive_at[q][n + 1]; k++)
            if (t->alive[q][k] >= t->nh[q]) return fail(err, K_VALUE, "a hand out of range");
    }
    return K_OK;
}

/* Whether ``move`` is legal in information set ``set`` (K_VALUE where not; a set out of range holds nothing). */
static int forced_legal(const CfrWalk *w, int32_t set, int32_t move, const char **err) {
    if (set >= 0 && set < w->m.iset_at[w->m.nodes]) {
        int32_t found = 0;
        for (int32_t j = w->lat[set]; j < w->lat[set + 1]; j++) found |= w->lmove[j] == move;
        if (!found) return fail(err, K_VALUE, "the forced move is not legal in its information set");
    }
    return K_OK;
}

/* The legal moves of ``m``'s information sets, each one's alone (not a slot per public move of its node): into
 * ``w``'s ``lat``, ``lmove`` and, by move, ``by_at``, ``by_slot``, ``by_hand``; the forced move checked legal. */
static int legal_moves(CfrWalk *w, const CfrMoves *m, const char **err) {
    int32_t nisets = m->iset_at[m->nodes], nchild = m->child_at[m->nodes];
    int32_t count = 0;
    for (int32_t n = 0; n < m->nodes; n++) {
        int32_t width = m->child_at[n + 1] - m->child_at[n];
        if (width > CFR_WIDTH) return fail(err, K_VALUE, "a node with more moves than a run indexes");
        for (int32_t i = m->iset_at[n]; i < m->iset_at[n + 1]; i++)
            for (int32_t a = 0; a < width; a++) count += CFR_LEGAL(m->legal, m->slot[i] + a);
    }
    w->nlegal = count;
    w->lat = held_calloc(w, (size_t)nisets + 1, sizeof(int32_t));
    w->lmove = held_calloc(w, (size_t)count + 1, sizeof(uint8_t));
    w->by_at = held_calloc(w, (size_t)nchild + 1, sizeof(int32_t));
    w->by_slot = held_calloc(w, (size_t)count + 1, sizeof(int32_t));
    w->by_hand = held_calloc(w, (size_t)count + 1, sizeof(CfrHand));
    int32_t *cur = calloc((size_t)nisets + 1, sizeof(int32_t));
    if (!w->lat || !w->lmove || !w->by_at || !w->by_slot || !w->by_hand || !cur) {
        free(cur);
        return fail(err, K_MEMORY, "out of memory");
    }
    int32_t j = 0, k = 0;
    for (int32_t n = 0; n < m->nodes; n++) {
        int32_t c0 = m->child_at[n], width = m->child_at[n + 1] - c0;
        for (int32_t i = m->iset_at[n]; i < m->iset_at[n + 1]; i++) {
            w->lat[i] = cur[i] = j;
            for (int32_t a = 0; a < width; a++)
                if (CFR_LEGAL(m->legal, m->slot[i] + a)) w->lmove[j++] = (uint8_t)a;
        }
        for (int32_t a = 0; a < width; a++) {
            w->by_at[c0 + a] = k;
            for (int32_t i = m->iset_at[n]; i < m->iset_at[n + 1]; i++)
                if (CFR_LEGAL(m->legal, m->slot[i] + a)) {
                    w->by_slot[k] = cur[i]++;
                    w->by_hand[k++] = m->iset_hand[i];
                }
        }
    }
    w->lat[nisets] = j;
    w->by_at[nchild] = k;
    free(cur);
    return forced_legal(w, w->forced_set, w->forced_move, err);
}

/* The most slots (information sets times moves) of a node at each depth below ``n`` (at ``level``) into ``most``. */
static void slots_by_depth(const CfrMoves *t, int32_t n, int32_t level, int64_t *most) {
    if (t->player[n] < 0) return;
    int32_t width = t->child_at[n + 1] - t->child_at[n];
    int64_t slots = (int64_t)(t->iset_at[n + 1] - t->iset_at[n]) * width;
    if (slots > most[level]) most[level] = slots;
    for (int32_t c = t->child_at[n]; c < t->child_at[n + 1]; c++) slots_by_depth(t, t->child[c], level + 1, most);
}

/* The shared state of a run over ``m`` set up: its depth, its information sets' legal moves, its regrets and averages
 * (zeroed; a slot per legal move of an information set), and its scratch (``buf``: the value and reach vectors by
 * depth, then by depth a node's children's values and its strategies by its legal moves, ``vat``). */
static int walk_init(CfrWalk *w, const CfrMoves *m, CfrNode node, int32_t forced_set, int32_t forced_move,
                     const char **err) {
    w->m = *m;
    w->node = node;
    w->forced_set = forced_set;
    w->forced_move = forced_move;
    w->depth = depth_of(m, 0);
    int kind = legal_moves(w, m, err);
    if (kind != K_OK) {
        cfr_free(w);
        return kind;
    }
    size_t per = (size_t)2 * ((size_t)m->nh[0] + (size_t)m->nh[1]);
    int64_t *most = calloc((size_t)w->depth + 1, sizeof(int64_t));
    w->vat = held_calloc(w, 2 * ((size_t)w->depth + 1), sizeof(int64_t));
    if (most == NULL || w->vat == NULL) {
        free(most);
        cfr_free(w);
        return fail(err, K_MEMORY, "out of memory");
    }
    slots_by_depth(m, 0, 0, most);
    int64_t at = (int64_t)(per * ((size_t)w->depth + 2));
    for (int32_t d = 0; d <= w->depth; d++) {      /* (each depth's most slots, twice: values and strategies) */
        w->vat[2 * d] = at;
        w->vat[2 * d + 1] = at + most[d];
        at += 2 * most[d];
    }
    free(most);
    w->bufsize = at;
    w->regret = held_calloc(w, (size_t)w->nlegal + 1, sizeof(double));
    w->avg = held_calloc(w, (size_t)w->nlegal + 1, sizeof(double));
    w->buf = held_calloc(w, (size_t)w->bufsize + 1, sizeof(double));
    if (!w->regret || !w->avg || !w->buf) {
        cfr_free(w);
        return fail(err, K_MEMORY, "out of memory");
    }
    return K_OK;
}

void cfr_free(CfrWalk *w) {
    for (int32_t k = 0; k < w->nclones; k++)
        if (w->clones[k] != NULL) w->unclone(w->clones[k]);
    free(w->clones);
    free(w->tasks);
    free(w->taskbuf);
    free(w->order);
    free(w->split_node);
    free(w->split_size);
    w->order = w->split_node = w->split_size = NULL, w->nsplit = w->split = 0;
    w->clones = NULL, w->nclones = 0;
    w->tasks = NULL, w->taskbuf = NULL;
    w->ntasks = w->task_cap = 0, w->taskbuf_cap = w->taskbuf_used = 0;
    if (w->release != NULL) w->release(w);
    free(w->regret);
    free(w->avg);
    free(w->buf);
    free(w->vat);
    w->vat = NULL;
    free(w->lat);
    free(w->lmove);
    free(w->by_at);
    free(w->by_slot);
    free(w->by_hand);
    free(w->folded);
    w->folded = NULL;
    w->regret = w->avg = w->buf = NULL;
    w->lat = w->by_at = w->by_slot = NULL;
    w->lmove = NULL;
    w->by_hand = NULL;
}

/* Information set ``i``'s strategy over its legal moves (its slots ``lat[i]`` to ``lat[i + 1]``) into ``out`` (by
 * slot ``j`` at ``j - lat[i]``): by regret matching (``current``: the positive regrets) or its average, uniform where
 * either is all zero, its forced move where it is the forced set. */
static void strategy(const CfrWalk *w, int32_t i, int current, double *out) {
    int32_t j0 = w->lat[i], j1 = w->lat[i + 1];
    if (i == w->forced_set) {
        for (int32_t j = j0; j < j1; j++) out[j - j0] = w->lmove[j] == w->forced_move ? 1.0 : 0.0;
        return;
    }
    double total = 0.0;
    for (int32_t j = j0; j < j1; j++) {
        double x = current ? (w->regret[j] > 0 ? w->regret[j] : 0.0) : w->avg[j];
        out[j - j0] = x;
        total += x;
    }
    if (total > 0) {
        for (int32_t j = j0; j < j1; j++) out[j - j0] /= total;
        return;
    }
    for (int32_t j = j0; j < j1; j++) out[j - j0] = 1.0 / (j1 - j0);
}

/* Each information set's strategy at node ``n``, at depth ``level``, into that depth's room (returned: by the node's
 * legal moves, slot ``j`` at ``j - lat[iset_at[n]]``). A walk computes it each time it comes to the node: kept by slot
 * between walks, it cost a double a legal move and a stamp a set (0.7 GB of a four-tile tree of 7,315 hands a side),
 * for one computation an iteration in four. */
static double *strategies(const CfrWalk *w, int32_t n, int current, int32_t level) {
    int32_t i0 = w->m.iset_at[n], i1 = w->m.iset_at[n + 1];
    double *st = w->buf + w->vat[2 * level + 1];
    for (int32_t i = i0; i < i1; i++) strategy(w, i, current, st + (w->lat[i] - w->lat[i0]));
    return st;
}

/* The reach ``from`` leaves to the child at ``c`` (an index of ``child``) of the mover's hands whose move it is: into
 * ``reach`` (by hand; the other hands reach nothing there and are not read below it). ``st``: the node's strategies
 * (:func:`strategies`), its first slot ``j00``. */
static void reach_by(const CfrWalk *w, int32_t c, const double *from, double *reach, const double *st, int32_t j00) {
    for (int32_t k = w->by_at[c]; k < w->by_at[c + 1]; k++)
        reach[w->by_hand[k]] = from[w->by_hand[k]] * st[w->by_slot[k] - j00];
}

/* Information set ``i``'s average strategy gains its strategy (``st``, by its legal moves) weighted by the iteration's
 * cube and ``reach`` (its hand's). */
static void average_add(CfrWalk *w, int32_t i, double reach, const double *st) {
    double t = (double)w->it * (double)w->it * (double)w->it;
    int32_t j0 = w->lat[i];
    for (int32_t j = j0; j < w->lat[i + 1]; j++) w->avg[j] += t * reach * st[j - j0];
}

static int32_t split_size(const CfrWalk *w, int32_t n);

/* The child ``c``, at depth ``level``, walked for ``p`` into ``sub``: by the form's
 * ``node``, except at the depth a walk over several threads splits at. There, finding the tasks (FIND), the child is
 * a task: its reaches are kept and its values are 0 for now; joining them (JOIN), its values are the task's, found
 * again in the order FIND made them (the same walk of the same levels). */
static void walk_child(CfrWalk *w, int32_t c, int p, const double *own, const double *opp, double *sub, int mode,
                       int32_t level) {
    if (w->phase == PHASE_WALK || level != w->split) {
        w->node(w, c, p, own, opp, sub, mode, level);
        return;
    }
    const CfrMoves *t = &w->m;
    const CfrHand *al = t->alive[p];
    int32_t np = t->nh[p], nq = t->nh[1 - p];
    if (w->phase == PHASE_JOIN) {
        const WalkTask *task = &w->tasks[w->next_task++];
        const double *got = w->taskbuf + task->sub;
        for (int32_t k = t->alive_at[p][c]; k < t->alive_at[p][c + 1]; k++) sub[al[k]] = got[al[k]];
        return;
    }
    for (int32_t k = t->alive_at[p][c]; k < t->alive_at[p][c + 1]; k++) sub[al[k]] = 0.0;
#if CFR_PARALLEL
    if (w->failed) return;
    int64_t need = (int64_t)2 * np + nq;
    if (w->ntasks == w->task_cap || w->taskbuf_used + need > w->taskbuf_cap) {
        int32_t cap = w->task_cap ? 2 * w->task_cap : 64;
        int64_t room = w->taskbuf_cap ? 2 * w->taskbuf_cap : 64 * need;
        while (room < w->taskbuf_used + need) room *= 2;
        WalkTask *tasks = w->ntasks == w->task_cap ? realloc(w->tasks, sizeof(WalkTask) * (size_t)cap) : w->tasks;
        if (tasks == NULL) {
            w->failed = 1;
            return;
        }
        w->tasks = tasks;
        if (w->ntasks == w->task_cap) w->task_cap = cap;
        if (w->taskbuf_used + need > w->taskbuf_cap) {
            double *buf = realloc(w->taskbuf, sizeof(double) * (size_t)room);
            if (buf == NULL) {
                w->failed = 1;
                return;
            }
            w->taskbuf = buf;
            w->taskbuf_cap = room;
        }
    }
    WalkTask *task = &w->tasks[w->ntasks++];
    task->node = c, task->level = level, task->size = split_size(w, c);
    task->own = w->taskbuf_used, task->opp = task->own + np, task->sub = task->opp + nq;
    w->taskbuf_used += need;
    /* (the hands alive at the task's node alone: a walk reads no other entry of a reach vector) */
    double *mine = w->taskbuf + task->own, *theirs = w->taskbuf + task->opp;
    for (int32_t k = t->alive_at[p][c]; k < t->alive_at[p][c + 1]; k++) mine[al[k]] = own[al[k]];
    const CfrHand *ao = t->alive[1 - p];
    for (int32_t k = t->alive_at[1 - p][c]; k < t->alive_at[1 - p][c + 1]; k++) theirs[ao[k]] = opp[ao[k]];
#else
    (void)own, (void)opp, (void)np, (void)nq;     /* (no threads: never a task) */
#endif
}

/* Node ``n``'s moves in ``p``'s walk (its terminal values already in ``v``): each child walked with the reach its
 * move leaves, its values summed into ``v`` by the strategy (the other's node) or by ``p``'s own strategy, his best
 * move (``MODE_BEST``), and in ``MODE_CFR`` his regrets and average updated (not while a walk over several threads
 * finds its tasks: the join does). */
static void walk_moves(CfrWalk *w, int32_t n, int p, const double *own, const double *opp, double *v, int mode,
                       int32_t level) {
    const CfrMoves *t = &w->m;
    int32_t mover = t->player[n];
    if (mover < 0) return;
    int32_t c0 = t->child_at[n], width = t->child_at[n + 1] - c0;
    int32_t i0 = t->iset_at[n], i1 = t->iset_at[n + 1];
    size_t per = (size_t)t->nh[0] + (size_t)t->nh[1];
    double *base = w->buf + (size_t)2 * per * (size_t)(level + 1);
    double *sub = base + (p == 0 ? 0 : t->nh[0]);           /* the child's values (player p's hands) */
    double *reach = base + per + (mover == 0 ? 0 : t->nh[0]);   /* the child's reach of the mover's hands */
    const double *st = strategies(w, n, mode == MODE_CFR, level);
    double *vals = w->buf + w->vat[2 * level];  /* the children's values by legal move: ``j - lat[i0]`` */
    int32_t j00 = w->lat[i0];
    const int8_t *folded = w->folded;
    if (folded != NULL && w->phase != PHASE_FIND) w->fold(w, n, p, opp, v, vals, st);
    if (mover != p) {
        const CfrHand *al = t->alive[p];
        for (int32_t a = 0; a < width; a++) {
            int32_t c = t->child[c0 + a];
            if (folded != NULL && folded[c0 + a]) continue;
            reach_by(w, c0 + a, opp, reach, st, j00);
            walk_child(w, c, p, own, reach, sub, mode, level + 1);
            for (int32_t k = t->alive_at[p][c]; k < t->alive_at[p][c + 1]; k++) v[al[k]] += sub[al[k]];
        }
        return;
    }
    for (int32_t a = 0; a < width; a++) {
        if (folded != NULL && folded[c0 + a]) continue;
        reach_by(w, c0 + a, own, reach, st, j00);
        walk_child(w, t->child[c0 + a], p, reach, opp, sub, mode, level + 1);
        for (int32_t k = w->by_at[c0 + a]; k < w->by_at[c0 + a + 1]; k++)
            vals[w->by_slot[k] - j00] = sub[w->by_hand[k]];
    }
    double tie = 0.0;                 /* (a regret's change within this counts as none: ``CFR_TIE``) */
    if (mode == MODE_CFR) {
        const CfrHand *ao = t->alive[1 - p];
        for (int32_t k = t->alive_at[1 - p][n]; k < t->alive_at[1 - p][n + 1]; k++) tie += opp[ao[k]];
        tie *= w->tie;
    }
    for (int32_t i = i0; i < i1; i++) {
        int32_t h = t->iset_hand[i], j0 = w->lat[i], j1 = w->lat[i + 1];
        const double *va = vals + (j0 - j00), *sa = st + (j0 - j00);    /* (``va[j - j0]``: slot ``j``'s) */
        if (mode == MODE_BEST) {
            int found = 0;
            double best = 0.0;
            for (int32_t j = j0; j < j1; j++)
                if (i == w->forced_set ? w->lmove[j] == w->forced_move : !found || va[j - j0] > best)
                    best = va[j - j0], found = 1;
            v[h] += best;
            continue;
        }
        double here = 0.0;
        for (int32_t j = j0; j < j1; j++) here += sa[j - j0] * va[j - j0];
        v[h] += here;
        if (mode == MODE_CFR && i != w->forced_set && w->phase != PHASE_FIND) {
            for (int32_t j = j0; j < j1; j++) {
                double d = va[j - j0] - here;
                if (d > tie || d < -tie) w->regret[j] += d;
            }
            average_add(w, i, own[h], sa);
        }
    }
}

typedef struct {
    CfrWalk *w, *on;              /* the run, and the run (or copy) this thread walks its tasks on */
    int p, mode;
} TaskWorker;

#if CFR_PARALLEL
/* Tasks of the run taken one after the other (the next not taken, ``next_task``) and walked on ``x->on``. */
static void *walk_tasks(void *arg) {
    TaskWorker *x = arg;
    CfrWalk *w = x->w;
    for (;;) {
        int32_t k = __atomic_fetch_add(&w->next_task, 1, __ATOMIC_RELAXED);
        if (k >= w->ntasks) return NULL;
        const WalkTask *task = &w->tasks[w->order[k]];
        x->on->node(x->on, task->node, x->p, w->taskbuf + task->own, w->taskbuf + task->opp, w->taskbuf + task->sub,
                    x->mode, task->level);
    }
}

static int larger_first(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}
#endif

/* ``p``'s root walk over several threads, where the run has them (``cfr_threads``): the tasks found, walked (each on
 * one thread), joined: 1; else 0 (nothing done: the walk is the one-thread walk). */
static int walk_split(CfrWalk *w, int p, const double *own, const double *opp, double *v, int mode) {
#if CFR_PARALLEL
    if (w->threads < 2 || w->split < 1 || w->clone == NULL) return 0;
    int32_t extra = w->threads - 1;
    if (w->nclones < extra) {
        CfrWalk **clones = realloc(w->clones, sizeof(CfrWalk *) * (size_t)extra);
        if (clones == NULL) return 0;
        w->clones = clones;
        for (; w->nclones < extra; w->nclones++) {
            w->clones[w->nclones] = w->clone(w, NULL);
            if (w->clones[w->nclones] == NULL) break;
        }
        if (w->nclones < 1) return 0;
    }
    w->phase = PHASE_FIND;
    w->ntasks = 0, w->taskbuf_used = 0, w->failed = 0;
    w->node(w, 0, p, own, opp, v, mode, 0);
    w->phase = PHASE_WALK;
    if (w->failed || w->ntasks < 2) {
        w->ntasks = 0;
        return 0;
    }
    int64_t *by_size = malloc(sizeof(int64_t) * (size_t)w->ntasks);
    int32_t *order = realloc(w->order, sizeof(int32_t) * (size_t)w->ntasks);
    if (order != NULL) w->order = order;
    if (by_size == NULL || order == NULL) {
        free(by_size);
        w->ntasks = 0;
        return 0;
    }
    for (int32_t k = 0; k < w->ntasks; k++) by_size[k] = ((int64_t)w->tasks[k].size << 32) | (int64_t)k;
    qsort(by_size, (size_t)w->ntasks, sizeof(int64_t), larger_first);
    for (int32_t k = 0; k < w->ntasks; k++) w->order[k] = (int32_t)(by_size[k] & 0xffffffff);
    free(by_size);
    pthread_t ids[CFR_THREADS];
    TaskWorker workers[CFR_THREADS];
    int32_t started = 0, use = extra < w->nclones ? extra : w->nclones;
    if (use > w->ntasks - 1) use = w->ntasks - 1;
    w->next_task = 0;
    for (int32_t k = 0; k < use; k++) {
        workers[k] = (TaskWorker){w, w->clone(w, w->clones[k]), p, mode};
        if (pthread_create(&ids[started], NULL, walk_tasks, &workers[k]) == 0) started++;
        else break;
    }
    TaskWorker self = {w, w, p, mode};
    walk_tasks(&self);            /* (this thread too, on the run itself: its scratch below the split is free) */
    for (int32_t k = 0; k < started; k++) pthread_join(ids[k], NULL);
    w->phase = PHASE_JOIN;
    w->next_task = 0;
    w->node(w, 0, p, own, opp, v, mode, 0);
    w->phase = PHASE_WALK;
    w->ntasks = 0;
    return 1;
#else
    (void)w, (void)p, (void)own, (void)opp, (void)v, (void)mode;
    return 0;
#endif
}

/* A root walk for ``p`` (the root reaches: each hand's weight, 1 where none): the sum of its hands' values times
 * their reach. */
static double walk_root(CfrWalk *w, int p, int mode) {
    const CfrMoves *t = &w->m;
    size_t per = (size_t)t->nh[0] + (size_t)t->nh[1];
    double *v = w->buf + (p == 0 ? 0 : t->nh[0]);
    double *r = w->buf + per;                 /* level 0's reach vectors */
    for (int q = 0; q < 2; q++)
        for (int32_t h = 0; h < t->nh[q]; h++) r[(q == 0 ? 0 : t->nh[0]) + h] = w->weight[q] ? w->weight[q][h] : 1.0;
    double *own = r + (p == 0 ? 0 : t->nh[0]), *opp = r + (p == 0 ? t->nh[0] : 0);
    if (!walk_split(w, p, own, opp, v, mode)) w->node(w, 0, p, own, opp, v, mode, 0);
    double total = 0.0;
    for (int32_t k = t->alive_at[p][0]; k < t->alive_at[p][1]; k++) total += v[t->alive[p][k]] * own[t->alive[p][k]];
    return total;
}

/* A walk's scratch by depth: value and reach vectors, a node's children's values and strategies (``walk_init``'s
 * ``buf``). */
static double *new_buf(const CfrWalk *w) {
    return calloc((size_t)w->bufsize + 1, sizeof(double));
}

/* The tree over deals' copy of a run for a thread (``clone``): all but its ``buf``. */
static CfrWalk *deal_clone(const CfrWalk *w, CfrWalk *old) {
    CfrRun *run = (CfrRun *)old;
    double *buf = old != NULL ? old->buf : new_buf(w);
    if (old == NULL) run = malloc(sizeof *run);
    if (run == NULL || buf == NULL) {
        free(run);
        free(buf);
        return NULL;
    }
    *run = *(const CfrRun *)w;
    run->w.buf = buf;
    return &run->w;
}

static void deal_unclone(CfrWalk *copy) {
    free(copy->buf);
    free(copy);
}

int32_t cfr_threads(CfrWalk *w, int32_t threads) {
    const CfrMoves *t = &w->m;
    w->threads = threads < 1 ? 1 : threads > CFR_THREADS ? CFR_THREADS : threads;
    w->split = 0;
    free(w->split_node), free(w->split_size);
    w->split_node = w->split_size = NULL, w->nsplit = 0;
    if (!CFR_PARALLEL || w->threads < 2 || t->nodes < CFR_PARALLEL_NODES) return 0;
    for (int32_t n = 0; n < t->nodes; n++)
        if (t->player[n] > 1) return 0;             /* (a draw: one thread) */
    /* each node's depth and where its subtree ends (the nodes are in preorder: a subtree is the nodes from its root
     * to the next node of no lower depth) */
    int32_t depth = w->depth, *count = calloc((size_t)depth + 2, sizeof(int32_t));
    int32_t *level = malloc(sizeof(int32_t) * (size_t)t->nodes), *end = malloc(sizeof(int32_t) * (size_t)t->nodes);
    if (count == NULL || level == NULL || end == NULL) goto done;
    level[0] = 0, end[0] = t->nodes;
    for (int32_t n = 0; n < t->nodes; n++) {
        count[level[n]]++;
        if (t->player[n] < 0) continue;
        for (int32_t c = t->child_at[n]; c < t->child_at[n + 1]; c++) {
            int32_t x = t->child[c];
            level[x] = level[n] + 1;
            end[x] = c + 1 < t->child_at[n + 1] ? t->child[c + 1] : end[n];
        }
    }
    for (int32_t d = 1; d + 2 <= depth; d++)
        if (count[d] >= 16 * w->threads) {          /* (enough tasks to share out evenly, the largest first) */
            w->split = d;
            break;
        }
    if (w->split) {
        w->split_node = malloc(sizeof(int32_t) * (size_t)count[w->split]);
        w->split_size = malloc(sizeof(int32_t) * (size_t)count[w->split]);
        if (w->split_node == NULL || w->split_size == NULL) {
            free(w->split_node), free(w->split_size);
            w->split_node = w->split_size = NULL, w->split = 0;
            goto done;
        }
        for (int32_t n = 0; n < t->nodes; n++)      /* (ascending: found by bisection) */
            if (level[n] == w->split) {
                w->split_node[w->nsplit] = n;
                w->split_size[w->nsplit++] = end[n] - n;
            }
    }
done:
    free(count), free(level), free(end);
    return w->split;
}

/* The nodes below ``n``, ``n`` with them (``n`` at the depth a walk over several threads splits at). */
static int32_t split_size(const CfrWalk *w, int32_t n) {
    int32_t lo = 0, hi = w->nsplit;
    while (hi - lo > 1) {
        int32_t mid = (lo + hi) / 2;
        if (w->split_node[mid] <= n) lo = mid;
        else hi = mid;
    }
    return w->nsplit && w->split_node[lo] == n ? w->split_size[lo] : 1;
}

int cfr_force(CfrWalk *w, int32_t forced_set, int32_t forced_move, int keep, const char **err) {
    int kind = forced_legal(w, forced_set, forced_move, err);
    if (kind != K_OK) return kind;
    w->forced_set = forced_set;
    w->forced_move = forced_move;
    if (keep) return K_OK;
    memset(w->avg, 0, sizeof(double) * ((size_t)w->nlegal + 1));
    w->it = 0;
    return K_OK;
}

/* Player ``p``'s regrets discounted at the end of his walk of iteration ``it`` (Discounted CFR with alpha 1.5, beta 0):
 * a positive one kept by it^1.5 / (it^1.5 + 1), a negative one halved; every set of his, walked or not. */
static void discount(CfrWalk *w, int p) {
    const CfrMoves *t = &w->m;
    double a = (double)w->it * __builtin_sqrt((double)w->it), keep = a / (a + 1.0);
    for (int32_t n = 0; n < t->nodes; n++)
        if (t->player[n] == p)
            for (int32_t j = w->lat[t->iset_at[n]]; j < w->lat[t->iset_at[n + 1]]; j++)
                w->regret[j] *= w->regret[j] > 0 ? keep : 0.5;
}

void cfr_iterate(CfrWalk *w, int64_t count) {
    for (int64_t k = 0; k < count; k++) {
        w->it++;
        for (int p = 0; p < 2; p++) {
            walk_root(w, p, MODE_CFR);
            discount(w, p);
        }
    }
}

double cfr_best(CfrWalk *w, int p) {
    double v = walk_root(w, p, MODE_BEST);
    return p == 0 ? v : -v;
}

void cfr_average(const CfrWalk *w, double *out) {
    const CfrMoves *t = &w->m;
    for (int32_t s = 0; s < t->size; s++) out[s] = 0.0;
    for (int32_t i = 0; i < t->iset_at[t->nodes]; i++)
        for (int32_t j = w->lat[i]; j < w->lat[i + 1]; j++) out[t->slot[i] + w->lmove[j]] = w->avg[j];
}

int cfr_set_average(const CfrWalk *w, int32_t i, int32_t width, double *out, const char **err) {
    const CfrMoves *t = &w->m;
    if (i < 0 || i >= t->iset_at[t->nodes] || width < 0) {
        *err = "no such information set";
        return K_VALUE;
    }
    for (int32_t a = 0; a < width; a++) out[a] = 0.0;
    for (int32_t j = w->lat[i]; j < w->lat[i + 1]; j++) {
        if (w->lmove[j] >= width) {
            *err = "an information set has more moves than asked for";
            return K_VALUE;
        }
        out[w->lmove[j]] = w->avg[j];
    }
    return K_OK;
}

void cfr_hand_values(CfrWalk *w, double *out) {
    const CfrMoves *t = &w->m;
    walk_root(w, 0, MODE_EVAL);
    for (int32_t h = 0; h < t->nh[0]; h++) out[h] = 0.0;
    for (int32_t k = t->alive_at[0][0]; k < t->alive_at[0][1]; k++) {
        int32_t h = t->alive[0][k];
        out[h] = w->buf[h] * (w->weight[0] ? w->weight[0][h] : 1.0);
    }
}


/* -- the tree over deals -------------------------------------------------------------------------------------- */

/* A draw's pairs of a hand of the drawer's at its child and the hand at the draw it was drawn from, ``k`` from ``k0`` to
 * ``k1``: ``child[k]`` and ``parent[k]``, or where ``par`` is given (the tree over deals: one parent a hand)
 * ``child[k]`` and ``par[child[k]]``. */
typedef struct {
    const CfrHand *child, *parent;
    const int32_t *par;
    int32_t k0, k1;
} DrawPairs;

/* Player ``q``'s draw at ``n`` (``player[n]`` is 2 + q) in ``p``'s walk, both forms: each of his hands at the child
 * reaches the sum of what the hands it was drawn from reach (``d``; the tile's chance is in the deals' weights or the
 * tables below); ``p``'s values come back up, a drawer's hand's the sum of those of the hands drawn from it, the
 * other's hands passing through. */
/* The reach of drawer ``q``'s hands at the child of the draw at ``n`` (``from``: his reach at ``n``), into the child's
 * reach vector of his at ``level + 1`` (returned): each hand's the sum of what the hands it was drawn from reach. */
static double *draw_reach(CfrWalk *w, int32_t n, int q, const double *from, int32_t level, DrawPairs d) {
    const CfrMoves *m = &w->m;
    int32_t c = m->child[m->child_at[n]];
    size_t per = (size_t)m->nh[0] + (size_t)m->nh[1];
    double *reach = w->buf + (size_t)2 * per * (size_t)(level + 1) + per + (q == 0 ? 0 : m->nh[0]);
    for (int32_t k = m->alive_at[q][c]; k < m->alive_at[q][c + 1]; k++) reach[m->alive[q][k]] = 0.0;
    for (int32_t k = d.k0; k < d.k1; k++) {
        int32_t h = d.child[k];
        reach[h] += from[d.par ? d.par[h] : d.parent[k]];
    }
    return reach;
}

static void walk_draw(CfrWalk *w, int32_t n, int p, const double *own, const double *opp, double *v, int mode,
                      int32_t level, DrawPairs d) {
    const CfrMoves *m = &w->m;
    int q = m->player[n] - 2;
    int32_t c = m->child[m->child_at[n]];
    size_t per = (size_t)m->nh[0] + (size_t)m->nh[1];
    double *sub = w->buf + (size_t)2 * per * (size_t)(level + 1) + (p == 0 ? 0 : m->nh[0]);
    double *reach = draw_reach(w, n, q, q == p ? own : opp, level, d);
    w->node(w, c, p, q == p ? reach : own, q == p ? opp : reach, sub, mode, level + 1);
    if (q == p) {
        for (int32_t k = d.k0; k < d.k1; k++) {
            int32_t h = d.child[k];
            v[d.par ? d.par[h] : d.parent[k]] += sub[h];
        }
        return;
    }
    for (int32_t k = m->alive_at[p][c]; k < m->alive_at[p][c + 1]; k++) v[m->alive[p][k]] += sub[m->alive[p][k]];
}

/* Player ``q``'s draw at ``n`` in the tree over deals: each of his hands at the child drawn from one (``parent``). */
static void draw_node(CfrWalk *w, const CfrTree *t, int32_t n, int p, const double *own, const double *opp, double *v,
                      int mode, int32_t level) {
    const CfrMoves *m = &w->m;
    int q = m->player[n] - 2;
    int32_t c = m->child[m->child_at[n]];
    DrawPairs d = {m->alive[q], NULL, t->parent[q], m->alive_at[q][c], m->alive_at[q][c + 1]};
    walk_draw(w, n, p, own, opp, v, mode, level, d);
}

/* The deals ending at ``n`` valued for ``p``'s hands against the other's reach, then the node's moves (or its draw). */
static void deal_node(CfrWalk *w, int32_t n, int p, const double *own, const double *opp, double *v, int mode,
                      int32_t level) {
    const CfrTree *t = &((CfrRun *)w)->t;
    const CfrHand *al = w->m.alive[p];
    for (int32_t k = w->m.alive_at[p][n]; k < w->m.alive_at[p][n + 1]; k++) v[al[k]] = 0.0;
    if (w->m.player[n] > 1) {
        draw_node(w, t, n, p, own, opp, v, mode, level);
        return;
    }
    double sgn = p == 0 ? 1.0 : -1.0;
    const int32_t *mine = t->hand[p], *theirs = t->hand[1 - p];
    int32_t k1 = w->phase == PHASE_FIND ? t->term_at[n] : t->term_at[n + 1];    /* (finding tasks: no value) */
    for (int32_t k = t->term_at[n]; k < k1; k++) {
        int32_t d = t->term_deal[k];
        double r = opp[theirs[d]];
        if (r != 0.0) v[mine[d]] += sgn * t->term_value[k] * r;
    }
    walk_moves(w, n, p, own, opp, v, mode, level);
}

/* A node's list ``at`` (``N + 1`` starts) ascending from 0 to at most ``len``. */
static int ascending(const int32_t *at, int64_t N, int64_t len, const char **err) {
    if (at[0] < 0 || at[N] > len) return fail(err, K_VALUE, "a node's list runs past its array");
    for (int64_t k = 0; k < N; k++)
        if (at[k] > at[k + 1]) return fail(err, K_VALUE, "a node's lists run backwards");
    return K_OK;
}

/* The lists of ``m``'s nodes inside their arrays (``nchild``, ... items). */
static int moves_fit(const CfrMoves *m, int64_t nchild, int64_t niset, int64_t nalive0, int64_t nalive1,
                     const char **err) {
    int32_t N = m->nodes;
    int kind = ascending(m->child_at, N, nchild, err);
    if (kind == K_OK) kind = ascending(m->iset_at, N, niset, err);
    if (kind == K_OK) kind = ascending(m->alive_at[0], N, nalive0, err);
    if (kind == K_OK) kind = ascending(m->alive_at[1], N, nalive1, err);
    return kind;
}

int cfr_tree(CfrTree *t, void *const *p, const int64_t *n, int32_t nh0, int32_t nh1, int32_t size, const char **err) {
    CfrMoves *m = &t->m;
    memset(t, 0, sizeof *t);
    t->hand[0] = p[CFR_HAND0], t->hand[1] = p[CFR_HAND1], m->player = p[CFR_PLAYER], m->child_at = p[CFR_CHILD_AT];
    m->child = p[CFR_CHILD], t->term_at = p[CFR_TERM_AT], t->term_deal = p[CFR_TERM_DEAL];
    t->term_value = p[CFR_TERM_VALUE], m->iset_at = p[CFR_ISET_AT], m->iset_hand = p[CFR_ISET_HAND];
    m->slot = p[CFR_SLOT], m->legal = p[CFR_LEGAL], m->alive_at[0] = p[CFR_ALIVE_AT0], m->alive[0] = p[CFR_ALIVE0];
    m->alive_at[1] = p[CFR_ALIVE_AT1], m->alive[1] = p[CFR_ALIVE1];
    if (n[CFR_PARENT0] || n[CFR_PARENT1]) {          /* (none where no tile is drawn) */
        if (n[CFR_PARENT0] != nh0 || n[CFR_PARENT1] != nh1)
            return fail(err, K_VALUE, "the tree's arrays do not fit together");
        t->parent[0] = p[CFR_PARENT0], t->parent[1] = p[CFR_PARENT1];
    }
    int64_t N = n[CFR_PLAYER];
    if (N < 1 || N >= INT32_MAX || n[CFR_HAND0] >= INT32_MAX) return fail(err, K_VALUE, "an empty tree");
    m->nodes = (int32_t)N, t->deals = (int32_t)n[CFR_HAND0], m->nh[0] = nh0, m->nh[1] = nh1, m->size = size;
    if (n[CFR_HAND1] != n[CFR_HAND0] || n[CFR_CHILD_AT] != N + 1 || n[CFR_TERM_AT] != N + 1
        || n[CFR_ISET_AT] != N + 1 || n[CFR_ALIVE_AT0] != N + 1 || n[CFR_ALIVE_AT1] != N + 1
        || n[CFR_TERM_DEAL] != n[CFR_TERM_VALUE] || n[CFR_ISET_HAND] != n[CFR_SLOT]
        || n[CFR_LEGAL] < ((int64_t)size + 7) / 8 || nh0 < 0 || nh1 < 0 || size < 0)
        return fail(err, K_VALUE, "the tree's arrays do not fit together");
    if (nh0 > CFR_HANDS || nh1 > CFR_HANDS) return fail(err, K_VALUE, "more hands of a player than the tree indexes");
    int kind = moves_fit(m, n[CFR_CHILD], n[CFR_ISET_HAND], n[CFR_ALIVE0], n[CFR_ALIVE1], err);
    return kind != K_OK ? kind : ascending(t->term_at, N, n[CFR_TERM_DEAL], err);
}

int cfr_init(CfrRun *run, const CfrTree *t, int32_t forced_set, int32_t forced_move, const char **err) {
    memset(run, 0, sizeof *run);
    run->t = *t;
    const CfrMoves *m = &t->m;
    if (m->nodes < 1) return fail(err, K_VALUE, "an empty tree");
    for (int32_t n = 0; n < m->nodes; n++) {
        int kind = check_node(m, n, t->parent[0] != NULL, err);
        if (kind != K_OK) return kind;
        if (t->term_at[n] > t->term_at[n + 1]) return fail(err, K_VALUE, "a node's lists run backwards");
        for (int32_t k = t->term_at[n]; k < t->term_at[n + 1]; k++)
            if (t->term_deal[k] < 0 || t->term_deal[k] >= t->deals) return fail(err, K_VALUE, "a deal out of range");
    }
    for (int32_t d = 0; d < t->deals; d++)
        if (t->hand[0][d] < 0 || t->hand[0][d] >= m->nh[0] || t->hand[1][d] < 0 || t->hand[1][d] >= m->nh[1])
            return fail(err, K_VALUE, "a deal's hand out of range");
    if (t->parent[0] != NULL) {
        for (int q = 0; q < 2; q++)
            for (int32_t h = 0; h < m->nh[q]; h++)
                if (t->parent[q][h] < -1 || t->parent[q][h] >= h)
                    return fail(err, K_VALUE, "a hand drawn from one after it");
        for (int32_t n = 0; n < m->nodes; n++) {       /* a draw's child: the drawer's hands each drawn from one */
            int32_t q = m->player[n] - 2;
            if (q < 0) continue;
            int32_t c = m->child[m->child_at[n]];
            for (int32_t k = m->alive_at[q][c]; k < m->alive_at[q][c + 1]; k++)
                if (t->parent[q][m->alive[q][k]] < 0) return fail(err, K_VALUE, "a drawn hand without its parent");
        }
    }
    int kind = walk_init(&run->w, m, deal_node, forced_set, forced_move, err);
    run->w.clone = deal_clone;
    run->w.unclone = deal_unclone;
    run->w.threads = 1;
    double top = 0.0;
    for (int32_t k = 0; k < t->term_at[m->nodes]; k++) {
        double x = __builtin_fabs(t->term_value[k]);
        if (x > top) top = x;
    }
    run->w.tie = CFR_TIE * top;
    return kind;
}


/* -- the tree over hands -------------------------------------------------------------------------------------- */

static int popcount32(uint32_t x) {
    int c = 0;
    for (; x; x &= x - 1) c++;
    return c;
}

/* The tiles (compressed positions, ascending) of ``mask`` into ``at``; their count. */
static int tiles_in(uint32_t mask, int *at) {
    int m = 0;
    for (int b = 0; mask; b++, mask >>= 1)
        if (mask & 1) at[m++] = b;
    return m;
}

/* The row of the subset ``sub`` (a bit per entry of ``at``) of the tiles ``at``: the subsets ordered by size, then
 * by the combinatorial number system (each hand's rows computed once, at the run's start: ``srow``). */
static int64_t subset_row(const RangeRun *run, const int *at, int m, uint32_t sub) {
    int k = 0;
    int64_t rank = 0;
    for (int j = 0; j < m; j++)
        if (sub >> j & 1) {
            k++;
            rank += run->choose[at[j] * (run->most + 1) + k];
        }
    int64_t offset = 0;
    for (int s = 0; s < k; s++) offset += run->choose[run->bits * (run->most + 1) + s];
    return offset + rank;
}

/* The tiles of player ``q``'s hand ``h`` not in ``played`` (his tiles played, compressed), a bit per tile of the hand
 * (``stile``'s order): the subsets of those are the rows its sum reads. */
static uint32_t free_tiles(const RangeRun *run, int q, int32_t h, uint32_t played) {
    const int8_t *tiles = run->stile[q] + (size_t)h * RANGE_MOST;
    int m = popcount32((uint32_t)run->t.mask[q][h]);
    uint32_t out = 0;
    for (int j = 0; j < m; j++)
        if (!(played >> tiles[j] & 1)) out |= 1u << j;
    return out;
}

/* Each hand's tiles and the rows of their subsets, into ``run`` (K_MEMORY where out of memory). */
static int subset_rows(RangeRun *run, const char **err) {
    const CfrMoves *m = &run->t.m;
    for (int q = 0; q < 2; q++) {
        int64_t total = 0;
        run->srow_at[q] = held_calloc(&run->w, (size_t)m->nh[q] + 1, sizeof(int32_t));
        run->stile[q] = held_calloc(&run->w, (size_t)m->nh[q] * RANGE_MOST + 1, sizeof(int8_t));
        if (!run->srow_at[q] || !run->stile[q]) return fail(err, K_MEMORY, "out of memory");
        for (int32_t h = 0; h < m->nh[q]; h++) {
            run->srow_at[q][h] = (int32_t)total;
            total += (int64_t)1 << popcount32((uint32_t)run->t.mask[q][h]);
            if (total >= INT32_MAX) return fail(err, K_MEMORY, "out of memory");
        }
        run->srow_at[q][m->nh[q]] = (int32_t)total;
        run->srow[q] = held_calloc(&run->w, (size_t)total + 1, sizeof(int32_t));
        if (!run->srow[q]) return fail(err, K_MEMORY, "out of memory");
        for (int32_t h = 0; h < m->nh[q]; h++) {
            int at[32];
            int k = tiles_in((uint32_t)run->t.mask[q][h], at);
            for (int j = 0; j < k; j++) run->stile[q][(size_t)h * RANGE_MOST + j] = (int8_t)at[j];
            for (uint32_t sub = 0; sub < (1u << k); sub++)
                run->srow[q][run->srow_at[q][h] + sub] = (int32_t)subset_row(run, at, k, sub);
        }
    }
    return K_OK;
}

/* Where either player has at most this many terminal hands at a node, its terminal values are summed pair by pair
 * (``range_pairs``), not by inclusion-exclusion: most such nodes are a player's going out, where his one hand (every
 * tile of it played) meets each of the other's, and the pairs are then fewer than the subsets' rows. */
#define PAIRWISE 4

/* Node ``n``'s terminal values of player ``p``'s hands against ``opp`` (the other's reach), added to ``v``, pair by
 * pair: for each of his terminal hands, the sum over the other's terminal hands sharing no tile with it. */
static void range_pairs(RangeRun *run, int32_t n, int p, const double *opp, double *v) {
    const RangeTree *t = &run->t;
    int q = 1 - p;
    double sgn = p == 0 ? 1.0 : -1.0;
    const double *table = t->table + t->table_at[n];
    int32_t w = t->width[n];
    for (int32_t k = t->term_at[p][n]; k < t->term_at[p][n + 1]; k++) {
        int32_t h = t->term_hand[p][k], kh = t->term_class[p][k], mh = t->mask[p][h];
        double total = 0.0;
        for (int32_t j = t->term_at[q][n]; j < t->term_at[q][n + 1]; j++) {
            int32_t o = t->term_hand[q][j], ko = t->term_class[q][j];
            double r = opp[o];
            if (r == 0.0 || (t->mask[q][o] & mh)) continue;
            total += (p == 0 ? table[kh * w + ko] : table[ko * w + kh]) * r;
        }
        v[h] += sgn * total;
    }
}

/* Node ``n``'s terminal values of player ``p``'s hands against ``opp`` (the other's reach), added to ``v``: for each
 * of his terminal hands, the sum over the other's terminal hands disjoint from it, by inclusion-exclusion (pair by
 * pair where either side has few: ``range_pairs``). */
static void range_terminal(RangeRun *run, int32_t n, int p, const double *opp, double *v) {
    const RangeTree *t = &run->t;
    int q = 1 - p;
    int32_t a0 = t->term_at[p][n], a1 = t->term_at[p][n + 1], b0 = t->term_at[q][n], b1 = t->term_at[q][n + 1];
    if (a0 == a1 || b0 == b1) return;
    if (a1 - a0 <= PAIRWISE || b1 - b0 <= PAIRWISE) {
        range_pairs(run, n, p, opp, v);
        return;
    }
    if (++run->gen == INT32_MAX) {
        memset(run->stamp, 0, sizeof(int32_t) * (size_t)run->subsets);
        memset(run->wstamp, 0, sizeof(int32_t) * (size_t)run->subsets * (size_t)run->classes);
        run->gen = 1;
    }
    int32_t gen = run->gen, C = run->classes, cq = 0;
    int any = 0;
    for (int32_t k = b0; k < b1; k++) {
        int32_t o = t->term_hand[q][k];
        double r = opp[o];
        if (r == 0.0) continue;
        any = 1;
        int32_t ko = t->term_class[q][k];
        if (ko + 1 > cq) cq = ko + 1;
        const int32_t *rows = run->srow[q] + run->srow_at[q][o];
        uint32_t free_ = free_tiles(run, q, o, (uint32_t)t->played[q][n]);
        for (uint32_t sub = free_;; sub = (sub - 1) & free_) {      /* (the subsets of its tiles not yet played) */
            int64_t row = rows[sub];
            double *acc = run->acc + row * C;
            if (run->stamp[row] != gen) {
                run->stamp[row] = gen;
                for (int32_t c = 0; c < C; c++) acc[c] = 0.0;
            }
            acc[ko] += r;
            if (!sub) break;
        }
    }
    if (!any) return;
    double sgn = p == 0 ? 1.0 : -1.0;
    const double *table = t->table + t->table_at[n];
    int32_t w = t->width[n];
    for (int32_t k = a0; k < a1; k++) {
        int32_t h = t->term_hand[p][k], kh = t->term_class[p][k];
        const int32_t *rows = run->srow[p] + run->srow_at[p][h];
        uint32_t free_ = free_tiles(run, p, h, (uint32_t)t->played[p][n]);
        double total = 0.0;
        for (uint32_t sub = free_;; sub = (sub - 1) & free_) {
            int64_t row = rows[sub];
            if (run->stamp[row] != gen) {
                if (!sub) break;
                continue;
            }
            int64_t cell = row * C + kh;          /* (the row's value for a hand of class kh, once a sum) */
            if (run->wstamp[cell] != gen) {
                const double *acc = run->acc + row * C;
                double part = 0.0;
                if (p == 0)
                    for (int32_t c = 0; c < cq; c++) part += table[kh * w + c] * acc[c];
                else
                    for (int32_t c = 0; c < cq; c++) part += table[c * w + kh] * acc[c];
                run->wstamp[cell] = gen;
                run->wsum[cell] = part;
            }
            double part = run->wsum[cell];
            total += popcount32(sub) & 1 ? -part : part;
            if (!sub) break;
        }
        v[h] += sgn * total;
    }
}

/* Whether any of player ``q``'s hands alive at ``n`` has a reach in ``r``. */
static int any_reach(const CfrMoves *t, int32_t n, int q, const double *r) {
    for (int32_t k = t->alive_at[q][n]; k < t->alive_at[q][n + 1]; k++)
        if (r[t->alive[q][k]] != 0.0) return 1;
    return 0;
}

/* The pairs of the draw at ``n`` of a tree over hands: a hand at its child may have been drawn from several at it (those
 * the same tiles less one: the order he drew them in changes nothing of what follows, so they are one hand there). */
static DrawPairs range_pairs_of(const CfrWalk *w, int32_t n) {
    const RangeTree *t = &((const RangeRun *)w)->t;
    DrawPairs d = {t->draw_child, t->draw_parent, NULL, t->draw_at[n], t->draw_at[n + 1]};
    return d;
}

/* A CFR walk's update of player ``p``'s average strategy alone below ``n``, where the other's reach is nothing: every
 * counterfactual value there is 0, so no regret moves, but ``p``'s own reach still weighs his average. */
static void range_average_only(CfrWalk *w, int32_t n, int p, const double *own, int32_t level) {
    const CfrMoves *t = &w->m;
    int32_t mover = t->player[n];
    if (mover < 0 || !any_reach(t, n, p, own)) return;
    int32_t c0 = t->child_at[n], width = t->child_at[n + 1] - c0;
    if (mover - 2 == p) {         /* his draw: his hands at the child reach what those they were drawn from reach */
        range_average_only(w, t->child[c0], p, draw_reach(w, n, p, own, level, range_pairs_of(w, n)), level + 1);
        return;
    }
    if (mover != p) {
        for (int32_t a = 0; a < width; a++) range_average_only(w, t->child[c0 + a], p, own, level + 1);
        return;
    }
    size_t per = (size_t)t->nh[0] + (size_t)t->nh[1];
    double *reach = w->buf + (size_t)2 * per * (size_t)(level + 1) + per + (p == 0 ? 0 : t->nh[0]);
    const double *st = strategies(w, n, 1, level);
    int32_t j00 = w->lat[t->iset_at[n]];
    for (int32_t a = 0; a < width; a++) {
        reach_by(w, c0 + a, own, reach, st, j00);
        range_average_only(w, t->child[c0 + a], p, reach, level + 1);
    }
    for (int32_t i = t->iset_at[n]; i < t->iset_at[n + 1]; i++)
        if (i != w->forced_set) average_add(w, i, own[t->iset_hand[i]], st + (w->lat[i] - j00));
}

/* Node ``n``'s leaves where its mover goes out (``fold_leaves``), valued together in ``p``'s walk (``opp``: the other's
 * reach). At such a leaf the mover's one hand ``h`` (his last tile ``t``) meets each hand of the other's alive at ``n``
 * without ``t``, each worth its ``fval``: so for the mover ``h``'s value is the sum over all the other's hands less the
 * sum over those holding ``t`` (a sum by tile, once a node), and for the other a hand's is its ``fval`` times the
 * mover's reach of the leaves less that of the leaves whose tile it holds. A value no reach enters is 0 exactly, as the
 * leaf's own walk gives it. */
static void range_fold(CfrWalk *w, int32_t n, int p, const double *opp, double *v, double *vals, const double *st) {
    RangeRun *run = (RangeRun *)w;
    int32_t f0 = run->fold_at[n], f1 = run->fold_at[n + 1];
    if (f0 == f1) return;
    int mover = w->m.player[n], q = 1 - mover;
    int32_t j00 = w->lat[w->m.iset_at[n]];      /* (``vals`` by the node's legal moves: slot ``j`` at ``j - j00``) */
    double sgn = p == 0 ? 1.0 : -1.0, by[32], all = 0.0;
    int32_t cnt[32], count = 0;
    uint32_t tiles = run->fold_tiles[n];
    for (uint32_t m = tiles; m; m &= m - 1) {
        int b = __builtin_ctz(m);
        by[b] = 0.0, cnt[b] = 0;
    }
    const CfrHand *al = w->m.alive[q] + w->m.alive_at[q][n];
    const int32_t *mask = run->t.mask[q];
    int32_t na = w->m.alive_at[q][n + 1] - w->m.alive_at[q][n];
    const double *fv = run->fval + run->fval_at[n];
    if (p == mover) {
        for (int32_t k = 0; k < na; k++) {
            double r = opp[al[k]];
            if (r == 0.0) continue;
            double x = fv[k] * r;
            all += x, count++;
            for (uint32_t m = (uint32_t)mask[al[k]] & tiles; m; m &= m - 1) {
                int b = __builtin_ctz(m);
                by[b] += x, cnt[b]++;
            }
        }
        for (int32_t f = f0; f < f1; f++) {
            int b = run->fold_tile[f];
            vals[run->fold_slot[f] - j00] = count == cnt[b] ? 0.0 : sgn * (all - by[b]);
        }
        return;
    }
    for (int32_t f = f0; f < f1; f++) {
        double r = opp[run->fold_hand[f]] * st[run->fold_slot[f] - j00];
        if (r == 0.0) continue;
        int b = run->fold_tile[f];
        all += r, count++;
        by[b] += r, cnt[b]++;
    }
    if (!count) return;
    for (int32_t k = 0; k < na; k++) {
        double r = all;
        int32_t c = count;
        for (uint32_t m = (uint32_t)mask[al[k]] & tiles; m; m &= m - 1) {
            int b = __builtin_ctz(m);
            r -= by[b], c -= cnt[b];
        }
        if (c) v[al[k]] += sgn * fv[k] * r;
    }
}

/* Whether node ``n``'s move ``a`` leads to a leaf its mover's walk may value at ``n`` (``range_fold``): a node where
 * nothing is left to play, his one hand alive and terminal there (it moved there: its last tile, ``*tile``), and the
 * other's hands alive and terminal there exactly those alive at ``n`` without that tile, each worth at the leaf what
 * ``fval`` holds for it (``at``: by hand, its place among the other's hands alive at ``n`` plus 1, 0 elsewhere;
 * ``set``: by place, whether ``fval`` holds its value yet; ``seen``, ``gen``: a stamp by place and its generation). */
static int foldable(const RangeRun *run, int32_t n, int32_t a, const int32_t *at, const int8_t *set,
                    const double *fval, int32_t *seen, int32_t *gen, int *tile) {
    const RangeTree *t = &run->t;
    const CfrWalk *w = &run->w;
    int mover = t->m.player[n], q = 1 - mover;
    int32_t c = t->m.child_at[n] + a, leaf = t->m.child[c];
    if (t->m.player[leaf] >= 0 || w->by_at[c + 1] - w->by_at[c] != 1) return 0;
    int32_t h = w->by_hand[w->by_at[c]];
    int32_t ma = t->m.alive_at[mover][leaf], mt = t->term_at[mover][leaf];
    if (t->m.alive_at[mover][leaf + 1] - ma != 1 || t->m.alive[mover][ma] != h || t->term_at[mover][leaf + 1] - mt != 1
        || t->term_hand[mover][mt] != h)
        return 0;
    uint32_t last = (uint32_t)t->mask[mover][h] & ~(uint32_t)t->played[mover][n];
    if (popcount32(last) != 1) return 0;
    int32_t without = 0;
    for (int32_t k = t->m.alive_at[q][n]; k < t->m.alive_at[q][n + 1]; k++) {
        uint32_t o = (uint32_t)t->mask[q][t->m.alive[q][k]];
        if (o & (uint32_t)t->played[mover][n]) return 0;
        without += !(o & last);
    }
    int32_t k0 = t->term_at[q][leaf], k1 = t->term_at[q][leaf + 1];
    int32_t l0 = t->m.alive_at[q][leaf], l1 = t->m.alive_at[q][leaf + 1];
    if (k1 - k0 != without || l1 - l0 != without) return 0;
    (*gen)++;
    for (int32_t k = l0; k < l1; k++) {           /* (his alive hands there: those at n without the tile, once each) */
        int32_t o = t->m.alive[q][k], place = at[o] - 1;
        if (place < 0 || ((uint32_t)t->mask[q][o] & last) || seen[place] == *gen) return 0;
        seen[place] = *gen;
    }
    (*gen)++;
    const double *table = t->table + t->table_at[leaf];
    int32_t kh = t->term_class[mover][mt], wd = t->width[leaf];
    for (int32_t k = k0; k < k1; k++) {           /* (and his terminal hands the same) */
        int32_t o = t->term_hand[q][k], ko = t->term_class[q][k], place = at[o] - 1;
        if (place < 0 || seen[place] != *gen - 1) return 0;
        seen[place] = *gen;
        double x = mover == 0 ? table[kh * wd + ko] : table[ko * wd + kh];
        if (set[place] && fval[place] != x) return 0;
    }
    *tile = __builtin_ctz(last);
    return 1;
}

/* The leaves each node's walk values at it (``range_fold``): which of its moves lead to one (``w.folded``), each one's
 * hand, slot and tile, and the other's hands' values there (``fval``). */
static int fold_leaves(RangeRun *run, const char **err) {
    const RangeTree *t = &run->t;
    CfrWalk *w = &run->w;
    int32_t N = t->m.nodes, nchild = t->m.child_at[N];
    int64_t places = 0;
    for (int32_t n = 0; n < N; n++)
        if (t->m.player[n] == 0 || t->m.player[n] == 1) {
            int q = 1 - t->m.player[n];
            places += t->m.alive_at[q][n + 1] - t->m.alive_at[q][n];
        }
    if (places >= INT32_MAX) return fail(err, K_MEMORY, "out of memory");
    w->folded = held_calloc(w, (size_t)nchild + 1, 1);
    run->fold_at = held_calloc(w, (size_t)N + 1, sizeof(int32_t));
    run->fval_at = held_calloc(w, (size_t)N + 1, sizeof(int32_t));
    run->fold_tiles = held_calloc(w, (size_t)N + 1, sizeof(uint32_t));
    run->fold_hand = held_calloc(w, (size_t)nchild + 1, sizeof(int32_t));
    run->fold_slot = held_calloc(w, (size_t)nchild + 1, sizeof(int32_t));
    run->fold_tile = held_calloc(w, (size_t)nchild + 1, 1);
    run->fval = held_calloc(w, (size_t)places + 1, sizeof(double));
    int32_t most = t->m.nh[0] > t->m.nh[1] ? t->m.nh[0] : t->m.nh[1];
    int32_t *at = calloc((size_t)most + 1, sizeof(int32_t));
    int8_t *set = calloc((size_t)most + 1, 1);
    int32_t *seen = calloc((size_t)most + 1, sizeof(int32_t)), gen = 0;
    int kind = K_OK;
    if (!w->folded || !run->fold_at || !run->fval_at || !run->fold_tiles || !run->fold_hand || !run->fold_slot
        || !run->fold_tile || !run->fval || !at || !set || !seen)
        kind = fail(err, K_MEMORY, "out of memory");
    int32_t f = 0, place = 0;
    for (int32_t n = 0; n < N && kind == K_OK; n++) {
        run->fold_at[n] = f;
        run->fval_at[n] = place;
        int mover = t->m.player[n];
        if (mover < 0 || mover > 1) continue;          /* (nothing to play, or a draw) */
        int q = 1 - mover;
        int32_t a0 = t->m.alive_at[q][n], na = t->m.alive_at[q][n + 1] - a0;
        double *fval = run->fval + place;
        for (int32_t k = 0; k < na; k++) at[t->m.alive[q][a0 + k]] = k + 1, set[k] = 0;
        for (int32_t a = 0; a < t->m.child_at[n + 1] - t->m.child_at[n]; a++) {
            int tile;
            if (!foldable(run, n, a, at, set, fval, seen, &gen, &tile)) continue;
            int32_t c = t->m.child_at[n] + a, leaf = t->m.child[c], kh = t->term_class[mover][t->term_at[mover][leaf]];
            const double *table = t->table + t->table_at[leaf];
            for (int32_t k = t->term_at[q][leaf]; k < t->term_at[q][leaf + 1]; k++) {
                int32_t pl = at[t->term_hand[q][k]] - 1, ko = t->term_class[q][k];
                fval[pl] = mover == 0 ? table[kh * t->width[leaf] + ko] : table[ko * t->width[leaf] + kh];
                set[pl] = 1;
            }
            w->folded[c] = 1;
            run->fold_hand[f] = w->by_hand[w->by_at[c]];
            run->fold_slot[f] = w->by_slot[w->by_at[c]];
            run->fold_tile[f] = (int8_t)tile;
            run->fold_tiles[n] |= 1u << tile;
            f++;
        }
        for (int32_t k = 0; k < na; k++) at[t->m.alive[q][a0 + k]] = 0;
        if (f > run->fold_at[n]) place += na;
    }
    if (kind == K_OK) {
        run->fold_at[N] = f;
        run->fval_at[N] = place;
        w->fold = range_fold;
    }
    free(at);
    free(set);
    free(seen);
    return kind;
}

/* Player ``q``'s draw at ``n`` in the tree over hands (its pairs: ``range_pairs_of``). */
static void range_draw(CfrWalk *w, int32_t n, int p, const double *own, const double *opp, double *v, int mode,
                       int32_t level) {
    walk_draw(w, n, p, own, opp, v, mode, level, range_pairs_of(w, n));
}

/* The terminal hands at ``n`` valued for ``p``'s hands against the other's reach, then the node's moves (or its
 * draw); nothing below where the other reaches nothing (every value there is 0: only ``p``'s average moves). */
static void range_node(CfrWalk *w, int32_t n, int p, const double *own, const double *opp, double *v, int mode,
                       int32_t level) {
    const CfrHand *al = w->m.alive[p];
    for (int32_t k = w->m.alive_at[p][n]; k < w->m.alive_at[p][n + 1]; k++) v[al[k]] = 0.0;
    if (!any_reach(&w->m, n, 1 - p, opp)) {
        if (mode == MODE_CFR && w->phase != PHASE_FIND) range_average_only(w, n, p, own, level);
        return;
    }
    if (w->m.player[n] > 1) {
        range_draw(w, n, p, own, opp, v, mode, level);
        return;
    }
    if (w->phase != PHASE_FIND) range_terminal((RangeRun *)w, n, p, opp, v);     /* (finding tasks: no value) */
    walk_moves(w, n, p, own, opp, v, mode, level);
}

/* The tree over hands' copy of a run for a thread (``clone``): all but its ``buf`` and its terminal sums' scratch
 * (``acc``, ``stamp``, ``wsum``, ``wstamp``, with their generation ``gen``). */
static CfrWalk *range_clone(const CfrWalk *w, CfrWalk *old) {
    const RangeRun *from = (const RangeRun *)w;
    RangeRun *run = (RangeRun *)old, keep;
    size_t cells = (size_t)from->subsets * (size_t)from->classes;
    if (old == NULL) {
        memset(&keep, 0, sizeof keep);
        run = malloc(sizeof *run);
        keep.w.buf = new_buf(w);
        keep.acc = calloc(cells, sizeof(double));
        keep.stamp = calloc((size_t)from->subsets, sizeof(int32_t));
        keep.wsum = calloc(cells, sizeof(double));
        keep.wstamp = calloc(cells, sizeof(int32_t));
        if (run == NULL || !keep.w.buf || !keep.acc || !keep.stamp || !keep.wsum || !keep.wstamp) {
            free(run);
            free(keep.w.buf), free(keep.acc), free(keep.stamp), free(keep.wsum), free(keep.wstamp);
            return NULL;
        }
    } else {
        keep = *run;
    }
    *run = *from;
    run->w.buf = keep.w.buf;
    run->acc = keep.acc, run->stamp = keep.stamp, run->gen = keep.gen;
    run->wsum = keep.wsum, run->wstamp = keep.wstamp;
    return &run->w;
}

static void range_unclone(CfrWalk *copy) {
    RangeRun *run = (RangeRun *)copy;
    free(run->w.buf), free(run->acc), free(run->stamp), free(run->wsum), free(run->wstamp);
    free(run);
}

static void range_release(CfrWalk *w) {
    RangeRun *run = (RangeRun *)w;
    free(run->acc);
    free(run->stamp);
    free(run->choose);
    free(run->wsum);
    free(run->wstamp);
    for (int q = 0; q < 2; q++) {
        free(run->srow_at[q]);
        free(run->srow[q]);
        free(run->stile[q]);
        run->srow_at[q] = run->srow[q] = NULL;
        run->stile[q] = NULL;
    }
    free(run->fold_at);
    free(run->fold_hand);
    free(run->fold_slot);
    free(run->fval_at);
    free(run->fold_tile);
    free(run->fold_tiles);
    free(run->fval);
    run->fold_at = run->fold_hand = run->fold_slot = run->fval_at = NULL;
    run->fold_tile = NULL;
    run->fold_tiles = NULL;
    run->fval = NULL;
    run->acc = run->wsum = NULL;
    run->stamp = run->wstamp = NULL;
    run->choose = NULL;
}

int range_tree(RangeTree *t, void *const *p, const int64_t *n, int32_t size, const char **err) {
    CfrMoves *m = &t->m;
    memset(t, 0, sizeof *t);
    t->mask[0] = p[RANGE_MASK0], t->mask[1] = p[RANGE_MASK1], t->weight[0] = p[RANGE_WEIGHT0];
    t->weight[1] = p[RANGE_WEIGHT1], m->player = p[RANGE_PLAYER], m->child_at = p[RANGE_CHILD_AT];
    m->child = p[RANGE_CHILD], t->played[0] = p[RANGE_PLAYED0], t->played[1] = p[RANGE_PLAYED1];
    m->alive_at[0] = p[RANGE_ALIVE_AT0], m->alive[0] = p[RANGE_ALIVE0], m->alive_at[1] = p[RANGE_ALIVE_AT1];
    m->alive[1] = p[RANGE_ALIVE1], t->term_at[0] = p[RANGE_TERM_AT0], t->term_hand[0] = p[RANGE_TERM_HAND0];
    t->term_class[0] = p[RANGE_TERM_CLASS0], t->term_at[1] = p[RANGE_TERM_AT1], t->term_hand[1] = p[RANGE_TERM_HAND1];
    t->term_class[1] = p[RANGE_TERM_CLASS1], t->table_at = p[RANGE_TABLE_AT], t->width = p[RANGE_WIDTH];
    t->table = p[RANGE_TABLE], m->iset_at = p[RANGE_ISET_AT], m->iset_hand = p[RANGE_ISET_HAND];
    m->slot = p[RANGE_SLOT], m->legal = p[RANGE_LEGAL];
    int64_t N = n[RANGE_PLAYER];
    if (n[RANGE_DRAW_AT] || n[RANGE_DRAW_CHILD] || n[RANGE_DRAW_PARENT]) {     /* (none where no tile is drawn) */
        if (n[RANGE_DRAW_AT] != N + 1 || n[RANGE_DRAW_CHILD] != n[RANGE_DRAW_PARENT])
            return fail(err, K_VALUE, "the tree's arrays do not fit together");
        t->draw_at = p[RANGE_DRAW_AT], t->draw_child = p[RANGE_DRAW_CHILD], t->draw_parent = p[RANGE_DRAW_PARENT];
        int kind = ascending(t->draw_at, N, n[RANGE_DRAW_CHILD], err);
        if (kind != K_OK) return kind;
    }
    if (N >= INT32_MAX || n[RANGE_MASK0] >= INT32_MAX || n[RANGE_MASK1] >= INT32_MAX)
        return fail(err, K_VALUE, "the tree's arrays do not fit together");
    if (n[RANGE_MASK0] > CFR_HANDS || n[RANGE_MASK1] > CFR_HANDS)
        return fail(err, K_VALUE, "more hands of a player than the tree indexes");
    m->nodes = (int32_t)N, m->nh[0] = (int32_t)n[RANGE_MASK0], m->nh[1] = (int32_t)n[RANGE_MASK1], m->size = size;
    t->ntable = n[RANGE_TABLE];
    if (n[RANGE_WEIGHT0] != n[RANGE_MASK0] || n[RANGE_WEIGHT1] != n[RANGE_MASK1] || n[RANGE_CHILD_AT] != N + 1
        || n[RANGE_PLAYED0] != N || n[RANGE_PLAYED1] != N || n[RANGE_ALIVE_AT0] != N + 1
        || n[RANGE_ALIVE_AT1] != N + 1 || n[RANGE_TERM_AT0] != N + 1 || n[RANGE_TERM_AT1] != N + 1
        || n[RANGE_TERM_HAND0] != n[RANGE_TERM_CLASS0] || n[RANGE_TERM_HAND1] != n[RANGE_TERM_CLASS1]
        || n[RANGE_TABLE_AT] != N || n[RANGE_WIDTH] != N || n[RANGE_ISET_AT] != N + 1
        || n[RANGE_ISET_HAND] != n[RANGE_SLOT] || n[RANGE_LEGAL] < ((int64_t)size + 7) / 8 || N < 1 || size < 0)
        return fail(err, K_VALUE, "the tree's arrays do not fit together");
    int kind = moves_fit(m, n[RANGE_CHILD], n[RANGE_ISET_HAND], n[RANGE_ALIVE0], n[RANGE_ALIVE1], err);
    if (kind == K_OK) kind = ascending(t->term_at[0], N, n[RANGE_TERM_HAND0], err);
    if (kind == K_OK) kind = ascending(t->term_at[1], N, n[RANGE_TERM_HAND1], err);
    if (kind != K_OK) return kind;
    for (int64_t k = 0; k < N; k++) {      /* (each value table inside ``table``, sized by its classes) */
        int32_t c0 = 0, c1 = 0;
        for (int32_t a = t->term_at[0][k]; a < t->term_at[0][k + 1]; a++)
            if (t->term_class[0][a] + 1 > c0) c0 = t->term_class[0][a] + 1;
        for (int32_t a = t->term_at[1][k]; a < t->term_at[1][k + 1]; a++)
            if (t->term_class[1][a] + 1 > c1) c1 = t->term_class[1][a] + 1;
        if (c0 && c1 && (t->table_at[k] < 0 || t->width[k] < c1
                         || (int64_t)t->table_at[k] + (int64_t)c0 * t->width[k] > n[RANGE_TABLE]))
            return fail(err, K_VALUE, "a value table runs past its array");
    }
    return K_OK;
}

int range_init(RangeRun *run, const RangeTree *t, int32_t forced_set, int32_t forced_move, const char **err) {
    memset(run, 0, sizeof *run);
    run->t = *t;
    run->w.release = range_release;
    const CfrMoves *m = &t->m;
    if (m->nodes < 1) return fail(err, K_VALUE, "an empty tree");
    uint32_t every = 0;
    for (int q = 0; q < 2; q++)
        for (int32_t h = 0; h < m->nh[q]; h++) {
            if (t->mask[q][h] < 0) return fail(err, K_VALUE, "a hand's mask is negative");
            every |= (uint32_t)t->mask[q][h];
            int c = popcount32((uint32_t)t->mask[q][h]);
            if (c > run->most) run->most = c;
        }
    while (run->bits < 31 && (every >> run->bits)) run->bits++;
    if (run->most > RANGE_MOST) return fail(err, K_VALUE, "a hand of more than 8 tiles");
    for (int32_t n = 0; n < m->nodes; n++) {
        int kind = check_node(m, n, t->draw_at != NULL, err);
        if (kind != K_OK) return kind;
        if (t->draw_at != NULL) {         /* a draw's pairs: hands of the drawer at its child and at it */
            int32_t q = m->player[n] - 2, c = m->child[m->child_at[n]];
            if (q < 0 && t->draw_at[n] != t->draw_at[n + 1]) return fail(err, K_VALUE, "a draw where none is");
            for (int32_t k = t->draw_at[n]; k < t->draw_at[n + 1]; k++)
                if (t->draw_child[k] >= m->nh[q] || t->draw_parent[k] >= m->nh[q])
                    return fail(err, K_VALUE, "a drawn hand out of range");
            if (q >= 0 && (m->alive_at[1 - q][c + 1] - m->alive_at[1 - q][c]
                           != m->alive_at[1 - q][n + 1] - m->alive_at[1 - q][n]))
                return fail(err, K_VALUE, "a draw changes the other's hands");
        }
        int32_t cls[2] = {0, 0};
        for (int q = 0; q < 2; q++) {
            if (t->term_at[q][n] > t->term_at[q][n + 1]) return fail(err, K_VALUE, "a node's lists run backwards");
            for (int32_t k = t->term_at[q][n]; k < t->term_at[q][n + 1]; k++) {
                if (t->term_hand[q][k] >= m->nh[q])
                    return fail(err, K_VALUE, "a terminal hand out of range");
                if (t->term_class[q][k] + 1 > cls[q]) cls[q] = t->term_class[q][k] + 1;
            }
            if (cls[q] > run->classes) run->classes = cls[q];
        }
        if (cls[0] && cls[1] && (t->width[n] < cls[1] || t->table_at[n] < 0))
            return fail(err, K_VALUE, "a value table out of range");
    }
    run->choose = held_calloc(&run->w, (size_t)(run->bits + 1) * (size_t)(run->most + 1), sizeof(int64_t));
    if (!run->choose) return fail(err, K_MEMORY, "out of memory");
    for (int b = 0; b <= run->bits; b++)
        for (int k = 0; k <= run->most; k++) {
            int64_t c = k == 0 ? 1 : b == 0 ? 0 : run->choose[(b - 1) * (run->most + 1) + k - 1]
                                                    + run->choose[(b - 1) * (run->most + 1) + k];
            run->choose[b * (run->most + 1) + k] = c;
        }
    for (int k = 0; k <= run->most; k++) run->subsets += run->choose[run->bits * (run->most + 1) + k];
    if (run->classes < 1) run->classes = 1;
    if ((double)run->subsets * run->classes > 2e8) {
        cfr_free(&run->w);
        return fail(err, K_MEMORY, "out of memory");
    }
    run->acc = held_calloc(&run->w, (size_t)run->subsets * (size_t)run->classes, sizeof(double));
    run->stamp = held_calloc(&run->w, (size_t)run->subsets, sizeof(int32_t));
    run->wsum = held_calloc(&run->w, (size_t)run->subsets * (size_t)run->classes, sizeof(double));
    run->wstamp = held_calloc(&run->w, (size_t)run->subsets * (size_t)run->classes, sizeof(int32_t));
    if (!run->acc || !run->stamp || !run->wsum || !run->wstamp) {
        cfr_free(&run->w);
        return fail(err, K_MEMORY, "out of memory");
    }
    int kind = subset_rows(run, err);
    if (kind != K_OK) {
        cfr_free(&run->w);
        return kind;
    }
    run->w.weight[0] = t->weight[0];
    run->w.weight[1] = t->weight[1];
    kind = walk_init(&run->w, m, range_node, forced_set, forced_move, err);
    if (kind != K_OK) return kind;
    run->w.clone = range_clone;
    run->w.unclone = range_unclone;
    run->w.threads = 1;
    double top = 0.0;
    for (int64_t k = 0; k < t->ntable; k++) {
        double x = __builtin_fabs(t->table[k]);
        if (x > top) top = x;
    }
    run->w.tie = CFR_TIE * top;
    kind = fold_leaves(run, err);
    if (kind != K_OK) cfr_free(&run->w);
    return kind;
}
