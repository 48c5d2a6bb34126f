// The shim's guard (a thread-local message per failure), compiled into this library too: it is
// loaded beside the program's copy, not linked to it, and keeps messages of its own.
#include "../CVision/guard.cpp"
#include "media.hpp"

CVISIONMEDIA_EXPORT const char *cvisionmedia_last_error(void) { return cvision_last_error(); }
