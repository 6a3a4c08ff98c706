// The check of a step that must fail: it is an error, and its message names every one of the given parts.
#pragma once

#include "core/base/status.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <type_traits>

namespace astrolabe::test {

// REQUIREs `result` (a Result<T> or a Status) to be an error, then CHECKs that its message contains each
// of `parts` (each is its own check, so every missing part is reported).
template <typename R>
void check_error(const R& result, std::initializer_list<const char*> parts) {
    REQUIRE_FALSE(result.is_ok());
    const std::string message = [&] {
        if constexpr (std::is_same_v<R, Status>)
            return result.message();
        else
            return result.status().message();
    }();
    for (const char* part : parts)
        CHECK_THAT(message, Catch::Matchers::Contains(part));
}

} // namespace astrolabe::test
