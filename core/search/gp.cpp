// Gaussian-process regression and expected improvement (gp.h).
#include "core/search/gp.h"

#include <cmath>

namespace astrolabe::search {

namespace {
constexpr double kPi = 3.14159265358979323846;
} // namespace

double GaussianProcess::kernel(const std::vector<double>& a, const std::vector<double>& b) const {
    double d2 = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d2 += (a[i] - b[i]) * (a[i] - b[i]);
    return std::exp(-d2 / (2 * l_ * l_));
}

bool GaussianProcess::factor(double l, double& log_likelihood) {
    l_ = l;
    const size_t n = x_.size();
    for (double jitter : {0.0, 1e-6, 1e-4, 1e-2}) {
        chol_.assign(n * n, 0);
        bool ok = true;
        for (size_t i = 0; i < n && ok; ++i) {
            for (size_t j = 0; j <= i; ++j) {
                double s = kernel(x_[i], x_[j]) + (i == j ? noise_ + jitter : 0);
                for (size_t k = 0; k < j; ++k)
                    s -= chol_[i * n + k] * chol_[j * n + k];
                if (i == j) {
                    if (s <= 0) {
                        ok = false;
                        break;
                    }
                    chol_[i * n + i] = std::sqrt(s);
                } else {
                    chol_[i * n + j] = s / chol_[j * n + j];
                }
            }
        }
        if (!ok) continue;
        // alpha = L^-T L^-1 y
        std::vector<double> z(n);
        for (size_t i = 0; i < n; ++i) {
            double s = y_[i];
            for (size_t k = 0; k < i; ++k)
                s -= chol_[i * n + k] * z[k];
            z[i] = s / chol_[i * n + i];
        }
        alpha_.assign(n, 0);
        for (size_t i = n; i-- > 0;) {
            double s = z[i];
            for (size_t k = i + 1; k < n; ++k)
                s -= chol_[k * n + i] * alpha_[k];
            alpha_[i] = s / chol_[i * n + i];
        }
        log_likelihood = 0;
        for (size_t i = 0; i < n; ++i)
            log_likelihood += -0.5 * y_[i] * alpha_[i] - std::log(chol_[i * n + i]);
        log_likelihood -= 0.5 * double(n) * std::log(2 * kPi);
        return true;
    }
    return false;
}

bool GaussianProcess::fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                          bool choose_lengthscale) {
    x_ = x;
    const size_t n = y.size();
    y_mean_ = 0;
    for (double v : y)
        y_mean_ += v;
    y_mean_ /= double(n ? n : 1);
    double var = 0;
    for (double v : y)
        var += (v - y_mean_) * (v - y_mean_);
    y_sd_ = n > 1 ? std::sqrt(var / double(n - 1)) : 1;
    if (!(y_sd_ > 1e-12)) y_sd_ = 1;
    y_.resize(n);
    for (size_t i = 0; i < n; ++i)
        y_[i] = (y[i] - y_mean_) / y_sd_;
    if (n == 0) return false;
    const double dims = x[0].empty() ? 1 : double(x[0].size());
    if (choose_lengthscale) {
        double best_l = l_, best_ll = -INFINITY;
        for (double g : {0.05, 0.1, 0.2, 0.35, 0.6, 1.0}) {
            double l = g * std::sqrt(dims), ll = 0;
            if (factor(l, ll) && ll > best_ll) {
                best_ll = ll;
                best_l = l;
            }
        }
        l_ = best_l;
    }
    double ll = 0;
    return factor(l_, ll);
}

void GaussianProcess::predict(const std::vector<double>& x, double& mean, double& sd) const {
    const size_t n = x_.size();
    std::vector<double> k(n), v(n);
    double m = 0;
    for (size_t i = 0; i < n; ++i) {
        k[i] = kernel(x, x_[i]);
        m += k[i] * alpha_[i];
    }
    // v = L^-1 k; var = k(x, x) + noise - v.v
    double vv = 0;
    for (size_t i = 0; i < n; ++i) {
        double s = k[i];
        for (size_t j = 0; j < i; ++j)
            s -= chol_[i * n + j] * v[j];
        v[i] = s / chol_[i * n + i];
        vv += v[i] * v[i];
    }
    double var = 1 + noise_ - vv;
    mean = m * y_sd_ + y_mean_;
    sd = std::sqrt(var > 1e-12 ? var : 1e-12) * y_sd_;
}

double expected_improvement(double mean, double sd, double best, double xi) {
    double imp = best - mean - xi;
    if (sd <= 0) return imp > 0 ? imp : 0;
    double z = imp / sd;
    double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
    double pdf = std::exp(-0.5 * z * z) / std::sqrt(2 * kPi);
    return imp * cdf + sd * pdf;
}

} // namespace astrolabe::search
