// One spelling table per config enum. Parsing, the names in reports and messages, the "did you mean"
// suggestions and the browser's drop-downs all read the same table, so a spelling is written once.
//
// A table lists the names in the enum's value order (value i is spelled names[i]), so enum values must stay
// 0, 1, 2, ... in declaration order.
#pragma once

#include "core/config/config_types.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe::config {

struct SpellingTable {
    const char* const* names;
    size_t size;
};

// The table of enum E; defined in spellings.cpp for every config enum below.
template <class E>
SpellingTable spellings();
template <>
SpellingTable spellings<Topology>();
template <>
SpellingTable spellings<CollectiveAlgorithm>();
template <>
SpellingTable spellings<SchedulingPolicy>();
template <>
SpellingTable spellings<CollectiveOptimization>();
template <>
SpellingTable spellings<MemoryType>();
template <>
SpellingTable spellings<NetworkModel>();
template <>
SpellingTable spellings<ComputeModel>();
template <>
SpellingTable spellings<Dataflow>();

// How `v` is spelled in files, reports and the UI.
template <class E>
const char* name_of(E v) {
    const SpellingTable t = spellings<E>();
    const size_t i = static_cast<size_t>(v);
    return i < t.size ? t.names[i] : "?";
}

// The value spelled `text` (exactly, case included); false when no name matches.
template <class E>
bool parse_name(std::string_view text, E& out) {
    const SpellingTable t = spellings<E>();
    for (size_t i = 0; i < t.size; ++i)
        if (text == t.names[i]) {
            out = static_cast<E>(i);
            return true;
        }
    return false;
}

// The names of a table, in value order (for menus).
std::vector<std::string> names_of(SpellingTable t);
// "a, b or c", each name wrapped in `quote` (e.g. "\"").
std::string expected_names(SpellingTable t, const char* quote = "");
// The name closest to `text` (case-insensitive edit distance, a swap of two neighbours counting one), or ""
// when none is close enough to be a slip: at most a third of the name's letters (at least one) differ.
// The first of equally close names wins.
std::string nearest_name(SpellingTable t, std::string_view text);
// The same over any list of names (a command's flags, a form's keys).
std::string nearest_name(const std::vector<std::string>& names, std::string_view text);
// `text` in lower case without '_' or '-': how names that other tools spell loosely compare (NCCL reads
// NCCL_ALGO without regard to case; nccl-tests and NCCL write all_reduce as allreduce, AllReduce).
std::string folded_spelling(std::string_view text);
// The tail of a message about a bad spelling: "a, b or c was expected" plus " (did you mean 'b'?)" when
// one name is close.
std::string expected_choice(SpellingTable t, std::string_view got, const char* quote = "");

} // namespace astrolabe::config
