#include "native/progress.h"

#include <cstdio>
#include <unistd.h>

namespace astrolabe::cli {

ProgressBar::ProgressBar(std::string label, bool enabled)
    : label_(std::move(label)), enabled_(enabled && isatty(fileno(stderr)) == 1) {}

double ProgressBar::elapsed_s() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool ProgressBar::due() const {
    if (!enabled_) return false;
    auto now = std::chrono::steady_clock::now();
    return now - start_ >= std::chrono::seconds(1) && now - last_ >= std::chrono::milliseconds(200);
}

void ProgressBar::update(uint64_t done, uint64_t total, const std::string& detail) {
    if (!due()) return;
    last_ = std::chrono::steady_clock::now();
    shown_ = true;
    double frac = total ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
    int filled = static_cast<int>(frac * 30);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(30, '.');
    std::fprintf(stderr, "\r%s [%s] %5.1f%% %s  %.1fs ", label_.c_str(), bar.c_str(), frac * 100.0,
                 detail.c_str(), elapsed_s());
    std::fflush(stderr);
}

void ProgressBar::finish() {
    if (!shown_) return;
    shown_ = false;
    std::fprintf(stderr, "\n");
}

} // namespace astrolabe::cli
