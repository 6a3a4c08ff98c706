// Simulated times as a person reads them: "1.963 s", "12.104 ms", "337.76 us", "850 ns". Reports keep the
// exact integer ns; these strings are for summaries and the UI.
#pragma once

#include <string>

namespace astrolabe {

// The largest unit (s, ms, us, ns) in which |ns| is at least 1; three decimals for s and ms, two for us.
std::string format_duration(double ns);

// The same with the exact value after it when a unit other than ns was used: "1.963 s (1962590152 ns)".
std::string format_duration_exact(unsigned long long ns);

} // namespace astrolabe
