#include "guard.hpp"
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>
#include <cmath>
#include <stdexcept>

using namespace cvs;

struct cvision_face_mesh {
    cv::dnn::Net net;
    cv::Mat crop, rgb;
};

extern "C" cvision_face_mesh *cvision_face_mesh_create(const char *model_path) {
    return guarded("face_mesh_create", static_cast<cvision_face_mesh *>(nullptr), [&]() -> cvision_face_mesh * {
        auto m = new cvision_face_mesh{};
        try {
            m->net = cv::dnn::readNetFromONNX(model_path);
            if (m->net.empty()) throw std::runtime_error("the network is empty");
        } catch (...) {
            delete m;
            throw;
        }
        return m;
    });
}

// FaceMesh wants the face centred in a square about 1.5× the detector's box, 192×192 RGB in
// 0…1; it answers 468 points in the crop's pixels and a face-presence logit.
extern "C" int32_t cvision_face_mesh_landmarks(cvision_face_mesh *m, cvision_view image, float x, float y, float width, float height,
                                          float *landmarks, float *presence) {
    return guarded("face_mesh_landmarks", CVISION_ERROR, [&] {
        require(image, "image");
        if (!landmarks || !presence) throw std::invalid_argument("no output buffers");
        if (!(width > 1 && height > 1) || !std::isfinite(x) || !std::isfinite(y)) throw std::invalid_argument("face box is empty");
        cv::Mat source = mat(image);
        const float side = 1.5f * std::max(width, height);
        const float left = x + width / 2 - side / 2, top = y + height / 2 - side / 2;
        const int size = 192;
        const float scale = size / side;
        // An affine warp crops and scales in one step; outside the image stays black.
        cv::Matx23f warp(scale, 0, -left * scale, 0, scale, -top * scale);
        cv::warpAffine(source, m->crop, warp, cv::Size(size, size), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
        if (image.channels == 3) cv::cvtColor(m->crop, m->rgb, cv::COLOR_BGR2RGB);
        else cv::cvtColor(m->crop, m->rgb, cv::COLOR_GRAY2RGB);
        cv::Mat blob = cv::dnn::blobFromImage(m->rgb, 1.0 / 255, cv::Size(size, size), cv::Scalar(), false, false);
        m->net.setInput(blob);
        std::vector<cv::Mat> outputs;
        m->net.forward(outputs, std::vector<cv::String>{"conv2d_21", "conv2d_31"});
        if (outputs.size() != 2 || outputs[0].total() < 468 * 3 || outputs[1].total() < 1)
            throw std::runtime_error("unexpected outputs: is this the FaceMesh landmark model?");
        const float *points = outputs[0].ptr<float>();
        for (int i = 0; i < 468; ++i) {
            landmarks[3 * i] = left + points[3 * i] / scale;
            landmarks[3 * i + 1] = top + points[3 * i + 1] / scale;
            landmarks[3 * i + 2] = points[3 * i + 2] / scale;
        }
        *presence = 1.0f / (1.0f + std::exp(-outputs[1].ptr<float>()[0]));
        return CVISION_OK;
    });
}

extern "C" void cvision_face_mesh_free(cvision_face_mesh *m) { delete m; }
