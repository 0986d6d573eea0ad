/* hole.c - placeholder, being written. */
#include "hole.h"
