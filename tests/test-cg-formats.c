/* test-cg-formats.c - a game's record in the CodinGame toolchain's formats
 * (referee/cg-formats.h), on records written here: the scores and ranks of
 * every result, the SDK log's frames, and the [TDATA]/[PDATA] lines read as
 * psyleague's and cgarena's stock play_game scripts read them (the tables
 * below were worked out from those scripts' Python: str.split(' ') for
 * psyleague, its regular expression for cgarena). tests/test-cg-consumers.py
 * runs the real program under each consumer.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cg-formats.h"

/* A record of `n` answers alternating from player 1, with stderr texts
 * (NULL for none) and the given result. */
static void make_record(struct tx_record *r, int n, const char *const *stderr_texts, int winner,
                        enum tx_reason reason)
{
    memset(r, 0, sizeof *r);
    r->players[0].name = tx_strdup("alpha");
    r->players[1].name = tx_strdup("beta");
    r->nmoves = n;
    r->moves = tx_xcalloc((size_t)n + 1, sizeof *r->moves);
    for (int i = 0; i < n; i++) {
        struct tx_record_move *m = &r->moves[i];
        char hole[8];
        snprintf(hole, sizeof hole, "C%d", 3 + i);
        m->player = i % 2;
        m->move = tx_strdup(hole);
        m->stderr_text = stderr_texts && stderr_texts[i] ? tx_strdup(stderr_texts[i]) : NULL;
    }
    r->result.winner = winner;
    r->result.reason = reason;
    r->result.detail = tx_strdup("A4-L9");
}

static char *print(cJSON *tree)
{
    char *text = cJSON_PrintUnformatted(tree);
    cJSON_Delete(tree);
    return text;
}

