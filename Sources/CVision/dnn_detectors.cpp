// Detectors on OpenCV's DNN module and HOG: the RFB-320 face detector, the SSDLite person
// detector, YOLOX-nano (80 COCO classes) and the built-in HOG people detector. Each takes a
// frame in its own pixels and returns boxes in those pixels.
#include "guard.hpp"
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <algorithm>
#include <cmath>
#include <malloc.h>
#include <stdexcept>

using cvs::guarded;
using cvs::mat;
using cvs::require;

struct cvision_dnn_detector {
    enum Kind { rfb, ssd, yolox } kind;
    cv::dnn::Net net;
    cv::Mat bgr, input;
    /// Still in floating point, to be quantized to int8 on the first frame with contrast.
    bool quantize_pending = false;
};

struct cvision_hog {
    cv::HOGDescriptor hog;
    cv::Mat scaled;
};

namespace {

cv::Mat as_bgr(const cvision_view &image, cv::Mat &storage) {
    cv::Mat source = mat(image);
    if (image.channels == 3) return source;
    cv::cvtColor(source, storage, cv::COLOR_GRAY2BGR);
    return storage;
}

/// Keeps the best boxes that overlap less than `nms` (per class) and writes up to capacity.
int32_t suppress_and_write(const std::vector<cv::Rect2d> &boxes, const std::vector<float> &scores,
                           const std::vector<int> &classes, float score_threshold, float nms,
                           cvision_object *objects, int32_t capacity) {
    // Per-class suppression in one pass (OpenCV 4.6 has no batched NMS): boxes of different
    // classes are moved apart so they never overlap.
    std::vector<int> keep;
    std::vector<cv::Rect2d> b(boxes.begin(), boxes.end());
    for (size_t i = 0; i < b.size(); ++i) b[i].x += classes[i] * 1e5;
    cv::dnn::NMSBoxes(b, scores, score_threshold, nms, keep);
    std::sort(keep.begin(), keep.end(), [&](int a, int c) { return scores[a] > scores[c]; });
    int32_t count = 0;
    for (int k : keep) {
        if (count >= capacity) break;
        cvision_object &o = objects[count++];
        o.x = static_cast<float>(boxes[k].x);
        o.y = static_cast<float>(boxes[k].y);
        o.width = static_cast<float>(boxes[k].width);
        o.height = static_cast<float>(boxes[k].height);
        o.score = scores[k];
        o.class_id = classes[k];
    }
    return count;
}

int32_t detect_rfb(cvision_dnn_detector *d, const cv::Mat &bgr, float threshold, cvision_object *objects, int32_t capacity) {
    d->input = cv::dnn::blobFromImage(bgr, 1.0 / 128, cv::Size(320, 240), cv::Scalar(127, 127, 127), true, false);
    d->net.setInput(d->input);
    std::vector<cv::Mat> outputs;
    d->net.forward(outputs, std::vector<cv::String>{"scores", "boxes"});
    // scores 1×N×2 (background, face), boxes 1×N×4 (normalized corners).
    const cv::Mat &scores = outputs[0], &corners = outputs[1];
    int n = scores.size[1];
    std::vector<cv::Rect2d> boxes;
    std::vector<float> confidences;
    std::vector<int> classes;
    const float *s = scores.ptr<float>();
    const float *c = corners.ptr<float>();
    for (int i = 0; i < n; ++i) {
        float score = s[2 * i + 1];
        if (score < threshold) continue;
        double x1 = c[4 * i] * bgr.cols, y1 = c[4 * i + 1] * bgr.rows;
        double x2 = c[4 * i + 2] * bgr.cols, y2 = c[4 * i + 3] * bgr.rows;
        boxes.emplace_back(x1, y1, x2 - x1, y2 - y1);
        confidences.push_back(score);
        classes.push_back(0);
    }
    return suppress_and_write(boxes, confidences, classes, threshold, 0.3f, objects, capacity);
}

int32_t detect_ssd(cvision_dnn_detector *d, const cv::Mat &bgr, float threshold, cvision_object *objects, int32_t capacity) {
    d->input = cv::dnn::blobFromImage(bgr, 1.0, cv::Size(300, 300), cv::Scalar(), true, false);
    d->net.setInput(d->input);
    cv::Mat out = d->net.forward();   // 1×1×N×7: image, class, score, x1, y1, x2, y2 (normalized)
    cv::Mat rows(out.size[2], out.size[3], CV_32F, out.ptr<float>());
    std::vector<cv::Rect2d> boxes;
    std::vector<float> confidences;
    std::vector<int> classes;
    for (int i = 0; i < rows.rows; ++i) {
        const float *v = rows.ptr<float>(i);
        if (v[2] < threshold) continue;
        double x1 = std::clamp(v[3], 0.f, 1.f) * bgr.cols, y1 = std::clamp(v[4], 0.f, 1.f) * bgr.rows;
        double x2 = std::clamp(v[5], 0.f, 1.f) * bgr.cols, y2 = std::clamp(v[6], 0.f, 1.f) * bgr.rows;
        if (x2 <= x1 || y2 <= y1) continue;
        boxes.emplace_back(x1, y1, x2 - x1, y2 - y1);
        confidences.push_back(v[2]);
        classes.push_back(0);
    }
    return suppress_and_write(boxes, confidences, classes, threshold, 0.45f, objects, capacity);
}

int32_t detect_yolox(cvision_dnn_detector *d, const cv::Mat &bgr, float threshold, cvision_object *objects, int32_t capacity) {
    const int side = 416;
    double ratio = std::min(static_cast<double>(side) / bgr.cols, static_cast<double>(side) / bgr.rows);
    cv::Mat letterbox(side, side, CV_8UC3, cv::Scalar(114, 114, 114));
    cv::Mat resized;
    cv::resize(bgr, resized, cv::Size(static_cast<int>(std::lround(bgr.cols * ratio)), static_cast<int>(std::lround(bgr.rows * ratio))));
    resized.copyTo(letterbox(cv::Rect(0, 0, resized.cols, resized.rows)));
    d->input = cv::dnn::blobFromImage(letterbox, 1.0, cv::Size(side, side), cv::Scalar(), false, false);
    d->net.setInput(d->input);
    cv::Mat out = d->net.forward();   // 1×3549×85: x, y, w, h (grid-relative), objectness, 80 classes
    int anchors = out.size[1], width = out.size[2];
    const float *v = out.ptr<float>();
    std::vector<cv::Rect2d> boxes;
    std::vector<float> confidences;
    std::vector<int> classes;
    int index = 0;
    for (int stride : {8, 16, 32}) {
        int cells = side / stride;
        for (int gy = 0; gy < cells; ++gy) {
            for (int gx = 0; gx < cells; ++gx, ++index) {
                if (index >= anchors) break;
                const float *row = v + static_cast<size_t>(index) * width;
                int best = static_cast<int>(std::max_element(row + 5, row + width) - (row + 5));
                float score = row[4] * row[5 + best];
                if (score < threshold) continue;
                double cx = (row[0] + gx) * stride, cy = (row[1] + gy) * stride;
                double w = std::exp(row[2]) * stride, h = std::exp(row[3]) * stride;
                boxes.emplace_back((cx - w / 2) / ratio, (cy - h / 2) / ratio, w / ratio, h / ratio);
                confidences.push_back(score);
                classes.push_back(best);
            }
        }
    }
    return suppress_and_write(boxes, confidences, classes, threshold, 0.45f, objects, capacity);
}

/// One forward pass on a blank input of the network's size: OpenCV sizes its layer buffers and
/// repacks the weights on the first pass, so this happens here, on the loading thread, before the
/// heap is trimmed of the importer's leftovers (3 MiB less at the peak with SSDLite), rather than
/// on the first frame. A network that cannot run is left to its first detection to report.
void warm_up(cvision_dnn_detector *d) {
    cv::Size size = d->kind == cvision_dnn_detector::rfb ? cv::Size(320, 240)
                  : d->kind == cvision_dnn_detector::ssd ? cv::Size(300, 300) : cv::Size(416, 416);
    try {
        d->net.setInput(cv::dnn::blobFromImage(cv::Mat::zeros(size, CV_8UC3)));
        d->net.forward();
    } catch (const cv::Exception &) {
    }
}

/// Quantizes the network to int8 with `frame` as calibration, shrunk to 96×96 so that the
/// floating-point pass it takes costs little memory: weights a quarter the size, activations too
/// (SSDLite: about 16 MiB held instead of 50). A frame without contrast (a camera still
/// adjusting its exposure, a covered lens) would give scales that clip real frames: it is not
/// used, and the call says so by returning false; the frame then goes without detections.
bool quantize_on(cvision_dnn_detector *d, const cv::Mat &frame) {
    cv::Mat small, gray;
    cv::resize(frame, small, cv::Size(96, 96), 0, 0, cv::INTER_AREA);
    cv::cvtColor(small, gray, cv::COLOR_BGR2GRAY);
    cv::Scalar mean, deviation;
    cv::meanStdDev(gray, mean, deviation);
    if (deviation[0] < 12) return false;
    std::vector<cv::Mat> calibration{cv::dnn::blobFromImage(small, 1.0, cv::Size(96, 96), cv::Scalar(), true, false)};
    cv::dnn::Net quantized = d->net.quantize(calibration, CV_32F, CV_32F);
    d->net = quantized;
    d->quantize_pending = false;
    // The floating-point weights are gone: give their pages back.
    malloc_trim(0);
    return true;
}

}  // namespace

