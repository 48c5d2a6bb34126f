#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

static _Thread_local char last_error[JMSG_LENGTH_MAX + 64];

const char *cjpeg_last_error(void) { return last_error; }

// libjpeg reports a fatal error by calling error_exit, which must not return: jump back to
// the call that set the trap, with the message kept for cjpeg_last_error.
struct trap {
    struct jpeg_error_mgr manager;
    jmp_buf back;
};

static void leave_on_error(j_common_ptr info) {
    struct trap *trap = (struct trap *)info->err;
    char message[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, message);
    snprintf(last_error, sizeof last_error, "%s", message);
    longjmp(trap->back, 1);
}

// A warning means damaged data libjpeg would paper over (a truncated image comes back gray):
// the region is refused like the frame would be.
static void leave_on_warning(j_common_ptr info, int level) {
    if (level < 0) leave_on_error(info);
}

static int valid_scale(int scale) { return scale == 1 || scale == 2 || scale == 4 || scale == 8; }

int cjpeg_decode_region(
    const uint8_t *data, size_t size, int scale, int x, int y, int width, int height, int channels,
    uint8_t *out, size_t out_stride) {
    if (!data || size == 0 || !out || !valid_scale(scale) || (channels != 1 && channels != 3) || x < 0 || y < 0
        || width <= 0 || height <= 0 || out_stride < (size_t)width * (size_t)channels) {
        snprintf(last_error, sizeof last_error, "bad arguments");
        return -1;
    }
    struct jpeg_decompress_struct info;
    struct trap trap;
    // Volatile: they change between setjmp and a possible longjmp.
    JSAMPLE *volatile row = NULL;
    info.err = jpeg_std_error(&trap.manager);
    trap.manager.error_exit = leave_on_error;
    trap.manager.emit_message = leave_on_warning;
    jpeg_create_decompress(&info);
    if (setjmp(trap.back)) {
        free(row);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    info.scale_num = 1;
    info.scale_denom = (unsigned int)scale;
    info.out_color_space = channels == 3 ? JCS_EXT_BGR : JCS_GRAYSCALE;
    info.dct_method = JDCT_IFAST;
    jpeg_calc_output_dimensions(&info);
    if ((long)x + width > (long)info.output_width || (long)y + height > (long)info.output_height) {
        snprintf(
            last_error, sizeof last_error, "region %dx%d at %d,%d is outside the %ux%u image", width, height, x, y,
            info.output_width, info.output_height);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    jpeg_start_decompress(&info);
    // Cropping widens the columns to whole iMCUs: decode into a row that wide, keep the part asked for.
    JDIMENSION crop_x = (JDIMENSION)x;
    JDIMENSION crop_width = (JDIMENSION)width;
    jpeg_crop_scanline(&info, &crop_x, &crop_width);
    row = malloc((size_t)crop_width * (size_t)info.output_components);
    if (!row) {
        snprintf(last_error, sizeof last_error, "out of memory");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    if (y > 0 && jpeg_skip_scanlines(&info, (JDIMENSION)y) != (JDIMENSION)y) {
        snprintf(last_error, sizeof last_error, "the image ended before row %d", y);
        free(row);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    size_t skip = ((size_t)x - crop_x) * (size_t)channels;
    for (int line = 0; line < height; line++) {
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&info, rows, 1) != 1) {
            snprintf(last_error, sizeof last_error, "the image ended at row %d", y + line);
            free(row);
            jpeg_destroy_decompress(&info);
            return -1;
        }
        memcpy(out + (size_t)line * out_stride, row + skip, (size_t)width * (size_t)channels);
    }
    free(row);
    // The rest of the image is not needed: abandon it rather than decode it.
    jpeg_abort_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 0;
}