START_TEST(cg_scores_follow_the_result)
{
    static const struct {
        int winner;
        enum tx_reason reason;
        int score[2], rank[2], error[2];
    } cases[] = {
        {0, TX_REASON_CONNECTION, {1, 0}, {0, 1}, {0, 0}},
        {1, TX_REASON_CONNECTION, {0, 1}, {1, 0}, {0, 0}},
        {-1, TX_REASON_DRAW, {0, 0}, {0, 0}, {0, 0}},
        /* a loss by the bot's own fault is -1: brutaltester's error */
        {0, TX_REASON_INVALID, {1, -1}, {0, 1}, {0, 1}},
        {1, TX_REASON_TIMEOUT, {-1, 1}, {1, 0}, {1, 0}},
        {1, TX_REASON_CRASH, {-1, 1}, {1, 0}, {1, 0}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct tx_record r;
        make_record(&r, 2, NULL, cases[c].winner, cases[c].reason);
        int ranks[2], errors[2];
        tx_cg_ranks(&r, ranks, errors);
        for (int p = 0; p < 2; p++) {
            ck_assert_int_eq(tx_cg_score(&r, p), cases[c].score[p]);
            ck_assert_int_eq(ranks[p], cases[c].rank[p]);
            ck_assert_int_eq(errors[p], cases[c].error[p]);
        }
        tx_record_free(&r);
    }
}
END_TEST

/* The SDK's frames: one per answer and one for the end; each player's
 * lists start with the slot read before the first frame; the player that
 * did not answer in a frame has null there, as readError gives. */
START_TEST(cg_log_has_the_sdk_frames)
{
    const char *err[] = {"[PDATA] depth = 3\n", NULL, "thinking\n"};
    struct tx_record r;
    make_record(&r, 3, err, 0, TX_REASON_CONNECTION);
    r.moves[1].message = tx_strdup("hi there");
    char *text = print(tx_cg_log(&r, -5, "twixt-arena referee: warning: x\n"));
    cJSON *log = cJSON_Parse(text);
    ck_assert_ptr_nonnull(log);
    cJSON *errors = cJSON_GetObjectItem(log, "errors"),
          *outputs = cJSON_GetObjectItem(log, "outputs");
    cJSON *e0 = cJSON_GetObjectItem(errors, "0"), *e1 = cJSON_GetObjectItem(errors, "1");
    cJSON *o0 = cJSON_GetObjectItem(outputs, "0"), *o1 = cJSON_GetObjectItem(outputs, "1");
    cJSON *eref = cJSON_GetObjectItem(errors, "referee");
    ck_assert_int_eq(cJSON_GetArraySize(e0), 4);
    ck_assert_int_eq(cJSON_GetArraySize(o1), 4);
    ck_assert_int_eq(cJSON_GetArraySize(eref), 4); /* three answers and the end */
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(log, "summaries")), 4);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(log, "views")), 4);
    ck_assert(cJSON_IsNull(cJSON_GetArrayItem(e0, 0)));
    ck_assert_str_eq(cJSON_GetArrayItem(e0, 1)->valuestring, "[PDATA] depth = 3\n");
    ck_assert(cJSON_IsNull(cJSON_GetArrayItem(e1, 1)));
    ck_assert(cJSON_IsNull(cJSON_GetArrayItem(e1, 2))); /* it wrote nothing */
    ck_assert_str_eq(cJSON_GetArrayItem(e0, 3)->valuestring, "thinking\n");
    ck_assert_str_eq(cJSON_GetArrayItem(o0, 1)->valuestring, "C3\n");
    ck_assert_str_eq(cJSON_GetArrayItem(o1, 2)->valuestring, "C4 hi there\n");
    ck_assert(cJSON_IsNull(cJSON_GetArrayItem(o1, 1)));
    ck_assert_str_eq(cJSON_GetArrayItem(eref, 0)->valuestring, "twixt-arena referee: warning: x\n");
    ck_assert_str_eq(cJSON_GetArrayItem(eref, 1)->valuestring, "");
    cJSON *scores = cJSON_GetObjectItem(log, "scores");
    ck_assert_int_eq(cJSON_GetObjectItem(scores, "0")->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItem(scores, "1")->valueint, 0);
    ck_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(log, "uinput"), 0)->valuestring,
                     "seed=-5");
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(log, "ids"), "1")->valueint, 1);
    cJSON *agent = cJSON_GetArrayItem(cJSON_GetObjectItem(log, "agents"), 1);
    ck_assert_str_eq(cJSON_GetObjectItem(agent, "name")->valuestring, "beta");
    ck_assert_int_eq(cJSON_GetObjectItem(agent, "agentId")->valueint, 1);
    ck_assert_ptr_null(cJSON_GetObjectItem(log, "failCause")); /* Gson leaves null fields out */
    cJSON_Delete(log);
    free(text);
    tx_record_free(&r);

    /* A game that did not end: no scores, and why. */
    make_record(&r, 1, NULL, -1, TX_REASON_INTERRUPTED);
    log = tx_cg_log(&r, 1, NULL);
    ck_assert_ptr_null(cJSON_GetObjectItem(log, "scores"));
    ck_assert(cJSON_IsString(cJSON_GetObjectItem(log, "failCause")));
    cJSON_Delete(log);
    tx_record_free(&r);
}
END_TEST

/* psyleague's script: line.strip().split(' '), at least four words, the
 * fourth is the value; [PDATA+] sums floats. */
