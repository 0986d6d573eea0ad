/* records.c - the records file, read and written one way (see records.h).
 *
 * The reader works on a raw descriptor with its own 64 KiB buffer rather
 * than getline(), because getline() grows a line without bound (resume
 * read 1.7 GB of /dev/full in 3 s) and cannot say where a line starts in
 * the file, which resume needs to cut a torn line or set a bad one aside.
 * A line is held up to TX_RECORDS_LINE_MAX bytes; the rest of a longer
 * one is read and dropped.
 *
 * The appender is the only writer of records: each record is one write()
 * on an O_APPEND descriptor, under a mutex (the runner writes from libuv's
 * thread pool), so a failed write can be undone by cutting the file back
 * to its size before it, and the check that the path still names the file
 * sees the file as this record left it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "output.h"
#include "records.h"
#include "splitmix.h"

#define CHUNK (64 * 1024)
#define SHOWN_START 40   /* bytes of a non-record file's start quoted */
#define RECOVERED_MAX 20 /* PATH.recovered, .recovered.2 ... tried */

/* ---- reading ---- */

static int init_reader(struct tx_records_reader *r, int fd, bool own, const char *name)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->own_fd = own;
    r->name = name;
    r->chunk = malloc(CHUNK);
    return r->chunk ? 0 : -ENOMEM;
}

int tx_records_open(struct tx_records_reader *r, const char *path, char *err, size_t errcap)
{
    bool is_stdin = !strcmp(path, "-");
    const char *name = is_stdin ? "(stdin)" : path;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int e = 0;

    memset(r, 0, sizeof *r);
    r->fd = -1;
    if (fd < 0)
        e = errno;
    else if (fstat(fd, &st) < 0)
        e = errno;
    else if (S_ISDIR(st.st_mode))
        e = EISDIR;
    if (e) {
        if (e == EISDIR)
            snprintf(err, errcap, "%s: is a directory (give a JSON Lines file of game records)",
                     name);
        else
            snprintf(err, errcap, "%s: cannot read: %s", name, strerror(e));
        if (fd >= 0 && !is_stdin)
            close(fd);
        return -e;
    }
    if (init_reader(r, fd, !is_stdin, name) < 0) {
        snprintf(err, errcap, "%s: out of memory", name);
        tx_records_close(r);
        return -ENOMEM;
    }
    return 0;
}

int tx_records_open_fd(struct tx_records_reader *r, int fd, const char *name)
{
    int rc = init_reader(r, fd, false, name);
    if (rc < 0)
        tx_records_close(r);
    return rc;
}

void tx_records_close(struct tx_records_reader *r)
{
    if (r->own_fd && r->fd >= 0)
        close(r->fd);
    free(r->chunk);
    free(r->text);
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

/* Refills the buffer: bytes read, 0 at the end, or a negative errno. */
static int fill(struct tx_records_reader *r)
{
    ssize_t n;
    do
        n = read(r->fd, r->chunk, CHUNK);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return -errno;
    r->chunk_len = (size_t)n;
    r->chunk_pos = 0;
    r->eof = n == 0;
    return (int)n;
}

static int append_text(struct tx_records_reader *r, const char *p, size_t n)
{
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 1)
            cap *= 2;
        if (cap > TX_RECORDS_LINE_MAX + 1)
            cap = TX_RECORDS_LINE_MAX + 1;
        char *text = realloc(r->text, cap);
        if (!text)
            return -ENOMEM;
        r->text = text;
        r->cap = cap;
    }
    memcpy(r->text + r->len, p, n);
    r->len += n;
    return 0;
}

/* Consumes n bytes of the buffer. */
static void consume(struct tx_records_reader *r, size_t n)
{
    r->chunk_pos += n;
    r->offset += (int64_t)n;
}

/* Reads the next line into text, at most TX_RECORDS_LINE_MAX bytes; *over
 * is set when there is more (left unread: see skip_rest). Returns 1, 0 at
 * the end of the file, or a negative errno. */
