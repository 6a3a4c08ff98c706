// Where the ticks of a time axis go and how they read; no drawing, so it is tested natively.
#pragma once

#include <string>

namespace astrolabe::ui {

// A round tick step (1, 2 or 5 x 10^k ns, at least 1) giving a tick about every 100 pixels over `span_ns`.
double nice_tick_step(double span_ns, float width_px);

// `t` in the unit of `magnitude_ns` (or of t, if larger) with enough decimals to show `resolution_ns`:
// format_time_at(12104002, 2, 12104010) == "12.104002 ms"; format_time_at(5e6, 5e6, 28e6) == "5 ms".
std::string format_time_at(double t, double resolution_ns, double magnitude_ns);

} // namespace astrolabe::ui
