// A C API over the parts of OpenCV 4.6 that OpenDock uses.
//
// Rules: handles are opaque; images cross as plain views over caller-owned memory (BGR or gray,
// 8-bit, top-left origin); no C++ exception crosses this boundary. A function that fails returns
// a negative status (or NULL) and leaves a message in cvision_last_error() for the calling thread.
#ifndef CVISION_H
#define CVISION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CVISION_OK 0
#define CVISION_ERROR (-1)
#define CVISION_END_OF_STREAM 1

/// A view over 8-bit pixels owned by someone else. channels is 1 (gray) or 3 (BGR).
typedef struct cvision_view {
    uint8_t *data;
    int32_t width;
    int32_t height;
    int32_t channels;
    size_t stride;
} cvision_view;

/// The message of the last failure on this thread ("" when none).
const char *cvision_last_error(void);

/// Hands the heap's free pages back to the system (after loading models, whose parsing leaves
/// tens of MiB free but mapped).
void cvision_trim_heap(void);
/// Makes malloc keep less freed memory (one arena, eager trimming); call before threads start.
void cvision_limit_heap_retention(void);

/// Bytes the heap has handed out and not had back (glibc's mallinfo2: small blocks plus
/// mmapped ones). Unlike the resident size it does not move with the allocator's free lists.
/// UINT64_MAX when glibc's allocator is not the one in use (a sanitizer's runtime).
uint64_t cvision_heap_in_use(void);

/// Threads OpenCV may use for its parallel loops (DNN, resize, warp).
void cvision_set_num_threads(int32_t count);

// MARK: - Images owned by the shim

typedef struct cvision_image cvision_image;

// Image files, video files and recordings go through libOpenDockMedia.so (Sources/CVisionMedia),
// loaded the first time one is needed; when it cannot be, the call fails saying so.

/// Reads a still image (PNG, JPEG, …). gray != 0 converts to one channel. NULL on failure.
cvision_image *cvision_image_read(const char *path, int32_t gray);
/// The pixels of an owned image; valid until cvision_image_free.
cvision_view cvision_image_view(const cvision_image *image);
void cvision_image_free(cvision_image *image);
/// Writes a view to a still image file; the extension picks the codec.
int32_t cvision_image_write(const char *path, cvision_view image);

// MARK: - Pixel operations (into caller-owned destinations)

enum { CVISION_INTER_NEAREST = 0, CVISION_INTER_LINEAR = 1, CVISION_INTER_AREA = 3 };

/// Resizes src into dst (sizes from the views; channel counts must match).
int32_t cvision_resize(cvision_view src, cvision_view dst, int32_t interpolation);
/// Converts BGR to gray or gray to BGR, sizes equal.
int32_t cvision_convert_channels(cvision_view src, cvision_view dst);
/// dst(x) = src(H·x) for a 3×3 row-major homography H that maps destination pixels to source
/// pixels (a perspective remap). Pixels that fall outside src become border_gray.
int32_t cvision_warp_perspective(cvision_view src, cvision_view dst, const double *h, int32_t border_gray);
/// Blends sprite into dst at (x, y) scaled to (width, height) using an 8-bit alpha mask the size
/// of the sprite (NULL data = opaque). Parts outside dst are clipped.
int32_t cvision_blend_sprite(cvision_view dst, cvision_view sprite, cvision_view alpha,
                         int32_t x, int32_t y, int32_t width, int32_t height);
/// Adds Gaussian noise with the given standard deviation (in gray levels), repeatable for a seed.
int32_t cvision_add_noise(cvision_view image, double sigma, uint64_t seed);
/// Adds Gaussian blur with the given sigma in pixels (in place, sigma <= 0 does nothing).
int32_t cvision_blur(cvision_view image, double sigma);
/// Horizontal motion blur in place: a box `length` pixels wide (<= 1 does nothing).
int32_t cvision_motion_blur(cvision_view image, int32_t length);
/// Pixel levels in place: v' = saturate(v * gain + offset) (lighting changes).
int32_t cvision_scale_levels(cvision_view image, double gain, double offset);
/// Mirrors the image left to right, in place.
int32_t cvision_flip_horizontal(cvision_view image);
/// Encodes the image as JPEG at `quality` (1...100) and decodes it back in place: compression noise.
/// (Through libOpenDockMedia.so, like the image files and recordings.)
int32_t cvision_jpeg_round_trip(cvision_view image, int32_t quality);

