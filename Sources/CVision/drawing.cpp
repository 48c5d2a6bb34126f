#include "guard.hpp"
#include <opencv2/imgproc.hpp>

using cvs::guarded;
using cvs::mat;
using cvs::require;

extern "C" int32_t cvision_draw_rect(cvision_view image, int32_t x, int32_t y, int32_t width, int32_t height, uint8_t b,
                                 uint8_t g, uint8_t r, int32_t thickness) {
    return guarded("draw_rect", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat m = mat(image);
        cv::rectangle(m, cv::Rect(x, y, width, height), cv::Scalar(b, g, r), thickness, cv::LINE_AA);
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_draw_line(cvision_view image, int32_t x0, int32_t y0, int32_t x1, int32_t y1, uint8_t b,
                                 uint8_t g, uint8_t r, int32_t thickness) {
    return guarded("draw_line", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat m = mat(image);
        cv::line(m, cv::Point(x0, y0), cv::Point(x1, y1), cv::Scalar(b, g, r), thickness, cv::LINE_AA);
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_draw_circle(cvision_view image, int32_t x, int32_t y, int32_t radius, uint8_t b, uint8_t g,
                                   uint8_t r, int32_t thickness) {
    return guarded("draw_circle", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat m = mat(image);
        cv::circle(m, cv::Point(x, y), radius, cv::Scalar(b, g, r), thickness, cv::LINE_AA);
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_draw_text(cvision_view image, const char *text, int32_t x, int32_t y, double scale, uint8_t b,
                                 uint8_t g, uint8_t r, int32_t thickness) {
    return guarded("draw_text", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat m = mat(image);
        cv::putText(m, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(b, g, r), thickness,
                    cv::LINE_AA);
        return CVISION_OK;
    });
}
