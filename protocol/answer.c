/* answer.c - placeholder, being written. */
#include "answer.h"
