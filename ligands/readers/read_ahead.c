/* read_ahead.c — see read_ahead.h. A ring of blocks between one producer (the thread that
 * calls vsg_inflate_read) and one consumer; each block keeps what its read returned (a count,
 * 0 for the end, -1 for an error) and the input offset after it. Without a thread (none could
 * start, or VSG_READ_AHEAD=0) the consumer fills the next block itself when it needs one: the
 * same blocks, so the same bytes, one after the other. The producer stops after an
 * end or an error, so the inflater is touched by one thread at a time: the producer until its
 * last block, then the consumer (vsg_inflate_error, close), ordered by the ring's mutex. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/readers/read_ahead.h"

#define RA_BLOCKS 4
#define RA_BLOCK VSG_READ_AHEAD_BLOCK

typedef struct {
    unsigned char *data;
    long got;         /* what vsg_inflate_read returned */
    uint64_t offset;  /* vsg_inflate_offset after it */
} block;

struct vsg_read_ahead {
    vsg_inflate *z;
    pthread_t thread;
    int threaded;           /* 0: the consumer fills blocks itself */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    block b[RA_BLOCKS];
    unsigned filled, taken; /* blocks produced and consumed so far (the ring index is % RA_BLOCKS) */
    int stop;               /* the consumer closes: the producer leaves */
    /* the consumer's side */
    size_t pos;             /* bytes of block `taken` already handed out */
    long last;              /* 1 while reading; 0 or -1 once the end or the error was reached */
    uint64_t offset;
};

/* Block b's read: what vsg_inflate_read returns for a whole block, and the offset after it. */
static long fill_block(vsg_read_ahead *r, block *b)
{
    b->got = vsg_inflate_read(r->z, b->data, RA_BLOCK);
    b->offset = vsg_inflate_offset(r->z);
    return b->got;
}

static void *produce(void *arg)
{
    vsg_read_ahead *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->mu);
        while (!r->stop && r->filled - r->taken == RA_BLOCKS) pthread_cond_wait(&r->cv, &r->mu);
        const int stop = r->stop;
        block *b = &r->b[r->filled % RA_BLOCKS];
        pthread_mutex_unlock(&r->mu);
        if (stop) return NULL;
        /* the block is free: the consumer moves on past a block only once it is empty */
        const long got = fill_block(r, b);
        pthread_mutex_lock(&r->mu);
        r->filled++;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
        if (got <= 0) return NULL; /* the end or an error: the inflater is the consumer's now */
    }
}

vsg_read_ahead *vsg_read_ahead_open(vsg_inflate *z)
{
    if (!z) return NULL;
    vsg_read_ahead *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->z = z;
    r->last = 1;
    unsigned char *mem = malloc((size_t)RA_BLOCKS * RA_BLOCK);
    if (!mem) {
        free(r);
        return NULL;
    }
    for (int i = 0; i < RA_BLOCKS; i++) r->b[i].data = mem + (size_t)i * RA_BLOCK;
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    r->offset = vsg_inflate_offset(z);
    const char *e = getenv("VSG_READ_AHEAD");
    r->threaded = !(e && atoi(e) == 0) && pthread_create(&r->thread, NULL, produce, r) == 0;
    return r;
}

long vsg_read_ahead_read(vsg_read_ahead *r, void *buf, size_t n)
{
    if (r->last <= 0) return r->last; /* the end or the error, again */
    size_t out = 0;
    while (out < n) {
        pthread_mutex_lock(&r->mu);
        /* hand out only what has already arrived, once some bytes are out: the consumer
         * never waits with bytes it could use */
        while (r->threaded && r->filled == r->taken && out == 0) pthread_cond_wait(&r->cv, &r->mu);
        int have = r->filled != r->taken;
        pthread_mutex_unlock(&r->mu);
        if (!have && !r->threaded && out == 0) { /* no thread: the next block, here */
            fill_block(r, &r->b[r->filled % RA_BLOCKS]);
            r->filled++;
            have = 1;
        }
        if (!have) break;
        block *b = &r->b[r->taken % RA_BLOCKS];
        if (b->got <= 0) { /* the end, or the error after the bytes before it */
            if (out > 0) break;
            r->last = b->got < 0 ? -1 : 0;
            r->offset = b->offset;
            return r->last;
        }
        size_t k = (size_t)b->got - r->pos;
        if (k > n - out) k = n - out;
        memcpy((unsigned char *)buf + out, b->data + r->pos, k);
        out += k;
        r->pos += k;
        if (r->pos == (size_t)b->got) { /* the block is spent: back to the producer */
            r->offset = b->offset;
            r->pos = 0;
            pthread_mutex_lock(&r->mu);
            r->taken++;
            pthread_cond_broadcast(&r->cv);
            pthread_mutex_unlock(&r->mu);
        }
    }
    return (long)out;
}

vsg_status vsg_read_ahead_error(const vsg_read_ahead *r, const char **msg)
{
    if (r->last < 0) return vsg_inflate_error(r->z, msg); /* the producer has stopped */
    if (msg) *msg = "";
    return VSG_OK;
}

uint64_t vsg_read_ahead_offset(const vsg_read_ahead *r) { return r->offset; }

void vsg_read_ahead_close(vsg_read_ahead *r)
{
    if (!r) return;
    pthread_mutex_lock(&r->mu);
    r->stop = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    if (r->threaded) pthread_join(r->thread, NULL);
    vsg_inflate_close(r->z);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r->b[0].data);
    free(r);
}