static int read_line(struct tx_records_reader *r, bool *over)
{
    int rc;

    *over = false;
    r->len = 0;
    r->start = r->offset;
    r->terminated = false;
    for (;;) {
        if (r->chunk_pos == r->chunk_len) {
            if (r->eof || (rc = fill(r)) == 0)
                break;
            if (rc < 0)
                return rc;
        }
        const char *p = r->chunk + r->chunk_pos;
        size_t avail = r->chunk_len - r->chunk_pos;
        const char *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        if (r->len + take > TX_RECORDS_LINE_MAX) {
            size_t fits = TX_RECORDS_LINE_MAX - r->len;
            if ((rc = append_text(r, p, fits)) < 0)
                return rc;
            consume(r, fits);
            *over = true;
            break;
        }
        if ((rc = append_text(r, p, take)) < 0)
            return rc;
        consume(r, take);
        if (nl) {
            consume(r, 1);
            r->terminated = true;
            break;
        }
    }
    if (r->len == 0 && !r->terminated && !*over)
        return 0;
    if (!r->text && (rc = append_text(r, "", 0)) < 0)
        return rc;
    r->text[r->len] = '\0';
    r->line++;
    r->end = r->offset;
    return 1;
}

/* Reads and drops the rest of a line longer than the cap. */
static int skip_rest(struct tx_records_reader *r)
{
    int rc;
    for (;;) {
        if (r->chunk_pos == r->chunk_len) {
            if (r->eof || (rc = fill(r)) == 0)
                break;
            if (rc < 0)
                return rc;
        }
        const char *p = r->chunk + r->chunk_pos;
        const char *nl = memchr(p, '\n', r->chunk_len - r->chunk_pos);
        if (nl) {
            consume(r, (size_t)(nl - p) + 1);
            r->terminated = true;
            break;
        }
        consume(r, r->chunk_len - r->chunk_pos);
    }
    r->end = r->offset;
    return 0;
}

static bool blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* A record this program was writing and did not finish: it starts like
 * one (a beginning of TX_RECORDS_START, or more than it) and is not a
 * whole JSON text (a whole object missing a field is not torn: it is a
 * bad record). */
static bool looks_torn(const char *s, size_t len)
{
    size_t n = strlen(TX_RECORDS_START);
    if (len == 0 || memcmp(s, TX_RECORDS_START, len < n ? len : n))
        return false;
    cJSON *json = cJSON_ParseWithLength(s, len);
    cJSON_Delete(json);
    return json == NULL;
}

