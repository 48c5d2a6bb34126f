#include "media.hpp"
#include <opencv2/videoio.hpp>
#include <cstdlib>
#include <stdexcept>

namespace {
/// FFmpeg prints its own complaints (e.g. "moov atom not found") on stderr; the shim reports
/// failures through cvision_last_error instead. A user's OPENCV_FFMPEG_LOGLEVEL still wins.
void quiet_ffmpeg() {
    static const bool done = [] {
        setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0);
        return true;
    }();
    (void)done;
}
}  // namespace

struct cvision_capture {
    cv::VideoCapture capture;
    cv::Mat frame;
    bool raw;
};

struct cvision_writer {
    cv::VideoWriter writer;
    cv::Size size;
};

using cvs::guarded;
using cvs::mat;
using cvs::require;

CVISIONMEDIA_EXPORT cvision_capture *cvisionmedia_capture_open(const char *path, int32_t raw, cvision_capture_info *info) {
    return guarded("capture_open", static_cast<cvision_capture *>(nullptr), [&]() -> cvision_capture * {
        quiet_ffmpeg();
        auto capture = new cvision_capture{};
        capture->raw = raw != 0;
        bool opened = capture->raw
            ? capture->capture.open(path, cv::CAP_FFMPEG, std::vector<int>{cv::CAP_PROP_FORMAT, -1})
            : capture->capture.open(path, cv::CAP_FFMPEG);
        if (!opened || !capture->capture.isOpened()) {
            delete capture;
            throw std::runtime_error(std::string("cannot open video ") + path);
        }
        if (info != nullptr) {
            info->width = static_cast<int32_t>(capture->capture.get(cv::CAP_PROP_FRAME_WIDTH));
            info->height = static_cast<int32_t>(capture->capture.get(cv::CAP_PROP_FRAME_HEIGHT));
            info->fps = capture->capture.get(cv::CAP_PROP_FPS);
            double count = capture->capture.get(cv::CAP_PROP_FRAME_COUNT);
            info->frame_count = count > 0 ? static_cast<int64_t>(count) : -1;
            info->fourcc = static_cast<uint32_t>(capture->capture.get(cv::CAP_PROP_FOURCC));
        }
        return capture;
    });
}

CVISIONMEDIA_EXPORT int32_t cvisionmedia_capture_read(cvision_capture *capture, cvision_view *frame) {
    return guarded("capture_read", CVISION_ERROR, [&] {
        if (!capture->capture.read(capture->frame) || capture->frame.empty()) return CVISION_END_OF_STREAM;
        cv::Mat &m = capture->frame;
        if (!m.isContinuous()) m = m.clone();
        if (capture->raw) {
            *frame = cvision_view{m.data, static_cast<int32_t>(m.total() * m.elemSize()), 1, 1,
                              m.total() * m.elemSize()};
        } else {
            if (m.depth() != CV_8U || (m.channels() != 3 && m.channels() != 1))
                throw std::runtime_error("decoded frame is not 8-bit BGR or gray");
            *frame = cvision_view{m.data, m.cols, m.rows, m.channels(), m.step[0]};
        }
        return CVISION_OK;
    });
}

CVISIONMEDIA_EXPORT void cvisionmedia_capture_free(cvision_capture *capture) { delete capture; }

CVISIONMEDIA_EXPORT cvision_writer *cvisionmedia_writer_open(const char *path, const char *fourcc, double fps, int32_t width,
                                       int32_t height) {
    return guarded("writer_open", static_cast<cvision_writer *>(nullptr), [&]() -> cvision_writer * {
        quiet_ffmpeg();
        if (std::char_traits<char>::length(fourcc) != 4) throw std::invalid_argument("fourcc must be 4 characters");
        auto writer = new cvision_writer{};
        writer->size = cv::Size(width, height);
        int code = cv::VideoWriter::fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
        if (!writer->writer.open(path, cv::CAP_FFMPEG, code, fps, writer->size, true)) {
            delete writer;
            throw std::runtime_error(std::string("cannot open video writer for ") + path);
        }
        return writer;
    });
}

CVISIONMEDIA_EXPORT int32_t cvisionmedia_writer_write(cvision_writer *writer, cvision_view frame) {
    return guarded("writer_write", CVISION_ERROR, [&] {
        require(frame, "frame");
        if (frame.width != writer->size.width || frame.height != writer->size.height || frame.channels != 3)
            throw std::invalid_argument("frame size or channels differ from the writer's");
        writer->writer.write(mat(frame));
        return CVISION_OK;
    });
}

CVISIONMEDIA_EXPORT void cvisionmedia_writer_free(cvision_writer *writer) { delete writer; }
