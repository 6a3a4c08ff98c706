// libFuzzer harness: the Chakra trace decoder (gzip included) and the graph builder behind it, which every
// trace from a stranger passes through. Any crash, hang, leak or sanitizer report is a bug; a refusal with
// a Status is the expected outcome for garbage.
#include "core/system/scheduling/workload_graph.h"
#include "core/trace/trace_reader.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace astrolabe;
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    trace::ReadOptions read;
    read.keep_attributes = true;
    read.max_decompressed_bytes = 1 << 24; // a gzip bomb must be refused, not inflated
    GroupTable groups;
    GraphBuildOptions opt;
    opt.npus = 4;
    opt.groups = &groups;
    GraphBuilder builder("fuzz.0.et", opt);
    trace::GlobalMetadata meta;
    Status st =
        trace::for_each_node(bytes, "fuzz.0.et", read, meta, [&](const trace::Node& n) { builder.add(n); });
    if (st.is_ok()) {
        std::vector<std::string> warnings;
        (void)builder.finish(warnings);
    }
    return 0;
}