/* The first bytes of s for a message: printable ASCII, others as '?'. */
static void quote_start(const char *s, size_t len, char *buf, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len && i < SHOWN_START && n + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        buf[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    buf[n] = '\0';
    if (len > SHOWN_START && n + 4 < cap)
        strcat(buf, "...");
}

int tx_records_next(struct tx_records_reader *r, struct tx_record *rec, char *err, size_t errcap)
{
    char why[512];
    bool over;
    int rc;

    memset(rec, 0, sizeof *rec);
    if (r->stopped)
        return TX_RECORDS_END;
    for (;;) {
        rc = read_line(r, &over);
        if (rc < 0) {
            r->stopped = true;
            snprintf(err, errcap, "%s: cannot read: %s", r->name, strerror(-rc));
            return rc;
        }
        if (rc == 0)
            return TX_RECORDS_END;
        if (!over && r->len > 0 && r->text[r->len - 1] == '\r')
            r->text[--r->len] = '\0';
        if (over || !blank(r->text, r->len))
            break;
    }

    bool first = !r->content;
    r->content = true;
    size_t lead = 0;
    while (lead < r->len && (r->text[lead] == ' ' || r->text[lead] == '\t'))
        lead++;
    if (first && (lead == r->len || r->text[lead] != '{')) {
        /* Not JSON Lines at all: one message, not one per line. */
        char start[SHOWN_START * 2];
        quote_start(r->text + lead, r->len - lead, start, sizeof start);
        r->stopped = true;
        snprintf(err, errcap,
                 "%s:%lld: not a game record: the file starts with \"%s\", not a JSON object "
                 "(a records file has one game record per line)",
                 r->name, (long long)r->line, start);
        return TX_RECORDS_NOT_RECORDS;
    }
    if (over) {
        if ((rc = skip_rest(r)) < 0) {
            r->stopped = true;
            snprintf(err, errcap, "%s: cannot read: %s", r->name, strerror(-rc));
            return rc;
        }
        snprintf(err, errcap,
                 "%s:%lld: not a game record: the line is longer than %d MiB, the most a record "
                 "can take",
                 r->name, (long long)r->line, TX_RECORDS_LINE_MAX >> 20);
        return TX_RECORDS_INVALID;
    }
    if (tx_record_from_json(r->text, r->len, rec, why, sizeof why) == 0)
        return TX_RECORDS_RECORD;
    tx_record_free(rec);
    if (!r->terminated && looks_torn(r->text, r->len)) {
        snprintf(err, errcap,
                 "%s:%lld: the last line is a record cut short (its write never finished: the "
                 "run writing it was killed, or its disk was full)",
                 r->name, (long long)r->line);
        return TX_RECORDS_TORN;
    }
    snprintf(err, errcap, "%s:%lld: not a game record: %s", r->name, (long long)r->line, why);
    return TX_RECORDS_INVALID;
}

/* ---- games seen twice ---- */

struct tx_records_seen_entry {
    uint32_t run; /* index in runs + 1; 0 marks an empty slot */
    uint16_t nmoves;
    int8_t winner;
    uint8_t reason;
    int64_t game;
    uint64_t players; /* digest: names, commands, sha256 */
    uint64_t setup;   /* digest: seed, size, limits */
    uint64_t moves;   /* digest: each move's player, text and forced flag */
    uint32_t file;    /* index in files */
    int64_t line;
};

/* FNV-1a over a string (NULL differs from ""), then a separator. */
static void hash_str(uint64_t *h, const char *s)
{
    if (!s) {
        *h = (*h ^ 0xff) * UINT64_C(0x100000001b3);
        return;
    }
    for (; *s; s++)
        *h = (*h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    *h = (*h ^ 0xfe) * UINT64_C(0x100000001b3);
}

static void hash_int(uint64_t *h, int64_t v)
{
    *h = tx_splitmix_mix(*h ^ (uint64_t)v);
}

#define HASH_START UINT64_C(0xcbf29ce484222325)

static void digest(const struct tx_record *r, struct tx_records_seen_entry *e)
{
    uint64_t h = HASH_START;
    for (int p = 0; p < 2; p++) {
        hash_str(&h, r->players[p].name);
        hash_str(&h, r->players[p].command);
        hash_str(&h, r->players[p].sha256);
    }
    e->players = h;
    h = HASH_START;
    hash_int(&h, (int64_t)r->seed);
    hash_int(&h, r->width);
    if (r->width != r->height || r->rules != TX_RULES_PP) {
        hash_int(&h, r->height);
        hash_int(&h, r->rules);
    }
    hash_int(&h, r->limits.first_turn_ms);
    hash_int(&h, r->limits.turn_ms);
    hash_int(&h, r->limits.margin_ms);
    hash_int(&h, r->limits.soft);
    e->setup = h;
    h = HASH_START;
    for (int i = 0; i < r->nmoves; i++) {
        hash_int(&h, r->moves[i].player * 2 + r->moves[i].forced);
        hash_str(&h, r->moves[i].move);
    }
    e->moves = h;
    e->nmoves = (uint16_t)(r->nmoves > UINT16_MAX ? UINT16_MAX : r->nmoves);
    e->winner = (int8_t)r->result.winner;
    e->reason = (uint8_t)r->result.reason;
}

void tx_records_seen_init(struct tx_records_seen *s)
{
    memset(s, 0, sizeof *s);
}

void tx_records_seen_free(struct tx_records_seen *s)
{
    for (int i = 0; i < s->nruns; i++)
        free(s->runs[i]);
    for (int i = 0; i < s->nfiles; i++)
        free(s->files[i]);
    free(s->runs);
    free(s->files);
    free(s->slots);
    memset(s, 0, sizeof *s);
}

static struct tx_records_seen_entry *slot_of(struct tx_records_seen *s, uint32_t run, int64_t game)
{
    size_t k = tx_splitmix_mix((uint64_t)run * TX_SPLITMIX_GAMMA ^ (uint64_t)game) & (s->cap - 1);
    while (s->slots[k].run && (s->slots[k].run != run || s->slots[k].game != game))
        k = (k + 1) & (s->cap - 1);
    return &s->slots[k];
}

static void grow(struct tx_records_seen *s)
{
    struct tx_records_seen_entry *old = s->slots;
    size_t oldcap = s->cap;
    s->cap = oldcap ? 2 * oldcap : 1024;
    s->slots = tx_xcalloc(s->cap, sizeof *s->slots);
    for (size_t k = 0; k < oldcap; k++)
        if (old[k].run)
            *slot_of(s, old[k].run, old[k].game) = old[k];
    free(old);
}

/* The index of name in a list of strings, added when new. */
static uint32_t intern(char ***list, int *n, const char *name)
{
    for (int i = *n - 1; i >= 0; i--)
        if (!strcmp((*list)[i], name))
            return (uint32_t)i;
    char **grown = tx_xrealloc(*list, (size_t)(*n + 1) * sizeof *grown);
    *list = grown;
    grown[*n] = tx_strdup(name);
    return (uint32_t)(*n)++;
}

/* "a (player 1) wins by connection", "a draw". */
static void describe_result(const struct tx_record *r, int winner, int reason, char *buf,
                            size_t cap)
{
    const char *why = tx_reason_name((enum tx_reason)reason);
    if (winner == 0 || winner == 1)
        snprintf(buf, cap, "%s (player %d) wins by %s", r->players[winner].name, winner + 1,
                 why ? why : "?");
    else
        snprintf(buf, cap, "%s", why ? why : "?");
}

enum tx_records_sighting tx_records_seen_add(struct tx_records_seen *s, const struct tx_record *r,
                                             const char *file, int64_t line,
                                             struct tx_records_earlier *earlier)
{
    /* A game is its pairing and k (pool.h); in older records, its run and
     * index. The two kinds of keys ("p1:...", "v1:...") never meet. */
    const char *id = r->pairing.key ? r->pairing.key : r->run;
    if (!id || r->result.reason == TX_REASON_INTERRUPTED)
        return TX_RECORDS_NEW;
    if (2 * (s->n + 1) > s->cap)
        grow(s);
    struct tx_records_seen_entry now = {.run = intern(&s->runs, &s->nruns, id) + 1,
                                        .game = r->pairing.key ? r->pairing.k : r->game};
    digest(r, &now);
    now.file = intern(&s->files, &s->nfiles, file ? file : "");
    now.line = line;
    struct tx_records_seen_entry *e = slot_of(s, now.run, now.game);
    if (!e->run) {
        *e = now;
        s->n++;
        return TX_RECORDS_NEW;
    }
    earlier->file = s->files[e->file];
    earlier->line = e->line;
    earlier->differs[0] = '\0';
    if (e->players == now.players && e->setup == now.setup && e->moves == now.moves &&
        e->nmoves == now.nmoves && e->winner == now.winner && e->reason == now.reason)
        return TX_RECORDS_SAME;
    char a[100], b[100];
    if (e->players != now.players)
        snprintf(earlier->differs, sizeof earlier->differs,
                 "the players or their programs (names, commands or sha256)");
    else if (e->setup != now.setup)
        snprintf(earlier->differs, sizeof earlier->differs, "the seed, board size or limits");
    else if (e->winner != now.winner || e->reason != now.reason) {
        describe_result(r, e->winner, e->reason, a, sizeof a);
        describe_result(r, now.winner, now.reason, b, sizeof b);
        snprintf(earlier->differs, sizeof earlier->differs, "the result: %s there, %s here", a, b);
    } else if (e->nmoves != now.nmoves)
        snprintf(earlier->differs, sizeof earlier->differs, "the moves: %d there, %d here",
                 e->nmoves, now.nmoves);
    else
        snprintf(earlier->differs, sizeof earlier->differs, "the moves played");
    return TX_RECORDS_CONFLICT;
}

/* ---- writing ---- */

static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISFIFO(mode) ? "a FIFO (named pipe)"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a regular file";
}

static void refuse_kind(const char *path, mode_t mode, char *err, size_t errcap)
{
    snprintf(err, errcap,
             "%s is %s: -o takes a regular file (records are appended to it and read back to "
             "resume the run)",
             path, kind_of(mode));
}

/* The process holding an flock on the file (from /proc/locks), as
 * " (process N: COMMAND)", or "" when it cannot be told. */
static void lock_holder(const struct stat *st, char *buf, size_t cap)
{
    FILE *f = fopen("/proc/locks", "re");
    char line[256];
    long pid = 0;

    buf[0] = '\0';
    if (!f)
        return;
    while (!pid && fgets(line, sizeof line, f)) {
        char type[16];
        long p;
        unsigned maj, min;
        unsigned long long ino;
        if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", type, &p, &maj, &min, &ino) == 5 &&
            !strcmp(type, "FLOCK") && maj == major(st->st_dev) && min == minor(st->st_dev) &&
            ino == (unsigned long long)st->st_ino)
            pid = p;
    }
    fclose(f);
    if (!pid)
        return;
    char path[64], cmd[160] = "";
    snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, cmd, sizeof cmd - 1);
        close(fd);
        if (n > 0) {
            cmd[n] = '\0';
            for (ssize_t i = 0; i < n - 1; i++)
                if (cmd[i] == '\0')
                    cmd[i] = ' ';
            for (char *c = cmd; *c; c++)
                if ((unsigned char)*c < 0x20)
                    *c = '?';
        }
    }
    if (*cmd)
        snprintf(buf, cap, " (process %ld: %s%s)", pid, cmd,
                 strlen(cmd) == sizeof cmd - 1 ? "..." : "");
    else
        snprintf(buf, cap, " (process %ld)", pid);
}

