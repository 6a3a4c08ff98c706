#include "core/base/time_format.h"

#include <catch2/catch.hpp>

using namespace astrolabe;

TEST_CASE("format_duration picks the unit a person reads", "[base]") {
    // The example: 1962590152 ns is about 1.96 s, not "1962590.152 us".
    CHECK(format_duration(1962590152.0) == "1.963 s");
    CHECK(format_duration(12104000.0) == "12.104 ms");
    CHECK(format_duration(337760.0) == "337.76 us");
    CHECK(format_duration(850.0) == "850 ns");
    CHECK(format_duration(0.0) == "0 ns");
    // The boundaries: 1000 ns is 1 us, 1e6 ns is 1 ms.
    CHECK(format_duration(1000.0) == "1.00 us");
    CHECK(format_duration(1e6) == "1.000 ms");
    // The exact ns follow whenever a unit other than ns was used.
    CHECK(format_duration_exact(1962590152ull) == "1.963 s (1962590152 ns)");
    CHECK(format_duration_exact(999ull) == "999 ns");
}
