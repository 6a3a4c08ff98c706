// Time axis ticks (ui/time_ticks.h): round steps about 100 px apart, and labels with as many digits as the
// step needs, in one unit per axis.
#include "ui/time_ticks.h"

#include <catch2/catch.hpp>

using namespace astrolabe::ui;

TEST_CASE("time ticks: round steps about every 100 pixels", "[ui]") {
    // 28 ms over 700 px: 7 ticks wanted, 4 ms each, rounded up to 5 ms.
    CHECK(nice_tick_step(28e6, 700) == 5e6);
    // 10 ns over 700 px: 1.43 ns rounded up to 2 ns.
    CHECK(nice_tick_step(10, 700) == 2);
    // Never below 1 ns: times are whole ns.
    CHECK(nice_tick_step(3, 700) == 1);
}

TEST_CASE("time ticks: labels carry the digits the step needs", "[ui]") {
    // The 10 ns window deep in a 12 ms run: two ticks 2 ns apart must read differently.
    CHECK(format_time_at(12104002, 2, 12104010) == "12.104002 ms");
    CHECK(format_time_at(12104004, 2, 12104010) == "12.104004 ms");
    // Coarse ticks on a coarse axis stay short, in the axis's unit (0 reads "0 ms", not "0 ns").
    CHECK(format_time_at(5e6, 5e6, 28e6) == "5 ms");
    CHECK(format_time_at(0, 5e6, 28e6) == "0 ms");
    CHECK(format_time_at(1.5e9, 1e8, 2e9) == "1.5 s");
    CHECK(format_time_at(850, 50, 900) == "850 ns");
}