/* Takes the run's lock on fd. */
static int lock(const char *path, int fd, const struct stat *st, char *err, size_t errcap)
{
    int rc;
    do
        rc = flock(fd, LOCK_EX | LOCK_NB);
    while (rc < 0 && errno == EINTR);
    if (rc == 0)
        return 0;
    int e = errno;
    if (e == EWOULDBLOCK) {
        char holder[256];
        lock_holder(st, holder, sizeof holder);
        snprintf(err, errcap,
                 "%s is being written by another run%s; wait for it to end, or write to another "
                 "-o FILE",
                 path, holder);
        return -EBUSY;
    }
    snprintf(err, errcap, "%s: cannot lock: %s", path, strerror(e));
    return -e;
}

/* o->chain from the file's last line (chain.h): the hash a new record
 * chains from. The last line is found by reading back from the end, at
 * most TX_RECORDS_LINE_MAX bytes. */
static void chain_from_end(struct tx_records_out *o)
{
    struct stat st;
    memcpy(o->chain, tx_chain_start, sizeof o->chain);
    if (fstat(o->fd, &st) < 0 || st.st_size == 0)
        return;
    int64_t end = st.st_size, start = end;
    char last;
    if (pread(o->fd, &last, 1, end - 1) == 1 && last == '\n')
        end--; /* the last line's own newline */
    start = end;
    char buf[CHUNK];
    bool found = false;
    while (!found && start > 0) {
        if (end - start >= TX_RECORDS_LINE_MAX)
            return; /* not a record line */
        int64_t from = start - (int64_t)sizeof buf > 0 ? start - (int64_t)sizeof buf : 0;
        ssize_t n = pread(o->fd, buf, (size_t)(start - from), from);
        if (n != start - from)
            return;
        int64_t i = n;
        while (i > 0 && buf[i - 1] != '\n')
            i--;
        found = i > 0;
        start = from + i;
    }
    if (end <= start)
        return;
    char *line = tx_xmalloc((size_t)(end - start));
    if (pread(o->fd, line, (size_t)(end - start), start) == end - start)
        tx_chain_continue(line, (size_t)(end - start), o->chain);
    free(line);
}

