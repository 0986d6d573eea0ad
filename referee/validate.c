/* validate.c - placeholder, being written (engineer "validate"). */
#include "refeed.h"
