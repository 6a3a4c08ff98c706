// Gaussian-process regression for the Bayesian-optimisation agent: a squared-exponential kernel over
// points in [0, 1]^d, targets standardised inside, a small Cholesky of our own (n stays in the hundreds).
//
//   k(a, b) = exp(-|a - b|^2 / (2 l^2)),  K = k(X, X) + noise * I,  alpha = K^-1 y
//   mean(x) = k(x, X) alpha,  var(x) = 1 + noise - k(x, X) K^-1 k(X, x)      (in standardised units)
// The lengthscale l is chosen from a fixed grid by the log marginal likelihood
//   -1/2 y^T alpha - sum_i log L_ii - n/2 log(2 pi).
#pragma once

#include <vector>

namespace astrolabe::search {

class GaussianProcess {
public:
    // Fits the data; picks the lengthscale when `choose_lengthscale`, else keeps the last one. False when
    // the kernel matrix is not positive definite even with extra jitter (should not happen).
    bool fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
             bool choose_lengthscale = true);
    // Mean and standard deviation at x, in the units of y.
    void predict(const std::vector<double>& x, double& mean, double& sd) const;
    double lengthscale() const { return l_; }

private:
    double kernel(const std::vector<double>& a, const std::vector<double>& b) const;
    bool factor(double l, double& log_likelihood);

    std::vector<std::vector<double>> x_;
    std::vector<double> y_; // standardised
    double y_mean_ = 0, y_sd_ = 1;
    double l_ = 0.3;
    double noise_ = 1e-4;
    std::vector<double> chol_; // lower triangle, row-major n x n
    std::vector<double> alpha_;
};

// Expected improvement below `best` (minimisation) of a normal prediction, with exploration margin xi.
double expected_improvement(double mean, double sd, double best, double xi);

} // namespace astrolabe::search
