#include "core/base/time_format.h"

#include <cmath>
#include <cstdio>

namespace astrolabe {

std::string format_duration(double ns) {
    char buf[64];
    const double a = std::fabs(ns);
    if (a >= 1e9)
        std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
    else if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
    else if (a >= 1e3)
        std::snprintf(buf, sizeof buf, "%.2f us", ns / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.0f ns", ns);
    return buf;
}

std::string format_duration_exact(unsigned long long ns) {
    if (ns < 1000) return std::to_string(ns) + " ns";
    return format_duration(static_cast<double>(ns)) + " (" + std::to_string(ns) + " ns)";
}

} // namespace astrolabe
