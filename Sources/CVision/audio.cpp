#include "guard.hpp"
#include <opencv2/core.hpp>
#include <cmath>
#include <stdexcept>

using namespace cvs;

// A Hann taper of `count` samples of a and b into the starts of two zeroed rows: without it a
// window's abrupt edges, at the same index in both channels, correlate at lag 0.
static void hann_into(const float *a, const float *b, int count, cv::Mat &ta, cv::Mat &tb) {
    float *pa = ta.ptr<float>(), *pb = tb.ptr<float>();
    for (int i = 0; i < count; ++i) {
        float w = 0.5f - 0.5f * std::cos(2.0f * float(M_PI) * float(i) / float(count - 1));
        pa[i] = a[i] * w;
        pb[i] = b[i] * w;
    }
}

// GCC-PHAT: the cross-power spectrum of two channels, whitened (phase only), back to a
// correlation over lags; its peak is the delay, robust to reverberation and colouring.
extern "C" int32_t cvision_gcc_phat(const float *a, const float *b, int32_t count, int32_t max_lag,
                                double *lag, double *peak) {
    return guarded("gcc_phat", CVISION_ERROR, [&] {
        if (!a || !b || !lag || !peak || count < 8) throw std::invalid_argument("need two buffers of at least 8 samples");
        if (max_lag < 1 || max_lag >= count) throw std::invalid_argument("max_lag outside 1…count-1");
        int n = cv::getOptimalDFTSize(2 * count);
        cv::Mat ta = cv::Mat::zeros(1, n, CV_32F), tb = cv::Mat::zeros(1, n, CV_32F);
        // Untapered, the edges' lag-0 correlation outvotes the true delay of a loud tonal voice.
        hann_into(a, b, count, ta, tb);
        cv::Mat fa, fb, cross;
        cv::dft(ta, fa, cv::DFT_COMPLEX_OUTPUT);
        cv::dft(tb, fb, cv::DFT_COMPLEX_OUTPUT);
        cv::mulSpectrums(fa, fb, cross, 0, true);   // A · conj(B)
        auto *c = cross.ptr<cv::Vec2f>();
        for (int i = 0; i < n; ++i) {
            float magnitude = std::sqrt(c[i][0] * c[i][0] + c[i][1] * c[i][1]) + 1e-12f;
            c[i][0] /= magnitude;
            c[i][1] /= magnitude;
        }
        cv::Mat correlation;
        cv::idft(cross, correlation, cv::DFT_REAL_OUTPUT | cv::DFT_SCALE);
        const float *r = correlation.ptr<float>();
        auto at = [&](int k) { return r[(k % n + n) % n]; };
        int best = 0;
        for (int k = -max_lag; k <= max_lag; ++k) if (at(k) > at(best)) best = k;
        // Sub-sample: the vertex of the parabola through the peak and its neighbours.
        double y0 = at(best - 1), y1 = at(best), y2 = at(best + 1);
        double denominator = y0 - 2 * y1 + y2;
        double offset = std::abs(denominator) > 1e-12 ? 0.5 * (y0 - y2) / denominator : 0;
        *lag = best + std::max(-0.5, std::min(0.5, offset));
        *peak = y1;
        return CVISION_OK;
    });
}

// Linear convolution by one DFT of the whole signal: a room's impulse response is tens of
// thousands of taps long, far too many to apply sample by sample.
extern "C" int32_t cvision_convolve(const float *x, int32_t count, const float *h, int32_t taps, float *y) {
    return guarded("convolve", CVISION_ERROR, [&] {
        if (!x || !h || !y || count < 1 || taps < 1) throw std::invalid_argument("need a signal and a response");
        int n = cv::getOptimalDFTSize(count + taps - 1);
        cv::Mat tx = cv::Mat::zeros(1, n, CV_32F), th = cv::Mat::zeros(1, n, CV_32F);
        std::copy(x, x + count, tx.ptr<float>());
        std::copy(h, h + taps, th.ptr<float>());
        cv::Mat fx, fh, product, out;
        cv::dft(tx, fx, cv::DFT_COMPLEX_OUTPUT);
        cv::dft(th, fh, cv::DFT_COMPLEX_OUTPUT);
        cv::mulSpectrums(fx, fh, product, 0, false);
        cv::idft(product, out, cv::DFT_REAL_OUTPUT | cv::DFT_SCALE);
        std::copy(out.ptr<float>(), out.ptr<float>() + count, y);
        return CVISION_OK;
    });
}

// The Hann-windowed spectra of two channels and their cross-spectrum A·conj(B), bins 0…size/2.
extern "C" int32_t cvision_stereo_spectrum(const float *a, const float *b, int32_t count, int32_t size,
                                           float *power_a, float *power_b, float *cross_re, float *cross_im) {
    return guarded("stereo_spectrum", CVISION_ERROR, [&] {
        if (!a || !b || !power_a || !power_b || !cross_re || !cross_im || count < 8 || size < count)
            throw std::invalid_argument("need two buffers of at least 8 samples and a size at least as long");
        cv::Mat ta = cv::Mat::zeros(1, size, CV_32F), tb = cv::Mat::zeros(1, size, CV_32F);
        hann_into(a, b, count, ta, tb);
        cv::Mat fa, fb;
        cv::dft(ta, fa, cv::DFT_COMPLEX_OUTPUT);
        cv::dft(tb, fb, cv::DFT_COMPLEX_OUTPUT);
        const auto *sa = fa.ptr<cv::Vec2f>(), *sb = fb.ptr<cv::Vec2f>();
        for (int k = 0; k <= size / 2; ++k) {
            power_a[k] = sa[k][0] * sa[k][0] + sa[k][1] * sa[k][1];
            power_b[k] = sb[k][0] * sb[k][0] + sb[k][1] * sb[k][1];
            cross_re[k] = sa[k][0] * sb[k][0] + sa[k][1] * sb[k][1];
            cross_im[k] = sa[k][1] * sb[k][0] - sa[k][0] * sb[k][1];
        }
        return CVISION_OK;
    });
}
