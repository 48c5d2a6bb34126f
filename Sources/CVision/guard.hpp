// Shared by every entry point: turns C++ exceptions into a status and a thread-local message.
#pragma once
#include <opencv2/core.hpp>
#include <string>
#include "CVision.h"

namespace cvs {

void set_error(const std::string &message);
void clear_error();

/// Runs body; any exception becomes `failure` with its message kept for cvision_last_error().
template <typename Result, typename Body>
Result guarded(const char *what, Result failure, Body body) noexcept {
    try {
        clear_error();
        return body();
    } catch (const cv::Exception &e) {
        set_error(std::string(what) + ": " + e.what());
    } catch (const std::exception &e) {
        set_error(std::string(what) + ": " + e.what());
    } catch (...) {
        set_error(std::string(what) + ": unknown C++ exception");
    }
    return failure;
}

/// A cv::Mat header over a view (no copy).
cv::Mat mat(const cvision_view &view);

/// Throws std::invalid_argument unless the view is a non-empty 8-bit 1- or 3-channel image.
void require(const cvision_view &view, const char *name);

}  // namespace cvs
