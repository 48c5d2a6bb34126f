// The shim's recording, video-file and image-file calls, forwarded to libOpenDockMedia.so. Each
// entry point is looked up once (a failed lookup is tried again on the next call). A failure
// inside the library keeps its message; one that cannot be loaded says how to get it.
#include "guard.hpp"
#include "media_library.hpp"
#include "owned_image.hpp"

using cvs::guarded;
using cvs::media_entry;

namespace {
/// A failed call's status, with the media library's message made this shim's.
template <typename Result>
Result relayed(Result result, Result failure) {
    if (result == failure) cvs::set_error(cvs::media_error());
    return result;
}
}  // namespace

extern "C" cvision_capture *cvision_capture_open(const char *path, int32_t raw, cvision_capture_info *info) {
    return guarded("capture_open", static_cast<cvision_capture *>(nullptr), [&] {
        static auto *const open = media_entry<cvision_capture *(const char *, int32_t, cvision_capture_info *)>(
            "cvisionmedia_capture_open");
        return relayed(open(path, raw, info), static_cast<cvision_capture *>(nullptr));
    });
}

extern "C" int32_t cvision_capture_read(cvision_capture *capture, cvision_view *frame) {
    return guarded("capture_read", CVISION_ERROR, [&] {
        static auto *const read = media_entry<int32_t(cvision_capture *, cvision_view *)>("cvisionmedia_capture_read");
        return relayed(read(capture, frame), CVISION_ERROR);
    });
}

extern "C" void cvision_capture_free(cvision_capture *capture) {
    guarded("capture_free", 0, [&] {
        static auto *const release = media_entry<void(cvision_capture *)>("cvisionmedia_capture_free");
        release(capture);
        return 0;
    });
}

extern "C" cvision_writer *cvision_writer_open(const char *path, const char *fourcc, double fps, int32_t width,
                                               int32_t height) {
    return guarded("writer_open", static_cast<cvision_writer *>(nullptr), [&] {
        static auto *const open = media_entry<cvision_writer *(const char *, const char *, double, int32_t, int32_t)>(
            "cvisionmedia_writer_open");
        return relayed(open(path, fourcc, fps, width, height), static_cast<cvision_writer *>(nullptr));
    });
}

extern "C" int32_t cvision_writer_write(cvision_writer *writer, cvision_view frame) {
    return guarded("writer_write", CVISION_ERROR, [&] {
        static auto *const write = media_entry<int32_t(cvision_writer *, cvision_view)>("cvisionmedia_writer_write");
        return relayed(write(writer, frame), CVISION_ERROR);
    });
}

extern "C" void cvision_writer_free(cvision_writer *writer) {
    guarded("writer_free", 0, [&] {
        static auto *const release = media_entry<void(cvision_writer *)>("cvisionmedia_writer_free");
        release(writer);
        return 0;
    });
}

extern "C" cvision_image *cvision_image_read(const char *path, int32_t gray) {
    return guarded("image_read", static_cast<cvision_image *>(nullptr), [&]() -> cvision_image * {
        cvision_view pixels{};
        static auto *const read =
            media_entry<void *(const char *, int32_t, cvision_view *)>("cvisionmedia_image_read");
        static auto *const release = media_entry<void(void *)>("cvisionmedia_image_free");
        void *file = read(path, gray, &pixels);
        if (file == nullptr) {
            cvs::set_error(cvs::media_error());
            return nullptr;
        }
        // Copied into the shim's own image, so that it is freed where it was made.
        cv::Mat copy = cvs::mat(pixels).clone();
        release(file);
        return new cvision_image{copy};
    });
}

extern "C" int32_t cvision_image_write(const char *path, cvision_view image) {
    return guarded("image_write", CVISION_ERROR, [&] {
        static auto *const write = media_entry<int32_t(const char *, cvision_view)>("cvisionmedia_image_write");
        return relayed(write(path, image), CVISION_ERROR);
    });
}

extern "C" int32_t cvision_jpeg_round_trip(cvision_view image, int32_t quality) {
    return guarded("jpeg_round_trip", CVISION_ERROR, [&] {
        static auto *const roundTrip = media_entry<int32_t(cvision_view, int32_t)>("cvisionmedia_jpeg_round_trip");
        return relayed(roundTrip(image, quality), CVISION_ERROR);
    });
}
