/* record.c - placeholder, being written. */
#include "record.h"
