/* records.h - the records file: JSON Lines of game records, one game a line,
 * read and written one way by every command.
 *
 * Reading (resume, standings, replay; later validate) goes through one
 * reader with one set of rules, so a file means the same thing to each:
 *
 *   - A line is at most TX_RECORDS_LINE_MAX bytes. A longer one is not a
 *     record ("FILE:LINE: not a game record: longer than 16 MiB") and is
 *     skipped without being held in memory: a reader never grows without
 *     bound, whatever it is given (/dev/zero, a binary).
 *   - Blank lines (nothing, or only spaces, tabs and a CR) are skipped.
 *     A CR before the newline is ignored (CRLF files read as LF files).
 *   - A last line without its newline is a record when it loads (the file
 *     just misses its final newline). When it does not load but starts
 *     like a record this program writes ({"format":"twixt-arena/game/...),
 *     it is TORN: a write that never finished. Anything else is INVALID.
 *   - A line that does not load is INVALID ("FILE:LINE: not a game record:
 *     why"), wherever it is: a torn line in the middle of a file included.
 *   - When the first line that is not blank does not even start with '{',
 *     the file is not JSON Lines at all (an HTML page, a note): NOT_RECORDS,
 *     one message for the file, and the reader returns nothing more.
 *
 * Each command decides what a kind means for it (README "Records"): a torn
 * last line is a warning everywhere (resume also cuts it off); an invalid
 * line stops resume and standings unless --skip-invalid, and fails replay.
 *
 * Writing goes through one appender: -o is a regular file (or a new one),
 * locked for the run (flock), each record one write() of one whole line
 * sealed into the file's hash chain (chain.h: what it proves), a
 * failed write undone (no torn line left behind on a full disk), and after
 * each record a check that the path still names the file being written.
 *
 * tx_records_seen tells a game recorded twice apart from two different
 * records of one game (same run and index), for standings, replay and
 * resume.
 */
#ifndef TX_RECORDS_H
#define TX_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <uv.h>

#include "chain.h"
#include "record.h"

/* The longest line read or written: 16 MiB. The largest record the referee
 * can write is about 11 MiB: a 100 x 100 board full of moves, each with a
 * 20-character message and, under classic rules, as many link edits as an
 * answer may hold (TX_EDITS_MAX, and one more in the last answer, refused
 * for it), both bots filling their 64 KiB of kept stderr, and two commands
 * as long as one argument may be (128 KiB), all of control characters that
 * JSON escapes to 6 bytes each; without edits it is 5.1 MiB (test-records,
 * records_cap_holds_the_largest_record). A real record is a few KiB, up to
 * 1 MiB for a whole 100 x 100 game. The reader holds what the line takes,
 * never more than this. */
#define TX_RECORDS_LINE_MAX (16 * 1024 * 1024)

/* How every record this program writes begins: what makes a torn line
 * recognisable. */
#define TX_RECORDS_START "{\"format\":\"twixt-arena/game/"

/* ---- reading ---- */

enum tx_records_item {
    TX_RECORDS_END = 0,     /* no more lines */
    TX_RECORDS_RECORD,      /* a record, loaded into *rec */
    TX_RECORDS_TORN,        /* the last line: a record whose write never finished */
    TX_RECORDS_INVALID,     /* a line that is not a game record */
    TX_RECORDS_NOT_RECORDS, /* the file is not JSON Lines at all; nothing more is read */
};

struct tx_records_reader {
    const char *name; /* in messages: the path, or "(stdin)" */
    /* The line last returned (blank lines are never returned). */
    int64_t line;       /* its number, from 1, blank lines counted */
    int64_t start, end; /* its bytes in the file, [start, end), newline included */
    bool terminated;    /* it ends with a newline */
    /* private */
    int fd;
    bool own_fd;
    bool content; /* a line that is not blank was seen */
    bool stopped; /* NOT_RECORDS or a read error was returned */
    bool eof;
    char *chunk; /* read buffer */
    size_t chunk_len, chunk_pos;
    char *text; /* the current line, NUL-terminated, at most TX_RECORDS_LINE_MAX bytes */
    size_t len, cap;
    int64_t offset; /* bytes of the file consumed */
};

/* Opens path for reading ("-" is standard input, named "(stdin)"). A
 * directory is refused. Returns 0, or a negative errno with "FILE: why"
 * in err. */
int tx_records_open(struct tx_records_reader *r, const char *path, char *err, size_t errcap);

/* Reads fd (not closed by tx_records_close) from its current offset; name
 * is used in messages. Returns 0 or -ENOMEM. */
int tx_records_open_fd(struct tx_records_reader *r, int fd, const char *name);

/* The next item. For TX_RECORDS_RECORD, *rec is loaded (free it with
 * tx_record_free); for TORN, INVALID and NOT_RECORDS, err holds
 * "FILE:LINE: ..." and *rec is zeroed. Returns the item, or a negative
 * errno with "FILE: why" in err when the file cannot be read. */
int tx_records_next(struct tx_records_reader *r, struct tx_record *rec, char *err, size_t errcap);

/* Frees the reader (and closes what tx_records_open opened). */
void tx_records_close(struct tx_records_reader *r);

/* ---- games seen twice ---- */

