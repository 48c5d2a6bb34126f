#include "guard.hpp"
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <algorithm>
#include <stdexcept>

struct cvision_yunet {
    cv::Ptr<cv::FaceDetectorYN> net;
    cv::Size inputSize;
    cv::Mat scaled;   // reused between calls
    cv::Mat padded;   // likewise, for inputs smaller than the network's deepest stride allows
};

struct cvision_cascade {
    cv::CascadeClassifier classifier;
    cv::Mat scaled, gray;
};

using cvs::guarded;
using cvs::mat;
using cvs::require;

namespace {

/// Shrinks image to input_width (never enlarges); returns the factor that maps back.
double shrink(const cv::Mat &image, int32_t input_width, cv::Mat &scaled, cv::Size &size) {
    int width = std::min(std::max(input_width, 16), image.cols);
    double factor = static_cast<double>(image.cols) / width;
    int height = std::max(1, static_cast<int>(std::lround(image.rows / factor)));
    size = cv::Size(width, height);
    if (size == image.size()) scaled = image;
    else cv::resize(image, scaled, size, 0, 0, cv::INTER_AREA);
    return factor;
}

}  // namespace

extern "C" cvision_yunet *cvision_yunet_create(const char *model_path, float score_threshold, float nms_threshold,
                                       int32_t top_k) {
    return guarded("yunet_create", static_cast<cvision_yunet *>(nullptr), [&]() -> cvision_yunet * {
        auto net = cv::FaceDetectorYN::create(model_path, "", cv::Size(320, 320), score_threshold,
                                              nms_threshold, top_k);
        if (net.empty()) throw std::runtime_error("YuNet model did not load");
        return new cvision_yunet{net, cv::Size(320, 320), {}};
    });
}

extern "C" int32_t cvision_yunet_detect(cvision_yunet *detector, cvision_view image, int32_t input_width, cvision_face *faces,
                                    int32_t capacity) {
    return guarded("yunet_detect", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat source = mat(image);
        cv::Mat bgr;
        if (image.channels == 1) cv::cvtColor(source, bgr, cv::COLOR_GRAY2BGR);
        else bgr = source;
        cv::Size size;
        double factor = shrink(bgr, input_width, detector->scaled, size);
        // YuNet halves its input five times; below 64 pixels a side its deepest pooling has
        // nothing left and OpenCV throws. Padding on the right and bottom keeps coordinates.
        cv::Mat input = detector->scaled;
        constexpr int smallestSide = 64;
        if (size.width < smallestSide || size.height < smallestSide) {
            cv::copyMakeBorder(detector->scaled, detector->padded, 0, std::max(0, smallestSide - size.height), 0,
                               std::max(0, smallestSide - size.width), cv::BORDER_CONSTANT, cv::Scalar::all(0));
            input = detector->padded;
            size = input.size();
        }
        if (size != detector->inputSize) {
            detector->net->setInputSize(size);
            detector->inputSize = size;
        }
        cv::Mat found;
        detector->net->detect(input, found);
        int32_t count = 0;
        for (int row = 0; row < found.rows && count < capacity; ++row, ++count) {
            const float *v = found.ptr<float>(row);
            cvision_face &face = faces[count];
            face.x = static_cast<float>(v[0] * factor);
            face.y = static_cast<float>(v[1] * factor);
            face.width = static_cast<float>(v[2] * factor);
            face.height = static_cast<float>(v[3] * factor);
            for (int i = 0; i < 10; ++i) face.landmarks[i] = static_cast<float>(v[4 + i] * factor);
            face.score = v[14];
        }
        return count;
    });
}

extern "C" void cvision_yunet_free(cvision_yunet *detector) { delete detector; }

extern "C" cvision_cascade *cvision_cascade_create(const char *path) {
    return guarded("cascade_create", static_cast<cvision_cascade *>(nullptr), [&]() -> cvision_cascade * {
        auto cascade = new cvision_cascade{};
        if (!cascade->classifier.load(path)) {
            delete cascade;
            throw std::runtime_error(std::string("cannot load cascade ") + path);
        }
        return cascade;
    });
}

extern "C" int32_t cvision_cascade_detect(cvision_cascade *cascade, cvision_view image, int32_t input_width, int32_t min_size,
                                      cvision_face *faces, int32_t capacity) {
    return guarded("cascade_detect", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Size size;
        double factor = shrink(mat(image), input_width, cascade->scaled, size);
        if (cascade->scaled.channels() == 3) cv::cvtColor(cascade->scaled, cascade->gray, cv::COLOR_BGR2GRAY);
        else cascade->gray = cascade->scaled;
        cv::equalizeHist(cascade->gray, cascade->gray);
        std::vector<cv::Rect> found;
        cascade->classifier.detectMultiScale(cascade->gray, found, 1.1, 4, 0, cv::Size(min_size, min_size));
        int32_t count = 0;
        for (const cv::Rect &r : found) {
            if (count >= capacity) break;
            cvision_face &face = faces[count++];
            face = cvision_face{};
            face.x = static_cast<float>(r.x * factor);
            face.y = static_cast<float>(r.y * factor);
            face.width = static_cast<float>(r.width * factor);
            face.height = static_cast<float>(r.height * factor);
            face.score = 1.0f;
        }
        return count;
    });
}

extern "C" void cvision_cascade_free(cvision_cascade *cascade) { delete cascade; }
