/* rules.c - the tables of rule sets and openings (rules.h). */
#include "rules.h"

#include <assert.h>
#include <string.h>

static const struct tx_ruleset rulesets[TX_RULES_COUNT] = {
    [TX_RULES_PP] = {"pp", false, false},
    [TX_RULES_CLASSIC] = {"classic", true, true},
};

const struct tx_ruleset *tx_ruleset(enum tx_rules rules)
{
    assert((unsigned)rules < TX_RULES_COUNT);
    return &rulesets[rules];
}

int tx_rules_from_name(const char *name)
{
    for (int i = 0; i < TX_RULES_COUNT; i++)
        if (name && !strcmp(name, rulesets[i].name))
            return i;
    return -1;
}

static const char *const openings[TX_OPENING_COUNT] = {
    [TX_OPENING_SWAP] = "swap",
    [TX_OPENING_PIE] = "pie",
    [TX_OPENING_CUT] = "cut",
    [TX_OPENING_NONE] = "none",
};

const char *tx_opening_rule_name(enum tx_opening_rule opening)
{
    assert((unsigned)opening < TX_OPENING_COUNT);
    return openings[opening];
}

int tx_opening_rule_from_name(const char *name)
{
    for (int i = 0; i < TX_OPENING_COUNT; i++)
        if (name && !strcmp(name, openings[i]))
            return i;
    return -1;
}