enum tx_records_sighting {
    TX_RECORDS_NEW = 0,  /* first record of this game (or one that cannot be matched) */
    TX_RECORDS_SAME,     /* the game again, the same game: a duplicate */
    TX_RECORDS_CONFLICT, /* the game again, but a different game */
};

/* Where a game was first seen, and for a conflict what differs. */
struct tx_records_earlier {
    const char *file; /* valid while the set is */
    int64_t line;
    char differs[256]; /* "the result: a (player 1) wins by connection there, ..." */
};

/* The games seen, by run fingerprint and index. Two records of one game
 * are the same game when they agree on everything but measurements: the
 * players (names, commands, sha256), seed, size, limits, the moves (who,
 * what, forced) and the result's winner and reason; times, messages,
 * stderr, start stamps and the result's detail may differ. Records without
 * a run fingerprint, and interrupted ones, are never matched. */
struct tx_records_seen {
    char **runs; /* fingerprints, owned */
    int nruns;
    char **files; /* file names, owned */
    int nfiles;
    struct tx_records_seen_entry *slots; /* open addressing */
    size_t n, cap;
};

/* Duplicates warned about one by one in a file; then one line with the
 * count (a shard file given twice would otherwise print every game). */
#define TX_RECORDS_DUPLICATE_WARNINGS 10

/* An empty set (all zero is one too). */
void tx_records_seen_init(struct tx_records_seen *s);
void tx_records_seen_free(struct tx_records_seen *s);

/* Looks r up and, when new, remembers it as seen at file:line. For SAME and CONFLICT, *earlier says
 * where the first one was and, for a conflict, what differs. Aborts on out of memory. */
enum tx_records_sighting tx_records_seen_add(struct tx_records_seen *s, const struct tx_record *r,
                                             const char *file, int64_t line,
                                             struct tx_records_earlier *earlier);

/* ---- writing ---- */

enum tx_records_gone {
    TX_RECORDS_THERE = 0, /* the path names the file being written */
    TX_RECORDS_REMOVED,   /* the file has no name left (rm) */
    TX_RECORDS_MOVED,     /* the file has another name now (mv); the path may name another file */
    TX_RECORDS_REPLACED,  /* the path names another file, and ours has no name left */
};

struct tx_records_out {
    const char *path; /* as given to -o */
    int fd;           /* O_RDWR | O_APPEND, flock'ed, or -1 */
    dev_t dev;        /* the file opened */
    ino_t ino;
    bool newline_first;        /* the file does not end with a newline: start with one */
    enum tx_records_gone gone; /* what happened to the path, once noticed */
    int64_t written;           /* records this process wrote */
    char chain[TX_CHAIN_HEX];  /* the hash the next record chains from (chain.h): the last
                                  line's, read at open, after a cut and a replace */
    uv_mutex_t mutex;          /* one record at a time: seal, write, undo, check */
};

/* Opens path for appending records: a regular file, created (0644) when
 * missing; a directory, device, FIFO or socket is refused, and so is a
 * file another process holds (its flock: "FILE is being written by another
 * run (process N: COMMAND)"). Returns 0, or a negative errno with a message
 * naming the file in err. */
int tx_records_out_open(struct tx_records_out *o, const char *path, char *err, size_t errcap);

/* Appends r as one line with one write(); safe from several threads. A
 * write that fails (or writes part of the line) is undone by cutting the
 * file back, so no torn line is left. Then checks that the path still
 * names the file (o->gone). Returns 0; -ESTALE when the line was written
 * but the path no longer names the file; or another negative errno
 * (ENOSPC, EIO, EFBIG, -EMSGSIZE for a line over TX_RECORDS_LINE_MAX,
 * ...) when the record was not written. err gets the message. */
int tx_records_out_append(struct tx_records_out *o, const struct tx_record *r, char *err,
                          size_t errcap);

/* Cuts the file at offset (a torn last line); the next record starts
 * there. Returns 0 or a negative errno. */
int tx_records_out_cut(struct tx_records_out *o, int64_t offset);

/* Replaces the file by tmp_path, for resume's --skip-invalid: tmp_path is
 * opened and locked first, then renamed over the path, and written from
 * then on. Returns 0 or a negative errno (message in err); on failure the
 * old file stays open and locked. */
int tx_records_out_replace(struct tx_records_out *o, const char *tmp_path, char *err,
                           size_t errcap);

/* After the path stopped naming the file (o->gone): makes the records
 * reachable and says where they are. A removed file is written back to
 * its path (or, when another file took it, to PATH.recovered, .recovered.2
 * ...); a moved one is left where it went. where receives that path (or ""
 * when they could not be saved), msg a sentence for the user. Returns 0 or
 * a negative errno. */
int tx_records_out_rescue(struct tx_records_out *o, char *where, size_t wherecap, char *msg,
                          size_t msgcap);

/* Copies the bytes [start, end) of the file from (read with pread) to the
 * end of to. Returns 0 or a negative errno. */
int tx_records_copy(int from, int64_t start, int64_t end, int to);

/* Flushes the file to disk (fsync) and closes it. Returns 0, or a negative
 * errno with the message in err when the records may not all be on disk.
 * Accepts a closed appender. */
int tx_records_out_close(struct tx_records_out *o, char *err, size_t errcap);

#endif
