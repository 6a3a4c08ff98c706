#include "ui/time_ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::ui {

double nice_tick_step(double span_ns, float width_px) {
    const double target = span_ns / std::max(1.0, std::floor(double(width_px) / 100.0));
    if (!(target > 0)) return 1;
    const double mag = std::pow(10.0, std::floor(std::log10(target)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= target) return std::max(1.0, m * mag);
    return std::max(1.0, 10 * mag);
}

std::string format_time_at(double t, double resolution_ns, double magnitude_ns) {
    // The unit of the larger of the two magnitudes, so that all labels of one axis share it.
    const double m = std::max(std::fabs(t), std::fabs(magnitude_ns));
    const double unit = m >= 1e9 ? 1e9 : m >= 1e6 ? 1e6 : m >= 1e3 ? 1e3 : 1;
    const char* name = unit == 1e9 ? "s" : unit == 1e6 ? "ms" : unit == 1e3 ? "us" : "ns";
    int decimals = 0;
    if (resolution_ns > 0 && resolution_ns < unit)
        decimals = std::min(9, static_cast<int>(std::ceil(std::log10(unit / resolution_ns) - 1e-9)));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, t / unit, name);
    return buf;
}

} // namespace astrolabe::ui
