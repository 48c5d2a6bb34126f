// What every entry point of the media library shares: the shim's guard, and the one attribute
// that makes an entry point visible (everything else in this library is hidden, so nothing in it
// binds to or clashes with the program's own copy of the shim).
#pragma once
#include "../CVision/guard.hpp"
#include "CVisionMedia.h"

#define CVISIONMEDIA_EXPORT extern "C" __attribute__((visibility("default")))
