// `astrolabe share SCENARIO`: the browser's share link for a scenario file, so a run set up on the command
// line can be opened (and reproduced) in the browser. `run --link` goes the other way.
#include "core/config/scenario_doc.h"
#include "core/session/share_link.h"
#include "host/files.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"

#include <cstdio>
#include <filesystem>

namespace astrolabe::cli {

namespace {

const std::vector<OptionSpec> kShareOptions = {
    {"base", true, nullptr, "the web app's address to put before the fragment (default: print #s=... alone)"},
    {"embed", false, nullptr, "embed the traces of a prefix workload (the browser cannot read local paths)"},
    {"help", false, nullptr, "this text"},
};

} // namespace

constexpr const char* kShareUsage =
    "astrolabe share SCENARIO: print the browser's share link for a scenario file\n\n";

int share_command(const std::vector<std::string>& argv) {
    Args a;
    if (int rc = parse_command_line(argv, kShareOptions, kShareUsage, a); rc != kParsed) return rc;
    if (a.positionals.size() != 1)
        return fail("share: expected one argument, the scenario JSON file; see astrolabe share --help");
    const std::string& path = a.positionals[0];
    auto text = host::read_file(path, "scenario");
    if (!text.is_ok()) return fail(text.status().message());
    auto doc = config::ScenarioDoc::from_text(text.value(), path);
    if (!doc.is_ok()) return fail(doc.status().message());
    config::ScenarioDoc& d = doc.value();
    // The whole scenario must be valid: a link that cannot run helps nobody.
    auto sc = d.parse(path);
    if (!sc.is_ok()) return fail(sc.status().message());
    if (sc.value().workload_kind == config::Scenario::WorkloadKind::Prefix) {
        if (!a.has("embed"))
            return fail("share: " + path +
                        ": the workload is a path prefix, which a browser cannot open; pass "
                        "--embed to put the traces into the link");
        std::filesystem::path base = std::filesystem::path(path).parent_path();
        std::string w = sc.value().workload;
        if (!std::filesystem::path(w).is_absolute()) w = (base / w).string();
        auto src = host::FileTraceSource::open(w);
        if (!src.is_ok()) return fail(src.status().message());
        std::vector<std::pair<std::string, std::string>> traces;
        for (uint64_t rank = 0; rank < sc.value().network.npus(); ++rank) {
            std::string bytes, name;
            Status st = src.value().read(static_cast<uint32_t>(rank), bytes, name);
            if (!st.is_ok()) return fail(st.message());
            traces.emplace_back(std::filesystem::path(name).filename().string(), std::move(bytes));
        }
        d.set_embedded_traces(traces);
    }
    std::string fragment = encode_share_fragment(d.dump());
    if (fragment.size() > kMaxShareFragment)
        std::fprintf(
            stderr,
            "warning: the link is %zu characters; many tools cut links this long, share the scenario "
            "file instead\n",
            fragment.size());
    std::printf("%s#%s\n", a.get("base").c_str(), fragment.c_str());
    return 0;
}

} // namespace astrolabe::cli
