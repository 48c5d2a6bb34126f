#pragma once
#include <stddef.h>
#include <stdint.h>

/// Runs the SHA-256 compression function (FIPS 180-4) over `blocks` 64-byte blocks. In C so that
/// checking a model file of tens of megabytes stays fast in unoptimized (debug) builds too.
void cdg_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);