extern "C" cvision_dnn_detector *cvision_dnn_detector_create_int8(cvision_dnn_kind kind, const char *model_path,
                                                                 const char *config_path) {
    return guarded("dnn_detector_create_int8", static_cast<cvision_dnn_detector *>(nullptr), [&]() -> cvision_dnn_detector * {
        if (kind != CVISION_DNN_SSD_PERSONS) throw std::invalid_argument("only the SSDLite persons network is quantized");
        auto d = new cvision_dnn_detector{};
        d->kind = cvision_dnn_detector::ssd;
        d->net = cv::dnn::readNetFromTensorflow(model_path, config_path ? config_path : "");
        if (d->net.empty()) {
            delete d;
            throw std::runtime_error("the network is empty");
        }
        d->quantize_pending = true;
        return d;
    });
}

extern "C" cvision_dnn_detector *cvision_dnn_detector_create(cvision_dnn_kind kind, const char *model_path, const char *config_path) {
    return guarded("dnn_detector_create", static_cast<cvision_dnn_detector *>(nullptr), [&]() -> cvision_dnn_detector * {
        auto d = new cvision_dnn_detector{};
        try {
            switch (kind) {
            case CVISION_DNN_RFB_FACES: d->kind = cvision_dnn_detector::rfb; d->net = cv::dnn::readNetFromONNX(model_path); break;
            case CVISION_DNN_SSD_PERSONS:
                d->kind = cvision_dnn_detector::ssd;
                d->net = cv::dnn::readNetFromTensorflow(model_path, config_path ? config_path : "");
                break;
            case CVISION_DNN_YOLOX_OBJECTS: d->kind = cvision_dnn_detector::yolox; d->net = cv::dnn::readNetFromONNX(model_path); break;
            default: throw std::invalid_argument("unknown detector kind");
            }
            if (d->net.empty()) throw std::runtime_error("the network is empty");
            warm_up(d);
        } catch (...) {
            delete d;
            throw;
        }
        return d;
    });
}

