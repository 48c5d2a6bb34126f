#include "media.hpp"
#include <opencv2/imgcodecs.hpp>
#include <stdexcept>

using cvs::guarded;
using cvs::mat;
using cvs::require;

namespace {
struct image_file {
    cv::Mat pixels;
};
}  // namespace

CVISIONMEDIA_EXPORT void *cvisionmedia_image_read(const char *path, int32_t gray, cvision_view *pixels) {
    return guarded("image_read", static_cast<void *>(nullptr), [&]() -> void * {
        cv::Mat read = cv::imread(path, gray ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR);
        if (read.empty()) throw std::runtime_error(std::string("cannot read image ") + path);
        auto image = new image_file{read};
        *pixels = cvision_view{image->pixels.data, read.cols, read.rows, read.channels(), read.step[0]};
        return image;
    });
}

CVISIONMEDIA_EXPORT void cvisionmedia_image_free(void *image) { delete static_cast<image_file *>(image); }

CVISIONMEDIA_EXPORT int32_t cvisionmedia_image_write(const char *path, cvision_view image) {
    return guarded("image_write", CVISION_ERROR, [&] {
        require(image, "image");
        if (!cv::imwrite(path, mat(image))) throw std::runtime_error(std::string("cannot write ") + path);
        return CVISION_OK;
    });
}

CVISIONMEDIA_EXPORT int32_t cvisionmedia_jpeg_round_trip(cvision_view image, int32_t quality) {
    return guarded("jpeg_round_trip", CVISION_ERROR, [&] {
        require(image, "image");
        if (quality < 1 || quality > 100) throw std::invalid_argument("quality outside 1...100");
        cv::Mat m = mat(image);
        std::vector<uint8_t> bytes;
        cv::imencode(".jpg", m, bytes, {cv::IMWRITE_JPEG_QUALITY, quality});
        cv::Mat decoded = cv::imdecode(bytes, m.channels() == 1 ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR);
        if (decoded.size() != m.size() || decoded.type() != m.type()) throw std::runtime_error("decoded JPEG differs in shape");
        decoded.copyTo(m);
        return CVISION_OK;
    });
}