int tx_records_out_open(struct tx_records_out *o, const char *path, char *err, size_t errcap)
{
    struct stat st, again;
    int e;

    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->path = path;
    /* Refused before opening: opening a FIFO or a device can block or act. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        refuse_kind(path, st.st_mode, err, errcap);
        return -EINVAL;
    }
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0) {
        e = errno;
        if (e == EISDIR)
            refuse_kind(path, S_IFDIR, err, errcap);
        else
            snprintf(err, errcap, "%s: cannot open: %s", path, strerror(e));
        return -e;
    }
    if (fstat(fd, &st) < 0) {
        e = errno;
        snprintf(err, errcap, "%s: %s", path, strerror(e));
        close(fd);
        return -e;
    }
    if (!S_ISREG(st.st_mode)) {
        refuse_kind(path, st.st_mode, err, errcap);
        close(fd);
        return -EINVAL;
    }
    int rc = lock(path, fd, &st, err, errcap);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    /* The path may have been replaced between open and flock. */
    if (stat(path, &again) < 0 || again.st_dev != st.st_dev || again.st_ino != st.st_ino) {
        snprintf(err, errcap, "%s changed while it was being opened; try again", path);
        close(fd);
        return -EAGAIN;
    }
    if ((rc = uv_mutex_init(&o->mutex)) < 0) {
        snprintf(err, errcap, "%s: %s", path, uv_strerror(rc));
        close(fd);
        return rc;
    }
    o->fd = fd;
    o->dev = st.st_dev;
    o->ino = st.st_ino;
    chain_from_end(o);
    return 0;
}