extern "C" int32_t cvision_dnn_detector_detect(cvision_dnn_detector *d, cvision_view image, float score_threshold,
                                           cvision_object *objects, int32_t capacity) {
    return guarded("dnn_detector_detect", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat bgr = as_bgr(image, d->bgr);
        if (d->quantize_pending && !quantize_on(d, bgr)) return 0;
        switch (d->kind) {
        case cvision_dnn_detector::rfb: return detect_rfb(d, bgr, score_threshold, objects, capacity);
        case cvision_dnn_detector::ssd: return detect_ssd(d, bgr, score_threshold, objects, capacity);
        case cvision_dnn_detector::yolox: return detect_yolox(d, bgr, score_threshold, objects, capacity);
        }
        return 0;
    });
}

extern "C" void cvision_dnn_detector_free(cvision_dnn_detector *d) { delete d; }

extern "C" cvision_hog *cvision_hog_create(void) {
    return guarded("hog_create", static_cast<cvision_hog *>(nullptr), [&]() -> cvision_hog * {
        auto h = new cvision_hog{};
        h->hog.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
        return h;
    });
}

extern "C" int32_t cvision_hog_detect(cvision_hog *h, cvision_view image, int32_t input_width, cvision_object *objects, int32_t capacity) {
    return guarded("hog_detect", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat source = mat(image);
        int width = std::min(std::max(input_width, 64), source.cols);
        double factor = static_cast<double>(source.cols) / width;
        cv::Size size(width, std::max(128, static_cast<int>(std::lround(source.rows / factor))));
        if (size == source.size()) h->scaled = source;
        else cv::resize(source, h->scaled, size, 0, 0, cv::INTER_AREA);
        std::vector<cv::Rect> found;
        std::vector<double> weights;
        h->hog.detectMultiScale(h->scaled, found, weights, 0, cv::Size(8, 8), cv::Size(), 1.05, 2.0);
        int32_t count = 0;
        for (size_t i = 0; i < found.size() && count < capacity; ++i) {
            // The 64×128 window keeps a margin around the person (about a tenth of its width
            // each side, 7 % above); report the person, not the window.
            const cv::Rect &r = found[i];
            cvision_object &o = objects[count++];
            o.x = static_cast<float>((r.x + 0.1 * r.width) * factor);
            o.y = static_cast<float>((r.y + 0.07 * r.height) * factor);
            o.width = static_cast<float>(0.8 * r.width * factor);
            o.height = static_cast<float>(0.8 * r.height * factor);
            // SVM margin → 0…1: about 0.5 at the decision boundary's usual working point.
            o.score = static_cast<float>(1.0 / (1.0 + std::exp(-2.0 * weights[i])));
            o.class_id = 0;
        }
        return count;
    });
}

extern "C" void cvision_hog_free(cvision_hog *h) { delete h; }
