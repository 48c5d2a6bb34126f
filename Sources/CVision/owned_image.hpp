// An image the shim owns (cvision_image): read from a file, or a copy of one.
#pragma once
#include <opencv2/core.hpp>

struct cvision_image {
    cv::Mat pixels;
};
