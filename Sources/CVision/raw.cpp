#include "guard.hpp"
#include <opencv2/imgproc.hpp>
#include <stdexcept>

using cvs::guarded;
using cvs::mat;
using cvs::require;

namespace {

/// Bytes a layout needs for width × height with the given first-plane stride.
size_t needed(int32_t layout, int32_t width, int32_t height, size_t stride) {
    switch (layout) {
    case CVISION_RAW_NV12:
    case CVISION_RAW_I420: return stride * height * 3 / 2;
    default: return stride * height;
    }
}

/// Converts src into out (same size), BGR or gray as out asks.
void convert(int32_t layout, const uint8_t *src, int32_t width, int32_t height, size_t stride, cv::Mat &out) {
    auto *data = const_cast<uint8_t *>(src);
    bool gray = out.channels() == 1;
    switch (layout) {
    case CVISION_RAW_YUYV: {
        cv::Mat in(height, width, CV_8UC2, data, stride);
        cv::cvtColor(in, out, gray ? cv::COLOR_YUV2GRAY_YUYV : cv::COLOR_YUV2BGR_YUYV);
        break;
    }
    case CVISION_RAW_NV12:
    case CVISION_RAW_I420: {
        cv::Mat in(height * 3 / 2, width, CV_8UC1, data, stride);
        if (gray) cv::Mat(height, width, CV_8UC1, data, stride).copyTo(out);
        else cv::cvtColor(in, out, layout == CVISION_RAW_NV12 ? cv::COLOR_YUV2BGR_NV12 : cv::COLOR_YUV2BGR_I420);
        break;
    }
    case CVISION_RAW_RGB24:
    case CVISION_RAW_BGR24: {
        cv::Mat in(height, width, CV_8UC3, data, stride);
        if (gray) cv::cvtColor(in, out, layout == CVISION_RAW_RGB24 ? cv::COLOR_RGB2GRAY : cv::COLOR_BGR2GRAY);
        else if (layout == CVISION_RAW_RGB24) cv::cvtColor(in, out, cv::COLOR_RGB2BGR);
        else in.copyTo(out);
        break;
    }
    case CVISION_RAW_GREY: {
        cv::Mat in(height, width, CV_8UC1, data, stride);
        if (gray) in.copyTo(out);
        else cv::cvtColor(in, out, cv::COLOR_GRAY2BGR);
        break;
    }
    default: throw std::invalid_argument("unknown raw layout");
    }
}

}  // namespace

extern "C" int32_t cvision_convert_raw(int32_t layout, const uint8_t *src, size_t length, int32_t width, int32_t height,
                                   size_t stride, cvision_view dst) {
    return guarded("convert_raw", CVISION_ERROR, [&] {
        require(dst, "destination");
        if (src == nullptr || width <= 0 || height <= 0) throw std::invalid_argument("empty source frame");
        if (length < needed(layout, width, height, stride))
            throw std::invalid_argument("source frame is shorter than its format needs (truncated buffer)");
        cv::Mat out = mat(dst);
        if (dst.width == width && dst.height == height) {
            // Written straight into the destination: no intermediate copy.
            convert(layout, src, width, height, stride, out);
        } else {
            thread_local cv::Mat full;
            full.create(height, width, out.type());
            convert(layout, src, width, height, stride, full);
            cv::resize(full, out, out.size(), 0, 0, cv::INTER_AREA);
        }
        return CVISION_OK;
    });
}

namespace {

/// BT.601 video-range luma and chroma of one BGR pixel, in 8-bit fixed point.
inline int luma(int b, int g, int r) { return ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16; }
inline int blue_difference(int b, int g, int r) { return ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128; }
inline int red_difference(int b, int g, int r) { return ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128; }

}  // namespace

extern "C" int32_t cvision_pack_yuyv(cvision_view src, uint8_t *dst, size_t dst_stride) {
    return guarded("pack_yuyv", CVISION_ERROR, [&] {
        require(src, "source");
        if (dst == nullptr) throw std::invalid_argument("no destination");
        if (src.width % 2 != 0) throw std::invalid_argument("YUYV needs an even width");
        if (dst_stride < size_t(src.width) * 2) throw std::invalid_argument("destination rows are too short");
        for (int32_t y = 0; y < src.height; y++) {
            const uint8_t *in = src.data + size_t(y) * src.stride;
            uint8_t *out = dst + size_t(y) * dst_stride;
            if (src.channels == 1) {
                for (int32_t x = 0; x < src.width; x++) {
                    out[2 * x] = uint8_t(16 + (in[x] * 219 + 127) / 255);
                    out[2 * x + 1] = 128;
                }
                continue;
            }
            for (int32_t x = 0; x < src.width; x += 2, in += 6, out += 4) {
                // Chroma is shared by the pair: taken from their average.
                int b = (in[0] + in[3] + 1) / 2, g = (in[1] + in[4] + 1) / 2, r = (in[2] + in[5] + 1) / 2;
                out[0] = uint8_t(luma(in[0], in[1], in[2]));
                out[1] = uint8_t(blue_difference(b, g, r));
                out[2] = uint8_t(luma(in[3], in[4], in[5]));
                out[3] = uint8_t(red_difference(b, g, r));
            }
        }
        return CVISION_OK;
    });
}
