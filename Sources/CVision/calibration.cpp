#include "guard.hpp"
#include <opencv2/core/persistence.hpp>
#include <stdexcept>

using cvs::guarded;

extern "C" int32_t cvision_read_calibration(const char *path, double *k, int32_t *width, int32_t *height) {
    return guarded("read_calibration", CVISION_ERROR, [&] {
        cv::FileStorage fs(path, cv::FileStorage::READ);
        if (!fs.isOpened()) throw std::runtime_error(std::string("cannot read calibration file ") + path);
        cv::Mat matrix;
        for (const char *key : {"camera_matrix", "cameraMatrix", "K"}) {
            if (!fs[key].empty()) {
                fs[key] >> matrix;
                break;
            }
        }
        if (matrix.empty()) throw std::runtime_error("no camera_matrix in the calibration file");
        if (matrix.rows != 3 || matrix.cols != 3) throw std::runtime_error("camera_matrix is not 3x3");
        matrix.convertTo(matrix, CV_64F);
        for (int i = 0; i < 9; ++i) k[i] = matrix.at<double>(i / 3, i % 3);
        int w = 0, h = 0;
        if (!fs["image_width"].empty()) fs["image_width"] >> w;
        if (!fs["image_height"].empty()) fs["image_height"] >> h;
        if ((w <= 0 || h <= 0) && !fs["image_size"].empty()) {
            std::vector<int> size;
            fs["image_size"] >> size;
            if (size.size() == 2) { w = size[0]; h = size[1]; }
        }
        if (w <= 0 || h <= 0) throw std::runtime_error("no image_width/image_height in the calibration file");
        *width = w;
        *height = h;
        return CVISION_OK;
    });
}
