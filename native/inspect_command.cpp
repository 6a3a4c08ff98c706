// `astrolabe inspect P [--json]`: what a trace set holds, file by file streamed (never a whole set in
// memory). The analysis is core/trace/trace_inspect.h; this file reads the files and prints the summary.
//
// Index:
// [SECTION] text and JSON output
// [SECTION] the command
#include "core/base/json_writer.h"
#include "core/trace/trace_inspect.h"
#include "host/files.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"
#include "native/inspect_collectives.h"
#include "native/progress.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <tuple>
#include <unordered_map>

namespace astrolabe::cli {

namespace {

using trace::collective_label;
using trace::InspectNote;
using trace::InspectTally;
using trace::NodeType;

const std::vector<OptionSpec> kInspectOptions = {
    {"json", false, nullptr, "print a JSON object (deterministic keys) instead of text"},
    {"quiet", false, nullptr, "no progress bar"},
    {"collectives", false, nullptr,
     "per rank: collectives as (type, group size, comm_size) x count, sends/recvs by size, num_ops"},
    {"comm-groups", true, nullptr, "with --collectives: the groups JSON (default P.json or P/workload.json)"},
    {"against", true, nullptr, "with --collectives: compare rank by rank with set Q; exit 1 if they differ"},
    {"help", false, nullptr, "this text"},
};

// [SECTION] text and JSON output

std::string human_bytes(uint64_t b) {
    static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = static_cast<double>(b);
    int u = 0;
    while (v >= 1024 && u < 5)
        v /= 1024, ++u;
    char buf[48];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
    else
        std::snprintf(buf, sizeof buf, "%.2f %s", v, kUnits[u]);
    return buf;
}

std::string note_line(const InspectNote& n) {
    std::string s = n.what + ": " + std::to_string(n.nodes);
    s += std::string(" ") + n.unit + (n.nodes == 1 ? "" : "s");
    if (n.files > 1) s += " in " + std::to_string(n.files) + " files";
    return s + " (first: " + n.first + ")";
}

std::string summary_text(const trace::TraceSummary& s, const std::string& workload) {
    std::string o;
    char buf[256];
    auto line = [&](const char* fmt, auto... args) {
        std::snprintf(buf, sizeof buf, fmt, args...);
        o += buf;
    };
    auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    line("workload     %s\n", workload.c_str());
    line("files        %zu (NPUs 0..%zu), %llu bytes\n", s.files.size(), s.files.size() - 1,
         u(s.total_bytes));
    auto files = [](uint64_t c) { return std::to_string(c) + (c == 1 ? " file;" : " files;"); };
    o += "schema      ";
    for (const auto& [v, c] : s.versions)
        o += " version \"" + v + "\" in " + files(c);
    for (const auto& [v, c] : s.schemas)
        o += " attr schema \"" + v + "\" in " + files(c);
    o.back() = '\n';
    if (!s.meta_attrs.empty()) {
        o += "metadata     attrs:";
        for (const auto& [name, c] : s.meta_attrs)
            o += " " + name;
        o += "\n";
    }
    uint64_t total = 0;
    for (auto c : s.type_total)
        total += c;
    line("nodes        %llu in all, %llu..%llu per file\n", u(total), u(s.nodes_per_file.lo()),
         u(s.nodes_per_file.max));
    for (int t = 0; t < trace::kNodeTypeCount; ++t)
        if (s.type_total[t])
            line("  %-16s %10llu   per file %llu..%llu\n", trace::node_type_name(static_cast<NodeType>(t)),
                 u(s.type_total[t]), u(s.per_type[t].lo()), u(s.per_type[t].max));
    InspectTally colls;
    for (const auto& [t, c] : s.collectives)
        colls.count += c.count, colls.bytes += c.bytes;
    line("collectives  %llu, %llu bytes (comm_size summed, %s)", u(colls.count), u(colls.bytes),
         human_bytes(colls.bytes).c_str());
    o += s.host_collectives ? ", " + std::to_string(s.host_collectives) + " host-side (is_cpu_op)\n" : "\n";
    for (const auto& [t, c] : s.collectives)
        line("  %-20s %6llu  %llu bytes (%s)\n", collective_label(t).c_str(), u(c.count), u(c.bytes),
             human_bytes(c.bytes).c_str());
    line("send/recv    %llu sends, %llu bytes; %llu recvs, %llu bytes\n", u(s.sends.count), u(s.sends.bytes),
         u(s.recvs.count), u(s.recvs.bytes));
    line("compute      %llu nodes (%llu host-side): %llu with duration_micros (%llu us in all), %llu "
         "without;\n",
         u(s.compute.count), u(s.host_compute), u(s.with_duration), u(s.duration_us),
         u(s.compute.count - s.with_duration));
    line("             %llu with num_ops (%llu in all), %llu without\n", u(s.with_num_ops), u(s.num_ops),
         u(s.compute.count - s.with_num_ops));
    if (s.loads.count || s.stores.count)
        line("memory       %llu loads, %llu bytes; %llu stores, %llu bytes\n", u(s.loads.count),
             u(s.loads.bytes), u(s.stores.count), u(s.stores.bytes));
    line("deps         %llu data, %llu ctrl; %llu nodes without parents; largest fan-in %llu\n",
         u(s.data_deps), u(s.ctrl_deps), u(s.roots), u(s.max_fan_in));
    line("attributes   %zu names (occurrences, value kinds)\n", s.attrs.size());
    for (const auto& [name, seen] : s.attrs) {
        std::string kinds;
        for (const auto& [k, c] : seen.second)
            kinds +=
                (kinds.empty() ? "" : ", ") + k + (seen.second.size() > 1 ? " " + std::to_string(c) : "");
        line("  %-22s %10llu  %s\n", name.c_str(), u(seen.first), kinds.c_str());
    }
    o += "comm groups ";
    if (s.groups.empty()) o += " none (no pg_name)";
    for (const auto& [g, c] : s.groups)
        o += " \"" + g + "\" " + std::to_string(c) + ";";
    if (!s.groups.empty()) o.pop_back();
    o += s.notes.empty() ? "\nproblems     none\n"
                         : "\nproblems     " + std::to_string(s.notes.size()) +
                               (s.notes.size() == 1 ? " kind\n" : " kinds\n");
    for (const auto& n : s.notes)
        o += "  " + note_line(n) + "\n";
    return o;
}

std::string summary_json(const trace::TraceSummary& s, const std::string& workload) {
    JsonWriter w;
    auto tally = [&w](const char* key, const InspectTally& t) {
        w.key(key).begin_object().field("count", t.count).field("bytes", t.bytes).end_object();
    };
    w.begin_object().field("schema", "astrolabe.inspect/1").field("workload", workload);
    w.field("files", static_cast<uint64_t>(s.files.size())).field("bytes", s.total_bytes);
    w.key("versions").begin_object();
    for (const auto& [v, c] : s.versions)
        w.field(v, c);
    w.end_object().key("schema_attrs").begin_object();
    for (const auto& [v, c] : s.schemas)
        w.field(v, c);
    w.end_object().key("metadata_attrs").begin_object();
    for (const auto& [v, c] : s.meta_attrs)
        w.field(v, c);
    w.end_object();
    uint64_t total = 0;
    for (auto c : s.type_total)
        total += c;
    w.key("nodes").begin_object().field("total", total);
    w.field("per_file_min", s.nodes_per_file.lo()).field("per_file_max", s.nodes_per_file.max);
    w.key("by_type").begin_object();
    for (int t = 0; t < trace::kNodeTypeCount; ++t) {
        if (!s.type_total[t]) continue;
        w.key(trace::node_type_name(static_cast<NodeType>(t))).begin_object();
        w.field("total", s.type_total[t])
            .field("min", s.per_type[t].lo())
            .field("max", s.per_type[t].max)
            .end_object();
    }
    w.end_object().end_object();
    InspectTally colls;
    for (const auto& [t, c] : s.collectives)
        colls.count += c.count, colls.bytes += c.bytes;
    w.key("collectives").begin_object().field("count", colls.count).field("bytes", colls.bytes);
    w.field("host_side", s.host_collectives).key("by_type").begin_object();
    for (const auto& [t, c] : s.collectives)
        tally(collective_label(t).c_str(), c);
    w.end_object().end_object();
    tally("send", s.sends);
    tally("recv", s.recvs);
    w.key("compute").begin_object().field("count", s.compute.count).field("host_side", s.host_compute);
    w.field("with_duration", s.with_duration).field("without_duration", s.compute.count - s.with_duration);
    w.field("duration_micros", s.duration_us).field("with_num_ops", s.with_num_ops);
    w.field("without_num_ops", s.compute.count - s.with_num_ops).field("num_ops", s.num_ops).end_object();
    w.key("memory").begin_object();
    tally("load", s.loads);
    tally("store", s.stores);
    w.end_object();
    w.key("deps")
        .begin_object()
        .field("data", s.data_deps)
        .field("ctrl", s.ctrl_deps)
        .field("roots", s.roots);
    w.field("max_fan_in", s.max_fan_in).end_object();
    w.key("attributes").begin_object();
    for (const auto& [name, seen] : s.attrs) {
        w.key(name).begin_object().field("count", seen.first).key("kinds").begin_object();
        for (const auto& [k, c] : seen.second)
            w.field(k, c);
        w.end_object().end_object();
    }
    w.end_object().key("comm_groups").begin_object();
    for (const auto& [g, c] : s.groups)
        w.field(g, c);
    w.end_object().key("per_file").begin_array();
    for (const auto& f : s.files) {
        w.begin_object()
            .field("path", f.path)
            .field("bytes", f.bytes)
            .field("nodes", f.nodes)
            .key("by_type")
            .begin_object();
        for (int t = 0; t < trace::kNodeTypeCount; ++t)
            if (f.by_type[t]) w.field(trace::node_type_name(static_cast<NodeType>(t)), f.by_type[t]);
        w.end_object().key("coll_bytes").begin_object();
        for (const auto& [t, b] : f.coll_bytes)
            w.field(collective_label(t), b);
        w.end_object()
            .field("send_bytes", f.send_bytes)
            .field("recv_bytes", f.recv_bytes)
            .field("num_ops", f.num_ops);
        w.end_object();
    }
    w.end_array().key("problems").begin_array();
    for (const auto& n : s.notes) {
        w.begin_object().field("what", n.what).field("nodes", n.nodes).field("files", n.files);
        w.field("first", n.first).end_object();
    }
    w.end_array().end_object();
    return w.str() + "\n";
}

} // namespace

// [SECTION] the command

constexpr const char* kInspectUsage =
    "astrolabe inspect P [--json]: what a trace set holds (node types, collectives, sizes, deps,\n"
    "attributes, comm groups) and what looks wrong in it\n\n"
    "P is a workload as `run` takes it: a prefix (NPU i reads P.i.et, read until the next rank's\n"
    "file is missing), a directory of <name>.<rank>.et files, or one .et file (or one .json trace\n"
    "as `astrolabe convert` writes it).\n\n";

int inspect_command(const std::vector<std::string>& argv) {
    Args a;
    if (int rc = parse_command_line(argv, kInspectOptions, kInspectUsage, a); rc != kParsed) return rc;
    if (a.positionals.size() != 1)
        return fail("inspect: expected one workload argument P (got " + std::to_string(a.positionals.size()) +
                    "); see astrolabe inspect --help");
    const std::string& workload = a.positionals[0];
    if (a.has("collectives")) return inspect_collectives(workload, a);
    if (a.has("comm-groups") || a.has("against"))
        return fail("inspect: --comm-groups and --against need --collectives");
    auto src = host::FileTraceSource::open(workload);
    if (!src.is_ok()) return fail("inspect: " + src.status().message());
    host::FileTraceSource& files = src.value();
    int64_t count = files.count();
    std::error_code ec;
    if (count < 0) { // a prefix: ranks run until the next file is missing
        count = 0;
        while (count < INT32_MAX && std::filesystem::exists(files.path_of(static_cast<uint32_t>(count)), ec))
            ++count;
    }

    trace::TraceInspector inspector(!std::filesystem::is_regular_file(workload, ec));
    Status errors;
    {
        ProgressBar bar("inspecting", !a.has("quiet"));
        std::string bytes, name;
        for (int64_t r = 0; r < count; ++r) {
            auto rank = static_cast<uint32_t>(r);
            Status st = files.read(rank, bytes, name);
            if (st.is_ok())
                inspector.add_file(rank, name, std::move(bytes), errors);
            else
                errors.merge(st);
            if (errors.problems().size() >= 20) break;
            bar.update(rank + 1, static_cast<uint64_t>(count), std::to_string(rank + 1) + " files");
        }
    }
    if (!errors.is_ok()) return fail(errors.message());
    inspector.finish();
    std::string out = a.has("json") ? summary_json(inspector.summary(), workload)
                                    : summary_text(inspector.summary(), workload);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace astrolabe::cli