/// How far the content of a region of `before` at (x, y) moved in `after` (same size), in pixels
/// from the region of `after` at (after_x, after_y) — the same place, or where a first guess
/// put it — by phase correlation of the gray levels under a Hann window; `response` is the
/// peak's height, 0…1 (low: the region has too little texture, or its content changed).
int32_t cvision_phase_shift(cvision_view before, cvision_view after, int32_t x, int32_t y, int32_t width,
                            int32_t height, int32_t after_x, int32_t after_y, double *shift_x, double *shift_y,
                            double *response);

/// Raw camera layouts cvision_convert_raw understands.
enum { CVISION_RAW_YUYV = 0, CVISION_RAW_NV12 = 1, CVISION_RAW_I420 = 2, CVISION_RAW_RGB24 = 3, CVISION_RAW_BGR24 = 4, CVISION_RAW_GREY = 5 };

/// Converts one raw camera frame (width × height, `stride` bytes per row of the first plane)
/// straight into dst (BGR or gray). When dst is smaller the frame is also shrunk (area average).
int32_t cvision_convert_raw(int32_t layout, const uint8_t *src, size_t length, int32_t width, int32_t height,
                        size_t stride, cvision_view dst);

/// Packs a BGR or gray picture into YUYV 4:2:2 (BT.601, video range), the layout webcams and
/// virtual cameras hand to meeting programs; width must be even, dst holds stride × height bytes.
int32_t cvision_pack_yuyv(cvision_view src, uint8_t *dst, size_t dst_stride);

// MARK: - Audio

/// GCC-PHAT between two channels of `count` samples: the delay of `a` behind `b` in samples
/// (sub-sample, within ±max_lag) and the whitened correlation's peak (0…1, how clear it is).
int32_t cvision_gcc_phat(const float *a, const float *b, int32_t count, int32_t max_lag, double *lag, double *peak);

/// The first `count` samples of the linear convolution of x (count samples) with h (taps), into y.
int32_t cvision_convolve(const float *x, int32_t count, const float *h, int32_t taps, float *y);

/// Hann-windowed spectra of `count` samples of two channels, zero-padded to `size`: each
/// channel's power and the cross-spectrum a·conj(b), bins 0…size/2 (size/2 + 1 values each).
int32_t cvision_stereo_spectrum(const float *a, const float *b, int32_t count, int32_t size,
                                float *power_a, float *power_b, float *cross_re, float *cross_im);

// MARK: - Drawing (in place, BGR colours)

int32_t cvision_draw_rect(cvision_view image, int32_t x, int32_t y, int32_t width, int32_t height,
                      uint8_t b, uint8_t g, uint8_t r, int32_t thickness);
int32_t cvision_draw_line(cvision_view image, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                      uint8_t b, uint8_t g, uint8_t r, int32_t thickness);
int32_t cvision_draw_circle(cvision_view image, int32_t x, int32_t y, int32_t radius,
                        uint8_t b, uint8_t g, uint8_t r, int32_t thickness);
int32_t cvision_draw_text(cvision_view image, const char *text, int32_t x, int32_t y, double scale,
                      uint8_t b, uint8_t g, uint8_t r, int32_t thickness);

// MARK: - Face detection

typedef struct cvision_face {
    float x, y, width, height;     ///< pixels of the image passed in, top-left origin
    float landmarks[10];           ///< right eye, left eye, nose tip, right and left mouth corner (x, y)
    float score;
} cvision_face;

typedef struct cvision_yunet cvision_yunet;

/// Loads a YuNet 2022mar ONNX model. NULL on failure (unreadable or incompatible model).
cvision_yunet *cvision_yunet_create(const char *model_path, float score_threshold, float nms_threshold,
                            int32_t top_k);
/// Detects faces in image after shrinking it to input_width (aspect kept). Results are in the
/// pixels of image. Returns the number of faces written (at most capacity) or CVISION_ERROR.
int32_t cvision_yunet_detect(cvision_yunet *detector, cvision_view image, int32_t input_width,
                         cvision_face *faces, int32_t capacity);
void cvision_yunet_free(cvision_yunet *detector);

typedef struct cvision_cascade cvision_cascade;

/// Loads a Haar or LBP cascade XML file. NULL on failure.
cvision_cascade *cvision_cascade_create(const char *path);
/// Runs the cascade on image shrunk to input_width; faces carry no landmarks (zeros) and score 1.
int32_t cvision_cascade_detect(cvision_cascade *cascade, cvision_view image, int32_t input_width,
                           int32_t min_size, cvision_face *faces, int32_t capacity);
void cvision_cascade_free(cvision_cascade *cascade);

// MARK: - Face landmarks (MediaPipe FaceMesh)

typedef struct cvision_face_mesh cvision_face_mesh;

