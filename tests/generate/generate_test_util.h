// Helpers shared by the generator tests: parameters from (name, value) pairs, checked, and a whole
// generated set in memory.
#pragma once

#include "core/generate/transformer.h"
#include "core/generate/transformer_params.h"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

namespace astrolabe::generate::test_util {

inline TransformerParams params(const std::vector<std::pair<std::string, std::string>>& named) {
    TransformerParams p;
    Status st = apply_params(p, named);
    INFO(st.message());
    REQUIRE(st.is_ok());
    Status ok = check(p);
    INFO(ok.message());
    REQUIRE(ok.is_ok());
    return p;
}

inline MemorySink generate_all(const TransformerParams& p) {
    MemorySink sink;
    Status st = generate_transformer(p, sink);
    INFO(st.message());
    REQUIRE(st.is_ok());
    REQUIRE(sink.ranks.size() == p.npus());
    return sink;
}

} // namespace astrolabe::generate::test_util
