/* text.c - placeholder, being written. */
#include "text.h"