/// Loads the FaceMesh landmark model (ONNX, 1×3×192×192 input). NULL on failure.
cvision_face_mesh *cvision_face_mesh_create(const char *model_path);
/// The 468 landmarks of the face in the box (pixels of image, top-left origin): x, y in the
/// image's pixels and z (depth, same scale) per point into landmarks[468 × 3]; presence gets
/// the model's face-presence probability. CVISION_OK or CVISION_ERROR.
int32_t cvision_face_mesh_landmarks(cvision_face_mesh *mesh, cvision_view image, float x, float y, float width, float height,
                                float *landmarks, float *presence);
void cvision_face_mesh_free(cvision_face_mesh *mesh);

// MARK: - Calibration files

/// Reads an OpenCV calibration file (YAML or JSON, as cv::FileStorage and OpenCV's calibration
/// sample write them): camera_matrix (3×3) and image_width / image_height. k receives the
/// matrix row-major. Returns CVISION_OK or CVISION_ERROR with the reason.
int32_t cvision_read_calibration(const char *path, double *k, int32_t *width, int32_t *height);

// MARK: - DNN and HOG detectors

/// One box a detector found, in the pixels of the image it was given (top-left origin).
typedef struct cvision_object {
    float x, y, width, height;
    float score;
    /// 0 for one-class detectors; the COCO class index (0 = person) for YOLOX.
    int32_t class_id;
} cvision_object;

typedef enum cvision_dnn_kind {
    /// Ultra-Light RFB-320 faces (ONNX).
    CVISION_DNN_RFB_FACES = 1,
    /// SSDLite-MobileNetV2 persons (TensorFlow frozen graph + OpenCV text graph).
    CVISION_DNN_SSD_PERSONS = 2,
    /// YOLOX-nano, 80 COCO classes (ONNX, 416×416 letterbox).
    CVISION_DNN_YOLOX_OBJECTS = 3,
} cvision_dnn_kind;

typedef struct cvision_dnn_detector cvision_dnn_detector;

/// Loads a network; config_path is the text graph for CVISION_DNN_SSD_PERSONS, else NULL. NULL on failure.
cvision_dnn_detector *cvision_dnn_detector_create(cvision_dnn_kind kind, const char *model_path, const char *config_path);
/// The same network quantized to int8 on the first frame detected on that has contrast (the
/// frames before it get no boxes): a quarter of the memory, a little slower. SSDLite only.
cvision_dnn_detector *cvision_dnn_detector_create_int8(cvision_dnn_kind kind, const char *model_path,
                                                       const char *config_path);
/// Runs the network on the whole image (it resizes to its input itself). Returns the number of
/// boxes written (best first, overlaps suppressed) or CVISION_ERROR.
int32_t cvision_dnn_detector_detect(cvision_dnn_detector *detector, cvision_view image, float score_threshold,
                                cvision_object *objects, int32_t capacity);
void cvision_dnn_detector_free(cvision_dnn_detector *detector);

typedef struct cvision_hog cvision_hog;

/// OpenCV's built-in HOG + linear SVM people detector (64×128 window).
cvision_hog *cvision_hog_create(void);
/// Runs it on the image shrunk to input_width; scores map the SVM margin to 0…1.
int32_t cvision_hog_detect(cvision_hog *hog, cvision_view image, int32_t input_width, cvision_object *objects, int32_t capacity);
void cvision_hog_free(cvision_hog *hog);

// MARK: - Video files

typedef struct cvision_capture cvision_capture;

typedef struct cvision_capture_info {
    int32_t width;
    int32_t height;
    double fps;
    int64_t frame_count;   ///< -1 when the container does not say
    uint32_t fourcc;       ///< codec as four characters, little-endian
} cvision_capture_info;

/// Opens a video file. raw != 0 asks for undecoded packets (used for MJPEG); the info tells
/// what was opened. NULL on failure.
cvision_capture *cvision_capture_open(const char *path, int32_t raw, cvision_capture_info *info);
/// Reads the next frame: CVISION_OK, CVISION_END_OF_STREAM, or CVISION_ERROR.
/// The frame stays valid until the next read. In raw mode it is one row of encoded bytes.
int32_t cvision_capture_read(cvision_capture *capture, cvision_view *frame);
void cvision_capture_free(cvision_capture *capture);

typedef struct cvision_writer cvision_writer;

/// Opens a video writer; fourcc is four characters such as "MJPG". NULL on failure.
cvision_writer *cvision_writer_open(const char *path, const char *fourcc, double fps, int32_t width,
                            int32_t height);
int32_t cvision_writer_write(cvision_writer *writer, cvision_view frame);
void cvision_writer_free(cvision_writer *writer);

#ifdef __cplusplus
}
#endif

#endif