START_TEST(cg_psyleague_reads_data_lines)
{
    static const struct {
        const char *err[4]; /* turns: player 1, player 2, player 1, player 2 */
        const char *want;
    } cases[] = {
        {{"[TDATA] map = small\n[PDATA] depth = 4\n", "[PDATA] depth = 7\n"},
         "{\"ranks\":[0,1],\"errors\":[0,0],\"test_data\":{\"seed\":9,\"map\":\"small\"},"
         "\"player_data\":[{\"depth\":\"4\"},{\"depth\":\"7\"}]}"},
        /* the last value wins; words after the fourth are dropped; CRLF */
        {{"[PDATA] depth = 4 plies\r\n", NULL, "  [PDATA] depth = 5\t\n"},
         "{\"ranks\":[0,1],\"errors\":[0,0],\"test_data\":{\"seed\":9},"
         "\"player_data\":[{\"depth\":\"5\"},{}]}"},
        /* sums are floats, written as Python writes them */
        {{"[PDATA+] nodes = 1\n[PDATA+] nodes = 0.5\n", "[PDATA+] t = 0.1\n", NULL,
          "[PDATA+] t = 0.2\n"},
         "{\"ranks\":[0,1],\"errors\":[0,0],\"test_data\":{\"seed\":9},"
         "\"player_data\":[{\"nodes\":1.5},{\"t\":0.30000000000000004}]}"},
        /* not the shape: too few words, two spaces, another tag, a value
         * float() refuses (the stock script would stop psyleague there) */
        {{"[PDATA] depth 4\n[PDATA]  depth = 4\n[PDATA][3] x = 1\n[PDATA+] n = many\n"},
         "{\"ranks\":[0,1],\"errors\":[0,0],\"test_data\":{\"seed\":9},"
         "\"player_data\":[{\"\":\"=\"},{}]}"},
        /* a [TDATA] seed replaces the seed, as the script's dict does */
        {{"[TDATA] seed = mine\n"},
         "{\"ranks\":[0,1],\"errors\":[0,0],\"test_data\":{\"seed\":\"mine\"},"
         "\"player_data\":[{},{}]}"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct tx_record r;
        make_record(&r, 4, cases[c].err, 0, TX_REASON_CONNECTION);
        char *text = print(tx_cg_psyleague(&r, 9));
        ck_assert_msg(!strcmp(text, cases[c].want), "case %zu:\n got %s\nwant %s", c, text,
                      cases[c].want);
        free(text);
        tx_record_free(&r);
    }
    /* seeds past 2^53 are written exactly */
    struct tx_record r;
    make_record(&r, 1, NULL, 1, TX_REASON_CRASH);
    char *text = print(tx_cg_psyleague(&r, INT64_MIN));
    ck_assert_str_eq(text, "{\"ranks\":[1,0],\"errors\":[1,0],\"test_data\":{\"seed\":"
                           "-9223372036854775808},\"player_data\":[{},{}]}");
    free(text);
    tx_record_free(&r);
}
END_TEST

/* cgarena's script: \[(T|P)DATA\](?:\[(\d+)\])?\s+(\w+)\s*=\s*(.+) from
 * the stripped line's start, case-insensitive. */
START_TEST(cg_cgarena_reads_data_lines)
{
    static const struct {
        const char *err[2];
        const char *want; /* the attributes */
    } cases[] = {
        {{"[PDATA] depth = 4\n[TDATA] map=small world\n", "[pdata][12] eval   =  -0.5 pawns \n"},
         "[{\"name\":\"depth\",\"player\":0,\"turn\":null,\"value\":\"4\"},"
         "{\"name\":\"map\",\"player\":null,\"turn\":null,\"value\":\"small world\"},"
         "{\"name\":\"eval\",\"player\":1,\"turn\":12,\"value\":\"-0.5 pawns\"}]"},
        /* not the shape: no space after the tag, no value, a word before,
         * a turn that is not a number, a key with a dash */
        {{"[PDATA]depth = 4\n[PDATA] depth =\nnote [PDATA] x = 1\n[PDATA][a] x = 1\n"
          "[PDATA] a-b = 1\n"},
         "[]"},
        /* a turn cgarena cannot hold (u16) is left out, the value kept */
        {{"[PDATA][70000] x = 1\n"},
         "[{\"name\":\"x\",\"player\":0,\"turn\":null,\"value\":\"1\"}]"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct tx_record r;
        make_record(&r, 2, cases[c].err, -1, TX_REASON_DRAW);
        cJSON *o = tx_cg_cgarena(&r);
        char *ranks = cJSON_PrintUnformatted(cJSON_GetObjectItem(o, "ranks"));
        char *attributes = cJSON_PrintUnformatted(cJSON_GetObjectItem(o, "attributes"));
        ck_assert_str_eq(ranks, "[0,0]");
        ck_assert_msg(!strcmp(attributes, cases[c].want), "case %zu:\n got %s\nwant %s", c,
                      attributes, cases[c].want);
        free(ranks);
        free(attributes);
        cJSON_Delete(o);
        tx_record_free(&r);
    }
}
END_TEST

static Suite *cg_formats_suite(void)
{
    Suite *s = suite_create("cg-formats");
    TCase *tc = tcase_create("cg-formats");
    tcase_add_test(tc, cg_scores_follow_the_result);
    tcase_add_test(tc, cg_log_has_the_sdk_frames);
    tcase_add_test(tc, cg_psyleague_reads_data_lines);
    tcase_add_test(tc, cg_cgarena_reads_data_lines);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cg_formats_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
