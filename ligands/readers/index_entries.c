/* index_entries.c — what a library index (library_index.c) says about its file and where a record
 * starts in it: the file's identity (size, mtime, a hash of its first bytes; a stale index is
 * refused) and the entry before a record. Apart from the index's building so that the reader
 * (ligand_reader.c, vsg_ligand_reader_select) uses it without depending on the builder, which uses
 * the reader. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grids/base/vsgrid.h"
#include "ligands/readers/ligand_reader.h"

/* ---- the file an index describes ---------------------------------------------------------- */

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The identity of path as it is now: a regular file's size, mtime and first bytes; exists 0
 * for anything else (missing, a folder). */
void vsg_lix_identify(const char *path, vsg_lix_identity *id)
{
    struct stat sb;
    memset(id, 0, sizeof *id);
    id->head = 0xcbf29ce484222325ull;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return;
    id->exists = 1;
    id->size = (uint64_t)sb.st_size;
    id->mtime_s = (int64_t)sb.st_mtim.tv_sec;
    id->mtime_ns = (long)sb.st_mtim.tv_nsec;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    unsigned char *buf = malloc(VSG_LIX_HEAD);
    size_t got = 0;
    if (buf) {
        while (got < VSG_LIX_HEAD) {
            ssize_t k = read(fd, buf + got, VSG_LIX_HEAD - got);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) break;
            got += (size_t)k;
        }
        id->head = fnv1a(id->head, buf, got);
        id->gzip = got >= 2 && buf[0] == 0x1f && buf[1] == 0x8b;
        free(buf);
    }
    close(fd);
}

int vsg_lix_matches(const vsg_library_index *ix, const char *path, char *why, size_t len)
{
    vsg_lix_identity id;
    vsg_lix_identify(path, &id);
    if (!ix->exists && !id.exists) return 0; /* indexed as unreadable, and still no file */
    if (ix->exists != id.exists)
        snprintf(why, len, "%s", id.exists ? "the index was made when it was no readable file" : "it is no regular file now");
    else if (ix->size != id.size)
        snprintf(why, len, "it had %" PRIu64 " bytes when indexed and has %" PRIu64 " now", ix->size, id.size);
    else if (ix->mtime_s != id.mtime_s || ix->mtime_ns != id.mtime_ns)
        snprintf(why, len, "it was modified after it was indexed");
    else if (ix->head != id.head)
        snprintf(why, len, "its first bytes differ from the indexed file's");
    else
        return 0;
    return -1;
}

const vsg_lix_entry *vsg_lix_entry_before(const vsg_library_index *ix, long k)
{
    size_t lo = 0, hi;
    if (!ix || ix->n == 0 || ix->e[0].record > k) return NULL;
    hi = ix->n; /* e[lo].record <= k < e[hi].record */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->e[mid].record <= k) lo = mid;
        else hi = mid;
    }
    return &ix->e[lo];
}