/* What happened to the path (see enum tx_records_gone). */
static enum tx_records_gone check_path(const struct tx_records_out *o)
{
    struct stat f, p;
    bool exists = stat(o->path, &p) == 0;
    if (exists && p.st_dev == o->dev && p.st_ino == o->ino)
        return TX_RECORDS_THERE;
    if (fstat(o->fd, &f) < 0)
        return TX_RECORDS_THERE; /* cannot tell */
    if (f.st_nlink > 0)
        return TX_RECORDS_MOVED;
    return exists ? TX_RECORDS_REPLACED : TX_RECORDS_REMOVED;
}

static const char *gone_words(enum tx_records_gone gone)
{
    switch (gone) {
    case TX_RECORDS_REMOVED:
        return "was removed";
    case TX_RECORDS_MOVED:
        return "was moved or renamed";
    case TX_RECORDS_REPLACED:
        return "was replaced by another file";
    default:
        return "is there";
    }
}

int tx_records_out_append(struct tx_records_out *o, const struct tx_record *r, char *err,
                          size_t errcap)
{
    char *json;
    int rc = tx_record_to_json(r, &json);
    if (rc < 0) {
        snprintf(err, errcap, "cannot write game %lld's record to %s: out of memory",
                 (long long)r->game, o->path);
        return rc;
    }
    size_t len = strlen(json);
    if (len + 1 + 128 > TX_RECORDS_LINE_MAX) { /* 128: the chain field */
        snprintf(err, errcap,
                 "cannot write game %lld's record to %s: it takes %zu bytes, more than the %d MiB "
                 "a records line may hold",
                 (long long)r->game, o->path, len + 1, TX_RECORDS_LINE_MAX >> 20);
        free(json);
        return -EMSGSIZE;
    }
    char *line = malloc(len + 3);
    if (!line) {
        free(json);
        snprintf(err, errcap, "cannot write game %lld's record to %s: out of memory",
                 (long long)r->game, o->path);
        return -ENOMEM;
    }

    uv_mutex_lock(&o->mutex);
    /* The chain is sealed here, under the lock, in the order lines reach
     * the file: games end in any order and are saved from several threads. */
    char hash[TX_CHAIN_HEX];
    char *sealed = tx_chain_seal(json, len, o->chain, hash);
    free(json);
    json = sealed;
    len = strlen(json);
    line = tx_xrealloc(line, len + 3);
    size_t total = 0;
    if (o->newline_first)
        line[total++] = '\n';
    memcpy(line + total, json, len);
    total += len;
    line[total++] = '\n';
    free(json);

    struct stat st;
    int64_t before = fstat(o->fd, &st) == 0 ? (int64_t)st.st_size : -1;
    size_t done;
    int e = -tx_output_write_all(o->fd, line, total, &done);
    free(line);
    if (e) {
        /* Undo the part written, so that no torn line is left: the next
         * run need not guess why the file ends in half a record. */
        const char *undo = "";
        if (done > 0 && (before < 0 || ftruncate(o->fd, before) < 0))
            undo = " (and the part written could not be removed)";
        snprintf(err, errcap, "cannot write game %lld's record to %s: %s%s", (long long)r->game,
                 o->path, strerror(e), undo);
        uv_mutex_unlock(&o->mutex);
        return -e;
    }
    o->newline_first = false;
    memcpy(o->chain, hash, sizeof o->chain);
    o->written++;
    if (!o->gone)
        o->gone = check_path(o);
    enum tx_records_gone gone = o->gone;
    uv_mutex_unlock(&o->mutex);
    if (gone) {
        snprintf(err, errcap, "%s %s while the run was writing it", o->path, gone_words(gone));
        return -ESTALE;
    }
    return 0;
}

