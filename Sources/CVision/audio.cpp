#include "guard.hpp"
#include <opencv2/core.hpp>
#include <cmath>
#include <stdexcept>

using namespace cvs;

// GCC-PHAT: the cross-power spectrum of two channels, whitened (phase only), back to a
// correlation over lags; its peak is the delay, robust to reverberation and colouring.
extern "C" int32_t cvision_gcc_phat(const float *a, const float *b, int32_t count, int32_t max_lag,
                                double *lag, double *peak) {
    return guarded("gcc_phat", CVISION_ERROR, [&] {
        if (!a || !b || !lag || !peak || count < 8) throw std::invalid_argument("need two buffers of at least 8 samples");
        if (max_lag < 1 || max_lag >= count) throw std::invalid_argument("max_lag outside 1…count-1");
        int n = cv::getOptimalDFTSize(2 * count);
        cv::Mat ta = cv::Mat::zeros(1, n, CV_32F), tb = cv::Mat::zeros(1, n, CV_32F);
        // A Hann taper: without it the window's abrupt edges, at the same index in both
        // channels, correlate at lag 0 and outvote the true delay of a loud tonal voice.
        float *pa = ta.ptr<float>(), *pb = tb.ptr<float>();
        for (int i = 0; i < count; ++i) {
            float w = 0.5f - 0.5f * std::cos(2.0f * float(M_PI) * float(i) / float(count - 1));
            pa[i] = a[i] * w;
            pb[i] = b[i] * w;
        }
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
