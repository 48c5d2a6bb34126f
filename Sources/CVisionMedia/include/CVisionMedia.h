// Recordings, video files and still-image files through OpenCV's videoio and imgcodecs, built as
// a shared library of its own (libOpenDockMedia.so) that CVision loads the first time one of
// them is needed. Those two modules bring in some 250 libraries (FFmpeg, GStreamer, GDAL, …):
// tens of MiB of resident pages a live camera never uses.
//
// The same rules as CVision.h; a failure leaves its message in cvisionmedia_last_error().
#ifndef CVISION_MEDIA_H
#define CVISION_MEDIA_H

#include "../../CVision/include/CVision.h"

#ifdef __cplusplus
extern "C" {
#endif

const char *cvisionmedia_last_error(void);

cvision_capture *cvisionmedia_capture_open(const char *path, int32_t raw, cvision_capture_info *info);
int32_t cvisionmedia_capture_read(cvision_capture *capture, cvision_view *frame);
void cvisionmedia_capture_free(cvision_capture *capture);

cvision_writer *cvisionmedia_writer_open(const char *path, const char *fourcc, double fps, int32_t width,
                                         int32_t height);
int32_t cvisionmedia_writer_write(cvision_writer *writer, cvision_view frame);
void cvisionmedia_writer_free(cvision_writer *writer);

/// Reads a still image into a handle of this library; `pixels` views it until it is freed.
void *cvisionmedia_image_read(const char *path, int32_t gray, cvision_view *pixels);
void cvisionmedia_image_free(void *image);
int32_t cvisionmedia_image_write(const char *path, cvision_view image);
int32_t cvisionmedia_jpeg_round_trip(cvision_view image, int32_t quality);

#ifdef __cplusplus
}
#endif

#endif
