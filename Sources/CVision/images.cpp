#include "guard.hpp"
#include "owned_image.hpp"
#include <opencv2/imgproc.hpp>
#include <cstring>
#include <stdexcept>


using cvs::guarded;
using cvs::mat;
using cvs::require;

extern "C" cvision_view cvision_image_view(const cvision_image *image) {
    const cv::Mat &m = image->pixels;
    return cvision_view{m.data, m.cols, m.rows, m.channels(), m.step[0]};
}

extern "C" void cvision_image_free(cvision_image *image) { delete image; }

extern "C" int32_t cvision_resize(cvision_view src, cvision_view dst, int32_t interpolation) {
    return guarded("resize", CVISION_ERROR, [&] {
        require(src, "source");
        require(dst, "destination");
        if (src.channels != dst.channels) throw std::invalid_argument("channel counts differ");
        cv::Mat out = mat(dst);
        cv::resize(mat(src), out, out.size(), 0, 0, interpolation);
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_convert_channels(cvision_view src, cvision_view dst) {
    return guarded("convert_channels", CVISION_ERROR, [&] {
        require(src, "source");
        require(dst, "destination");
        if (src.width != dst.width || src.height != dst.height)
            throw std::invalid_argument("sizes differ");
        cv::Mat out = mat(dst);
        if (src.channels == dst.channels) mat(src).copyTo(out);
        else cv::cvtColor(mat(src), out, src.channels == 3 ? cv::COLOR_BGR2GRAY : cv::COLOR_GRAY2BGR);
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_warp_perspective(cvision_view src, cvision_view dst, const double *h, int32_t border_gray) {
    return guarded("warp_perspective", CVISION_ERROR, [&] {
        require(src, "source");
        require(dst, "destination");
        if (src.channels != dst.channels) throw std::invalid_argument("channel counts differ");
        cv::Mat homography(3, 3, CV_64F, const_cast<double *>(h));
        cv::Mat out = mat(dst);
        cv::warpPerspective(mat(src), out, homography, out.size(),
                            cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT,
                            cv::Scalar::all(border_gray));
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_blend_sprite(cvision_view dst, cvision_view sprite, cvision_view alpha, int32_t x, int32_t y,
                                    int32_t width, int32_t height) {
    return guarded("blend_sprite", CVISION_ERROR, [&] {
        require(dst, "destination");
        require(sprite, "sprite");
        if (sprite.channels != dst.channels) throw std::invalid_argument("channel counts differ");
        if (width <= 0 || height <= 0) return CVISION_OK;
        cv::Rect placed(x, y, width, height);
        cv::Rect visible = placed & cv::Rect(0, 0, dst.width, dst.height);
        if (visible.empty()) return CVISION_OK;

        cv::Mat scaled;
        cv::resize(mat(sprite), scaled, placed.size(), 0, 0, cv::INTER_LINEAR);
        cv::Rect inSprite = visible - placed.tl();
        cv::Mat target = mat(dst)(visible);
        if (alpha.data == nullptr) {
            scaled(inSprite).copyTo(target);
            return CVISION_OK;
        }
        require(alpha, "alpha");
        cv::Mat mask;
        cv::resize(mat(alpha), mask, placed.size(), 0, 0, cv::INTER_LINEAR);
        cv::Mat maskF, maskC;
        mask(inSprite).convertTo(maskF, CV_32F, 1.0 / 255.0);
        if (dst.channels == 3) cv::merge(std::vector<cv::Mat>{maskF, maskF, maskF}, maskC);
        else maskC = maskF;
        cv::Mat fg, bg;
        scaled(inSprite).convertTo(fg, CV_32F);
        target.convertTo(bg, CV_32F);
        cv::Mat blended = fg.mul(maskC) + bg.mul(cv::Scalar::all(1.0) - maskC);
        blended.convertTo(target, target.type());
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_blur(cvision_view image, double sigma) {
    return guarded("blur", CVISION_ERROR, [&] {
        require(image, "image");
        if (sigma <= 0) return CVISION_OK;
        cv::Mat m = mat(image);
        cv::GaussianBlur(m, m, cv::Size(0, 0), sigma);
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_add_noise(cvision_view image, double sigma, uint64_t seed) {
    return guarded("add_noise", CVISION_ERROR, [&] {
        require(image, "image");
        if (sigma <= 0) return CVISION_OK;
        cv::Mat m = mat(image);
        cv::Mat noise(m.size(), CV_16SC(m.channels()));
        cv::RNG rng(seed);
        rng.fill(noise, cv::RNG::NORMAL, cv::Scalar::all(0), cv::Scalar::all(sigma));
        cv::Mat wide;
        m.convertTo(wide, CV_16SC(m.channels()));
        wide += noise;
        wide.convertTo(m, m.type());
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_motion_blur(cvision_view image, int32_t length) {
    return guarded("motion_blur", CVISION_ERROR, [&] {
        require(image, "image");
        if (length <= 1) return CVISION_OK;
        cv::Mat m = mat(image);
        cv::blur(m, m, cv::Size(length, 1), cv::Point(-1, -1), cv::BORDER_REPLICATE);
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_scale_levels(cvision_view image, double gain, double offset) {
    return guarded("scale_levels", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat m = mat(image);
        m.convertTo(m, m.type(), gain, offset);
        return CVISION_OK;
    });
}

extern "C" int32_t cvision_flip_horizontal(cvision_view image) {
    return guarded("flip", CVISION_ERROR, [&] {
        require(image, "image");
        cv::Mat m = mat(image);
        cv::flip(m, m, 1);
        return CVISION_OK;
    });
}