int tx_records_out_cut(struct tx_records_out *o, int64_t offset)
{
    if (ftruncate(o->fd, offset) < 0)
        return -errno;
    chain_from_end(o);
    return 0;
}

/* fsync of the directory holding path, so that a rename or a new file is
 * on disk too; best effort. */
static void sync_dir(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int tx_records_out_replace(struct tx_records_out *o, const char *tmp_path, char *err, size_t errcap)
{
    struct stat st;
    int fd = open(tmp_path, O_RDWR | O_APPEND | O_CLOEXEC | O_NOCTTY);
    int e;
    if (fd < 0 || fstat(fd, &st) < 0) {
        e = errno;
        snprintf(err, errcap, "%s: %s", tmp_path, strerror(e));
        if (fd >= 0)
            close(fd);
        return -e;
    }
    /* Locked before it takes the name: no other run can slip in. */
    int rc = lock(tmp_path, fd, &st, err, errcap);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    if (fsync(fd) < 0 || rename(tmp_path, o->path) < 0) {
        e = errno;
        snprintf(err, errcap, "cannot replace %s with %s: %s", o->path, tmp_path, strerror(e));
        close(fd);
        return -e;
    }
    sync_dir(o->path);
    close(o->fd);
    o->fd = fd;
    o->dev = st.st_dev;
    o->ino = st.st_ino;
    chain_from_end(o);
    return 0;
}

int tx_records_copy(int from, int64_t start, int64_t end, int to)
{
    char buf[CHUNK];
    while (start < end) {
        size_t want = end - start < (int64_t)sizeof buf ? (size_t)(end - start) : sizeof buf;
        ssize_t n = pread(from, buf, want, start);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -errno : -EIO;
        int rc = tx_output_write_all(to, buf, (size_t)n, NULL);
        if (rc < 0)
            return rc;
        start += n;
    }
    return 0;
}

/* Copies the whole file being written into a new file at path (O_EXCL). */
static int save_copy(const struct tx_records_out *o, const char *path)
{
    struct stat st;
    if (fstat(o->fd, &st) < 0)
        return -errno;
    int to = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0644);
    if (to < 0)
        return -errno;
    int rc = tx_records_copy(o->fd, 0, (int64_t)st.st_size, to);
    if (rc == 0 && fsync(to) < 0)
        rc = -errno;
    if (close(to) < 0 && rc == 0)
        rc = -errno;
    if (rc < 0)
        unlink(path);
    else
        sync_dir(path);
    return rc;
}

