/* geometry.c - placeholder, being written. */
#include "geometry.h"
