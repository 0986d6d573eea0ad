/* input.c - placeholder, being written. */
#include "input.h"
