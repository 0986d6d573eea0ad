/* game.c - placeholder, being written. */
#include "game.h"
