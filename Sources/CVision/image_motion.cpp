#include "guard.hpp"
#include <opencv2/imgproc.hpp>
#include <stdexcept>

using cvs::guarded;
using cvs::mat;
using cvs::require;

namespace {

/// A region of a view as floating-point gray.
cv::Mat gray_region(cvision_view view, int32_t x, int32_t y, int32_t width, int32_t height) {
    cv::Mat region = mat(view)(cv::Rect(x, y, width, height));
    cv::Mat gray;
    if (region.channels() == 3) {
        cv::cvtColor(region, gray, cv::COLOR_BGR2GRAY);
    } else {
        gray = region;
    }
    cv::Mat floating;
    gray.convertTo(floating, CV_32F);
    return floating;
}

}  // namespace

extern "C" int32_t cvision_phase_shift(cvision_view before, cvision_view after, int32_t x, int32_t y,
                                       int32_t width, int32_t height, int32_t after_x, int32_t after_y,
                                       double *shift_x, double *shift_y, double *response) {
    return guarded("phase_shift", CVISION_ERROR, [&] {
        require(before, "before");
        require(after, "after");
        if (before.width != after.width || before.height != after.height) {
            throw std::invalid_argument("the two pictures differ in size");
        }
        auto inside = [&](int32_t left, int32_t top) {
            return left >= 0 && top >= 0 && left + width <= before.width && top + height <= before.height;
        };
        if (width < 8 || height < 8 || !inside(x, y) || !inside(after_x, after_y)) {
            throw std::invalid_argument("the region is not inside the pictures");
        }
        cv::Mat a = gray_region(before, x, y, width, height);
        cv::Mat b = gray_region(after, after_x, after_y, width, height);
        cv::Mat window;
        cv::createHanningWindow(window, a.size(), CV_32F);
        double peak = 0;
        cv::Point2d shift = cv::phaseCorrelate(a, b, window, &peak);
        *shift_x = shift.x;
        *shift_y = shift.y;
        *response = peak;
        return CVISION_OK;
    });
}