int tx_records_out_rescue(struct tx_records_out *o, char *where, size_t wherecap, char *msg,
                          size_t msgcap)
{
    where[0] = '\0';
    if (o->gone == TX_RECORDS_MOVED) {
        char link[64], target[PATH_MAX];
        snprintf(link, sizeof link, "/proc/self/fd/%d", o->fd);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            snprintf(where, wherecap, "%s", target);
            snprintf(msg, msgcap,
                     "%s was moved to %s while the run was writing it: the records are there",
                     o->path, target);
        } else {
            snprintf(msg, msgcap,
                     "%s was moved or renamed while the run was writing it: the records are in it, "
                     "under its new name",
                     o->path);
        }
        return 0;
    }
    if (o->gone != TX_RECORDS_REMOVED && o->gone != TX_RECORDS_REPLACED)
        return 0;
    /* The file has no name left: its records exist only through our
     * descriptor. A removed one goes back where it was. */
    int rc = -EEXIST;
    char path[PATH_MAX];
    if (o->gone == TX_RECORDS_REMOVED) {
        snprintf(path, sizeof path, "%s", o->path);
        rc = save_copy(o, path);
    }
    for (int i = 1; rc == -EEXIST && i <= RECOVERED_MAX; i++) {
        if (i == 1)
            snprintf(path, sizeof path, "%s.recovered", o->path);
        else
            snprintf(path, sizeof path, "%s.recovered.%d", o->path, i);
        rc = save_copy(o, path);
    }
    if (rc < 0) {
        snprintf(msg, msgcap,
                 "%s %s while the run was writing it, and its records could not be saved (%s): "
                 "they are lost",
                 o->path, gone_words(o->gone), strerror(-rc));
        return rc;
    }
    snprintf(where, wherecap, "%s", path);
    if (!strcmp(path, o->path))
        snprintf(msg, msgcap,
                 "%s was removed while the run was writing it: its records were written back "
                 "to %s",
                 o->path, path);
    else
        snprintf(msg, msgcap,
                 "%s %s while the run was writing it: %s was left alone, and the records of this "
                 "run were saved in %s",
                 o->path, gone_words(o->gone), o->path, path);
    return 0;
}

int tx_records_out_close(struct tx_records_out *o, char *err, size_t errcap)
{
    int rc = 0;
    if (o->fd < 0)
        return 0;
    if (fsync(o->fd) < 0 && errno != EINVAL) {
        rc = -errno;
        snprintf(err, errcap, "cannot save %s to disk: %s", o->path, strerror(errno));
    }
    if (close(o->fd) < 0 && rc == 0 && errno != EINTR) {
        rc = -errno;
        snprintf(err, errcap, "cannot save %s: %s", o->path, strerror(errno));
    }
    o->fd = -1;
    uv_mutex_destroy(&o->mutex);
    return rc;
}
