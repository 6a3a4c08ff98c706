// The spelling tables of the config enums, as the input files (ASTRA-sim's where it has one) spell them.
#include "core/config/spellings.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace astrolabe::config {

namespace {

template <size_t N>
SpellingTable table(const char* const (&names)[N]) {
    return SpellingTable{names, N};
}

const char* const kTopologies[] = {"Ring", "FullyConnected", "Switch"};
const char* const kAlgorithms[] = {"ring", "direct", "halvingDoubling", "doubleBinaryTree"};
const char* const kPolicies[] = {"LIFO", "FIFO", "EXPLICIT"};
const char* const kOptimizations[] = {"baseline", "localBWAware"};
const char* const kMemoryTypes[] = {"NO_MEMORY_EXPANSION", "PER_NODE_MEMORY_EXPANSION",
                                    "PER_NPU_MEMORY_EXPANSION", "MEMORY_POOL", "LOCAL_MEMORY"};
const char* const kNetworkModels[] = {"analytical", "congestion", "flow"};
const char* const kComputeModels[] = {"system", "trace", "roofline", "systolic"};
const char* const kDataflows[] = {"os", "ws", "is"};

bool same_letter(char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
}

// Edit distance with transpositions (optimal string alignment), ignoring case: "flwo" is one slip from
// "flow", and a user who typed "ring" for "Ring" gets the suggestion.
size_t distance(std::string_view a, std::string_view b) {
    const size_t w = b.size() + 1;
    std::vector<size_t> d((a.size() + 1) * w);
    for (size_t i = 0; i <= a.size(); ++i)
        d[i * w] = i;
    for (size_t j = 0; j <= b.size(); ++j)
        d[j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = same_letter(a[i - 1], b[j - 1]) ? 0 : 1;
            size_t v =
                std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost});
            if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1]))
                v = std::min(v, d[(i - 2) * w + j - 2] + 1);
            d[i * w + j] = v;
        }
    return d[a.size() * w + b.size()];
}

} // namespace

template <>
SpellingTable spellings<Topology>() {
    return table(kTopologies);
}
template <>
SpellingTable spellings<CollectiveAlgorithm>() {
    return table(kAlgorithms);
}
template <>
SpellingTable spellings<SchedulingPolicy>() {
    return table(kPolicies);
}
template <>
SpellingTable spellings<CollectiveOptimization>() {
    return table(kOptimizations);
}
template <>
SpellingTable spellings<MemoryType>() {
    return table(kMemoryTypes);
}
template <>
SpellingTable spellings<NetworkModel>() {
    return table(kNetworkModels);
}
template <>
SpellingTable spellings<ComputeModel>() {
    return table(kComputeModels);
}
template <>
SpellingTable spellings<Dataflow>() {
    return table(kDataflows);
}

std::vector<std::string> names_of(SpellingTable t) {
    return std::vector<std::string>(t.names, t.names + t.size);
}

std::string expected_names(SpellingTable t, const char* quote) {
    std::string out;
    for (size_t i = 0; i < t.size; ++i) {
        if (i) out += i + 1 == t.size ? " or " : ", ";
        out += quote;
        out += t.names[i];
        out += quote;
    }
    return out;
}

namespace {

// The nearest of `count` names, `name(i)` each (nearest_name's rule).
template <class NameAt>
std::string nearest(size_t count, NameAt name_at, std::string_view text) {
    if (text.empty() || text.size() > 64) return "";
    size_t best = SIZE_MAX;
    std::string name;
    for (size_t i = 0; i < count; ++i) {
        const std::string_view candidate = name_at(i);
        const size_t d = distance(text, candidate);
        if (d < best) best = d, name = std::string(candidate);
    }
    // Close enough to be a slip: at most a third of the name differs (and at least one edit is allowed).
    const size_t allowed = std::max<size_t>(1, name.size() / 3);
    return best <= allowed ? name : "";
}

} // namespace

std::string nearest_name(SpellingTable t, std::string_view text) {
    return nearest(
        t.size, [&](size_t i) { return std::string_view(t.names[i]); }, text);
}

std::string folded_spelling(std::string_view text) {
    std::string out;
    for (char c : text)
        if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string nearest_name(const std::vector<std::string>& names, std::string_view text) {
    return nearest(
        names.size(), [&](size_t i) { return std::string_view(names[i]); }, text);
}

std::string expected_choice(SpellingTable t, std::string_view got, const char* quote) {
    std::string out = expected_names(t, quote) + " was expected";
    const std::string near = nearest_name(t, got);
    if (!near.empty())
        out +=
            " (did you mean " + std::string(quote[0] ? quote : "'") + near + (quote[0] ? quote : "'") + "?)";
    return out;
}

const char* implementation_key(int kind) {
    static const char* const kKeys[kCollectiveKinds] = {
        "all-reduce-implementation", "all-gather-implementation", "reduce-scatter-implementation",
        "all-to-all-implementation"};
    return kind >= 0 && kind < kCollectiveKinds ? kKeys[kind] : "?";
}

const char* custom_implementation_key(int kind) {
    static const char* const kKeys[kCollectiveKinds] = {
        "all-reduce-implementation-custom", "all-gather-implementation-custom",
        "reduce-scatter-implementation-custom", "all-to-all-implementation-custom"};
    return kind >= 0 && kind < kCollectiveKinds ? kKeys[kind] : "?";
}

} // namespace astrolabe::config
