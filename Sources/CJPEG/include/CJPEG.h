#ifndef CJPEG_H
#define CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// Decodes one rectangle of a JPEG with libjpeg's scanline skipping and cropping: rows above
/// the rectangle are entropy-decoded but not transformed, rows below are never read, columns
/// outside it are not transformed. `scale` is the DCT scale denominator (1, 2, 4 or 8); the
/// rectangle (`x`, `y`, `width`, `height`) is in pixels of the image at that scale and must
/// lie inside it. `channels` is 3 (BGR) or 1 (gray); `out` holds `height` rows of
/// `out_stride` bytes. Returns 0, or -1 with the reason in `cjpeg_last_error()`.
int cjpeg_decode_region(
    const uint8_t *data, size_t size, int scale, int x, int y, int width, int height, int channels,
    uint8_t *out, size_t out_stride);

/// Why the last call on this thread failed.
const char *cjpeg_last_error(void);

#endif
