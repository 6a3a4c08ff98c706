// `astrolabe inspect P [--json]`: what a trace set holds, file by file streamed (never a whole set in
// memory).
//
// Index:
// [SECTION] statistics gathered per node and per file
// [SECTION] checks that need a whole file (ids, dangling edges, cycles) or the whole set (send/recv pairs)
// [SECTION] text and JSON output
// [SECTION] the command
#include "core/base/json_writer.h"
#include "core/trace/trace_json.h"
#include "core/trace/trace_reader.h"
#include "host/files.h"
#include "native/args.h"
#include "native/commands.h"
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

using trace::Node;
using trace::NodeType;

const std::vector<OptionSpec> kInspectOptions = {
    {"json", false, nullptr, "print a JSON object (deterministic keys) instead of text"},
    {"quiet", false, nullptr, "no progress bar"},
    {"help", false, nullptr, "this text"},
};

struct Tally {
    uint64_t count = 0;
    uint64_t bytes = 0;
    void add(uint64_t b) { ++count, bytes += b; }
};

struct Range {
    uint64_t min = UINT64_MAX;
    uint64_t max = 0;
    void add(uint64_t v) { min = std::min(min, v), max = std::max(max, v); }
    uint64_t lo() const { return min == UINT64_MAX ? 0 : min; }
};

struct FileStats {
    std::string path;
    uint64_t bytes = 0;
    uint64_t nodes = 0;
    std::array<uint64_t, trace::kNodeTypeCount> by_type{};
    std::map<uint64_t, uint64_t> coll_bytes; // comm_type (kNoCommType when absent) -> comm_size summed
    uint64_t send_bytes = 0, recv_bytes = 0, num_ops = 0;
};

// One kind of problem, aggregated over nodes and files so a 1024-NPU set prints one line, not 1024.
struct Note {
    std::string what;
    uint64_t nodes = 0;
    uint64_t files = 0;
    std::string first; // "<file>, node <id>"
    std::string last_file;
    const char* unit = "node"; // what `nodes` counts
};

constexpr uint64_t kNoCommType = UINT64_MAX;

std::string collective_label(uint64_t t) {
    if (t == kNoCommType) return "(no comm_type)";
    if (t < static_cast<uint64_t>(trace::kCollectiveTypeCount))
        return trace::collective_type_name(static_cast<trace::CollectiveType>(t));
    return "comm_type " + std::to_string(t);
}

// pg_name values in numeric order when they are numbers ("2" before "10"), then text.
struct GroupOrder {
    bool operator()(const std::string& a, const std::string& b) const {
        bool na = !a.empty() && a.find_first_not_of("0123456789") == std::string::npos;
        bool nb = !b.empty() && b.find_first_not_of("0123456789") == std::string::npos;
        if (na != nb) return na;
        if (na && a.size() != b.size()) return a.size() < b.size();
        return a < b;
    }
};

// [SECTION] statistics gathered per node and per file

class Inspector {
public:
    // `ranks_known`: the files are ranks 0..N-1 of one set (a prefix or a directory), not one file whose
    // rank is unknown, so a peer equal to the file's position really is the node's own rank.
    explicit Inspector(bool ranks_known) : ranks_known_(ranks_known) {}

    // Streams one file's nodes; decode problems go to `errors` (they make the command fail).
    // `file_size` is the size on disk (a JSON trace arrives re-encoded).
    void add_file(uint32_t rank, const std::string& path, const std::string& bytes, uint64_t file_size,
                  Status& errors) {
        FileStats f;
        f.path = path;
        f.bytes = file_size;
        trace::ReadOptions opt;
        opt.keep_attributes = true; // attribute names and kinds
        opt.keep_names = false;
        opt.keep_io = false;
        trace::GlobalMetadata meta;
        ids_.clear(), edges_.clear();
        Status st = trace::for_each_node(bytes, path, opt, meta, [&](const Node& n) { visit(rank, n, f); });
        if (!st.is_ok()) return errors.merge(st);
        ++versions_[meta.version];
        for (const auto& a : meta.attrs) {
            ++meta_attrs_[a.name];
            if (a.name == "schema" && a.kind == trace::AttrKind::String && !a.strings.empty())
                ++schemas_[a.strings[0]];
        }
        check_graph(path);
        total_bytes_ += f.bytes;
        nodes_per_file_.add(f.nodes);
        for (int t = 0; t < trace::kNodeTypeCount; ++t)
            per_type_[t].add(f.by_type[t]);
        files_.push_back(std::move(f));
    }

    void finish() { check_pairs(); }

    std::string text(const std::string& workload) const;
    std::string json(const std::string& workload) const;

private:
    void visit(uint32_t rank, const Node& n, FileStats& f) {
        const auto t = static_cast<int>(n.type);
        const std::string& path = f.path;
        ++f.nodes, ++f.by_type[t], ++type_total_[t];
        ids_.push_back(n.id);
        for (auto d : n.data_deps)
            edges_.emplace_back(static_cast<uint32_t>(ids_.size() - 1), d);
        for (auto d : n.ctrl_deps)
            edges_.emplace_back(static_cast<uint32_t>(ids_.size() - 1), d);
        data_deps_ += n.data_deps.size();
        ctrl_deps_ += n.ctrl_deps.size();
        roots_ += n.data_deps.empty() && n.ctrl_deps.empty();
        max_fan_in_ = std::max<uint64_t>(max_fan_in_, n.data_deps.size() + n.ctrl_deps.size());
        for (const auto& a : n.attrs) {
            auto& seen = attrs_[a.name];
            ++seen.first;
            ++seen.second[trace::attr_kind_name(a.kind)];
        }
        if (n.pg_name) ++groups_[*n.pg_name];
        const uint64_t size = n.comm_size.value_or(0);
        switch (n.type) {
        case NodeType::CommColl: {
            uint64_t ct = n.comm_type.value_or(kNoCommType);
            collectives_[ct].add(size);
            f.coll_bytes[ct] += size;
            if (n.is_cpu_op)
                ++host_collectives_;
            else if (!n.comm_type)
                note("COMM_COLL_NODE without comm_type (not a host-side is_cpu_op node)", path, n);
            else if (!n.collective())
                note("COMM_COLL_NODE with a comm_type outside 0..9", path, n);
            if (!n.comm_size && !n.is_cpu_op) note("COMM_COLL_NODE without comm_size", path, n);
            break;
        }
        case NodeType::CommSend:
        case NodeType::CommRecv: {
            bool send = n.type == NodeType::CommSend;
            (send ? sends_ : recvs_).add(size);
            (send ? f.send_bytes : f.recv_bytes) += size;
            auto peer = send ? n.comm_dst : n.comm_src;
            if (!peer || !n.comm_tag || !n.comm_size) {
                note(send ? "COMM_SEND_NODE without comm_dst, comm_tag or comm_size (not simulatable as "
                            "point-to-point)"
                          : "COMM_RECV_NODE without comm_src, comm_tag or comm_size (not simulatable as "
                            "point-to-point)",
                     path, n);
                break;
            }
            uint32_t src = send ? n.comm_src.value_or(rank) : *n.comm_src;
            uint32_t dst = send ? *n.comm_dst : n.comm_dst.value_or(rank);
            // Matched as the simulator matches them: tags folded by workload_tag() (ASTRA-sim's rule), equal
            // sizes.
            auto& pair = pairs_[std::make_tuple(src, dst, workload_tag(*n.comm_tag), *n.comm_size)];
            (send ? pair.first : pair.second) += 1;
            if (ranks_known_ && (send ? dst : src) == rank)
                note("point-to-point node whose peer is its own rank", path, n);
            break;
        }
        case NodeType::Comp:
            ++compute_.count;
            if (n.is_cpu_op) ++host_compute_;
            if (n.duration_micros) ++with_duration_, duration_us_ += n.duration_micros;
            if (n.num_ops) ++with_num_ops_, num_ops_ += *n.num_ops, f.num_ops += *n.num_ops;
            if (!n.duration_micros && !n.num_ops)
                note("COMP_NODE with neither duration_micros nor num_ops (takes no time)", path, n);
            break;
        case NodeType::MemLoad:
        case NodeType::MemStore:
            (n.type == NodeType::MemLoad ? loads_ : stores_).add(n.tensor_size.value_or(0));
            if (!n.tensor_size) note("MEM_LOAD_NODE/MEM_STORE_NODE without tensor_size", path, n);
            break;
        default:
            break;
        }
    }

    void note(const std::string& what, const std::string& path, const Node& n, uint64_t count = 1) {
        note_at(what, path, "node " + std::to_string(n.id), count);
    }
    void note_at(const std::string& what, const std::string& path, const std::string& where, uint64_t count,
                 const char* unit = "node") {
        auto it = std::find_if(notes_.begin(), notes_.end(), [&](const Note& x) { return x.what == what; });
        if (it == notes_.end()) {
            std::string first = path.empty() ? where : where.empty() ? path : path + ", " + where;
            notes_.push_back({what, 0, 0, first, "", unit});
            it = notes_.end() - 1;
        }
        it->nodes += count;
        if (it->last_file != path) ++it->files, it->last_file = path;
    }

    // [SECTION] checks that need a whole file (ids, dangling edges, cycles) or the whole set (send/recv
    // pairs)

    void check_graph(const std::string& path) {
        const size_t n = ids_.size();
        std::unordered_map<uint64_t, uint32_t> index;
        index.reserve(n);
        for (uint32_t i = 0; i < n; ++i)
            if (!index.emplace(ids_[i], i).second)
                note_at("duplicate node id", path, "id " + std::to_string(ids_[i]), 1);
        // Kahn's algorithm over the edges whose parent exists; what is never released sits on or behind a
        // cycle.
        std::vector<uint32_t> indegree(n, 0), first(n + 1, 0), children;
        std::vector<std::pair<uint32_t, uint32_t>> resolved; // (parent index, child index)
        resolved.reserve(edges_.size());
        for (const auto& [child, parent_id] : edges_) {
            auto it = index.find(parent_id);
            if (it == index.end()) {
                note_at("dependency on a node id absent from its file (dropped)", path,
                        "node " + std::to_string(ids_[child]) + " -> " + std::to_string(parent_id), 1,
                        "edge");
                continue;
            }
            resolved.emplace_back(it->second, child);
            ++indegree[child];
            ++first[it->second + 1];
        }
        for (size_t i = 0; i < n; ++i)
            first[i + 1] += first[i];
        children.resize(resolved.size());
        std::vector<uint32_t> fill(first.begin(), first.end() - 1);
        for (const auto& [p, c] : resolved)
            children[fill[p]++] = c;
        std::vector<uint32_t> ready;
        for (uint32_t i = 0; i < n; ++i)
            if (indegree[i] == 0) ready.push_back(i);
        size_t released = 0;
        while (!ready.empty()) {
            uint32_t v = ready.back();
            ready.pop_back();
            ++released;
            for (uint32_t k = first[v]; k < first[v + 1]; ++k)
                if (--indegree[children[k]] == 0) ready.push_back(children[k]);
        }
        if (released < n) {
            uint32_t stuck = 0;
            while (indegree[stuck] == 0)
                ++stuck;
            note_at("node on or behind a dependency cycle (would never run)", path,
                    "e.g. node " + std::to_string(ids_[stuck]), n - released);
        }
    }

    void check_pairs() {
        if (files_.size() < 2) return; // a single file cannot hold both ends
        for (const auto& [key, counts] : pairs_) {
            auto [src, dst, tag, bytes] = key;
            std::string where = "src " + std::to_string(src) + " dst " + std::to_string(dst) + " tag " +
                                std::to_string(tag) + " size " + std::to_string(bytes);
            if (src >= files_.size() || dst >= files_.size())
                note_at("point-to-point peer rank outside the trace set", "", where,
                        counts.first + counts.second);
            else if (counts.first > counts.second)
                note_at("send without a matching recv (same src, dst, tag, size)", "", where,
                        counts.first - counts.second);
            else if (counts.second > counts.first)
                note_at("recv without a matching send (same src, dst, tag, size)", "", where,
                        counts.second - counts.first);
        }
    }

    bool ranks_known_;
    std::vector<FileStats> files_;
    uint64_t total_bytes_ = 0;
    Range nodes_per_file_;
    std::array<uint64_t, trace::kNodeTypeCount> type_total_{};
    std::array<Range, trace::kNodeTypeCount> per_type_{};
    std::map<std::string, uint64_t> versions_, schemas_, meta_attrs_;
    std::map<uint64_t, Tally> collectives_;
    uint64_t host_collectives_ = 0;
    Tally sends_, recvs_, loads_, stores_, compute_;
    uint64_t host_compute_ = 0, with_duration_ = 0, duration_us_ = 0, with_num_ops_ = 0, num_ops_ = 0;
    uint64_t data_deps_ = 0, ctrl_deps_ = 0, roots_ = 0, max_fan_in_ = 0;
    std::map<std::string, std::pair<uint64_t, std::map<std::string, uint64_t>>>
        attrs_; // name -> (count, kinds)
    std::map<std::string, uint64_t, GroupOrder> groups_;
    std::map<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>>
        pairs_; // (sends, recvs)
    std::vector<Note> notes_;
    // The file being read.
    std::vector<uint64_t> ids_;
    std::vector<std::pair<uint32_t, uint64_t>> edges_;
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

std::string note_line(const Note& n) {
    std::string s = n.what + ": " + std::to_string(n.nodes);
    s += std::string(" ") + n.unit + (n.nodes == 1 ? "" : "s");
    if (n.files > 1) s += " in " + std::to_string(n.files) + " files";
    return s + " (first: " + n.first + ")";
}

std::string Inspector::text(const std::string& workload) const {
    std::string o;
    char buf[256];
    auto line = [&](const char* fmt, auto... args) {
        std::snprintf(buf, sizeof buf, fmt, args...);
        o += buf;
    };
    auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    line("workload     %s\n", workload.c_str());
    line("files        %zu (NPUs 0..%zu), %llu bytes\n", files_.size(), files_.size() - 1, u(total_bytes_));
    auto files = [](uint64_t c) { return std::to_string(c) + (c == 1 ? " file;" : " files;"); };
    o += "schema      ";
    for (const auto& [v, c] : versions_)
        o += " version \"" + v + "\" in " + files(c);
    for (const auto& [v, c] : schemas_)
        o += " attr schema \"" + v + "\" in " + files(c);
    o.back() = '\n';
    if (!meta_attrs_.empty()) {
        o += "metadata     attrs:";
        for (const auto& [name, c] : meta_attrs_)
            o += " " + name;
        o += "\n";
    }
    uint64_t total = 0;
    for (auto c : type_total_)
        total += c;
    line("nodes        %llu in all, %llu..%llu per file\n", u(total), u(nodes_per_file_.lo()),
         u(nodes_per_file_.max));
    for (int t = 0; t < trace::kNodeTypeCount; ++t)
        if (type_total_[t])
            line("  %-16s %10llu   per file %llu..%llu\n", trace::node_type_name(static_cast<NodeType>(t)),
                 u(type_total_[t]), u(per_type_[t].lo()), u(per_type_[t].max));
    Tally colls;
    for (const auto& [t, c] : collectives_)
        colls.count += c.count, colls.bytes += c.bytes;
    line("collectives  %llu, %llu bytes (comm_size summed, %s)", u(colls.count), u(colls.bytes),
         human_bytes(colls.bytes).c_str());
    o += host_collectives_ ? ", " + std::to_string(host_collectives_) + " host-side (is_cpu_op)\n" : "\n";
    for (const auto& [t, c] : collectives_)
        line("  %-20s %6llu  %llu bytes (%s)\n", collective_label(t).c_str(), u(c.count), u(c.bytes),
             human_bytes(c.bytes).c_str());
    line("send/recv    %llu sends, %llu bytes; %llu recvs, %llu bytes\n", u(sends_.count), u(sends_.bytes),
         u(recvs_.count), u(recvs_.bytes));
    line("compute      %llu nodes (%llu host-side): %llu with duration_micros (%llu us in all), %llu "
         "without;\n",
         u(compute_.count), u(host_compute_), u(with_duration_), u(duration_us_),
         u(compute_.count - with_duration_));
    line("             %llu with num_ops (%llu in all), %llu without\n", u(with_num_ops_), u(num_ops_),
         u(compute_.count - with_num_ops_));
    if (loads_.count || stores_.count)
        line("memory       %llu loads, %llu bytes; %llu stores, %llu bytes\n", u(loads_.count),
             u(loads_.bytes), u(stores_.count), u(stores_.bytes));
    line("deps         %llu data, %llu ctrl; %llu nodes without parents; largest fan-in %llu\n",
         u(data_deps_), u(ctrl_deps_), u(roots_), u(max_fan_in_));
    line("attributes   %zu names (occurrences, value kinds)\n", attrs_.size());
    for (const auto& [name, seen] : attrs_) {
        std::string kinds;
        for (const auto& [k, c] : seen.second)
            kinds +=
                (kinds.empty() ? "" : ", ") + k + (seen.second.size() > 1 ? " " + std::to_string(c) : "");
        line("  %-22s %10llu  %s\n", name.c_str(), u(seen.first), kinds.c_str());
    }
    o += "comm groups ";
    if (groups_.empty()) o += " none (no pg_name)";
    for (const auto& [g, c] : groups_)
        o += " \"" + g + "\" " + std::to_string(c) + ";";
    if (!groups_.empty()) o.pop_back();
    o += notes_.empty() ? "\nproblems     none\n"
                        : "\nproblems     " + std::to_string(notes_.size()) +
                              (notes_.size() == 1 ? " kind\n" : " kinds\n");
    for (const auto& n : notes_)
        o += "  " + note_line(n) + "\n";
    return o;
}

std::string Inspector::json(const std::string& workload) const {
    JsonWriter w;
    auto tally = [&w](const char* key, const Tally& t) {
        w.key(key).begin_object().field("count", t.count).field("bytes", t.bytes).end_object();
    };
    w.begin_object().field("schema", "astrolabe.inspect/1").field("workload", workload);
    w.field("files", static_cast<uint64_t>(files_.size())).field("bytes", total_bytes_);
    w.key("versions").begin_object();
    for (const auto& [v, c] : versions_)
        w.field(v, c);
    w.end_object().key("schema_attrs").begin_object();
    for (const auto& [v, c] : schemas_)
        w.field(v, c);
    w.end_object().key("metadata_attrs").begin_object();
    for (const auto& [v, c] : meta_attrs_)
        w.field(v, c);
    w.end_object();
    uint64_t total = 0;
    for (auto c : type_total_)
        total += c;
    w.key("nodes").begin_object().field("total", total);
    w.field("per_file_min", nodes_per_file_.lo()).field("per_file_max", nodes_per_file_.max);
    w.key("by_type").begin_object();
    for (int t = 0; t < trace::kNodeTypeCount; ++t) {
        if (!type_total_[t]) continue;
        w.key(trace::node_type_name(static_cast<NodeType>(t))).begin_object();
        w.field("total", type_total_[t])
            .field("min", per_type_[t].lo())
            .field("max", per_type_[t].max)
            .end_object();
    }
    w.end_object().end_object();
    Tally colls;
    for (const auto& [t, c] : collectives_)
        colls.count += c.count, colls.bytes += c.bytes;
    w.key("collectives").begin_object().field("count", colls.count).field("bytes", colls.bytes);
    w.field("host_side", host_collectives_).key("by_type").begin_object();
    for (const auto& [t, c] : collectives_)
        tally(collective_label(t).c_str(), c);
    w.end_object().end_object();
    tally("send", sends_);
    tally("recv", recvs_);
    w.key("compute").begin_object().field("count", compute_.count).field("host_side", host_compute_);
    w.field("with_duration", with_duration_).field("without_duration", compute_.count - with_duration_);
    w.field("duration_micros", duration_us_).field("with_num_ops", with_num_ops_);
    w.field("without_num_ops", compute_.count - with_num_ops_).field("num_ops", num_ops_).end_object();
    w.key("memory").begin_object();
    tally("load", loads_);
    tally("store", stores_);
    w.end_object();
    w.key("deps").begin_object().field("data", data_deps_).field("ctrl", ctrl_deps_).field("roots", roots_);
    w.field("max_fan_in", max_fan_in_).end_object();
    w.key("attributes").begin_object();
    for (const auto& [name, seen] : attrs_) {
        w.key(name).begin_object().field("count", seen.first).key("kinds").begin_object();
        for (const auto& [k, c] : seen.second)
            w.field(k, c);
        w.end_object().end_object();
    }
    w.end_object().key("comm_groups").begin_object();
    for (const auto& [g, c] : groups_)
        w.field(g, c);
    w.end_object().key("per_file").begin_array();
    for (const auto& f : files_) {
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
    for (const auto& n : notes_) {
        w.begin_object().field("what", n.what).field("nodes", n.nodes).field("files", n.files);
        w.field("first", n.first).end_object();
    }
    w.end_array().end_object();
    return w.str() + "\n";
}

} // namespace

// [SECTION] the command

int inspect_command(const std::vector<std::string>& argv) {
    auto parsed = parse_args(argv, kInspectOptions);
    if (!parsed.is_ok()) return fail(parsed.status().message());
    const Args& a = parsed.value();
    if (a.has("help")) {
        std::printf(
            "astrolabe inspect P [--json]: what a trace set holds (node types, collectives, sizes, deps,\n"
            "attributes, comm groups) and what looks wrong in it\n\n"
            "P is a workload as `run` takes it: a prefix (NPU i reads P.i.et, read until the next rank's\n"
            "file is missing), a directory of <name>.<rank>.et files, or one .et file (or one .json trace\n"
            "as `astrolabe convert` writes it).\n\n%s",
            options_help(kInspectOptions).c_str());
        return 0;
    }
    if (a.positionals.size() != 1)
        return fail("inspect: expected one workload argument P (got " + std::to_string(a.positionals.size()) +
                    "); see astrolabe inspect --help");
    const std::string& workload = a.positionals[0];
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

    Inspector inspector(!std::filesystem::is_regular_file(workload, ec));
    Status errors;
    {
        ProgressBar bar("inspecting", !a.has("quiet"));
        std::string bytes, name;
        for (int64_t r = 0; r < count; ++r) {
            auto rank = static_cast<uint32_t>(r);
            Status st = files.read(rank, bytes, name);
            const uint64_t file_size = bytes.size();
            if (st.is_ok() && name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) {
                // One trace in Chakra's JSON form (as `convert` writes it): validate, then inspect its wire
                // form.
                auto t = trace::trace_from_json(bytes, name);
                if (t.is_ok())
                    bytes = trace::encode_trace(t.value());
                else
                    st = t.status();
            }
            if (st.is_ok())
                inspector.add_file(rank, name, bytes, file_size, errors);
            else
                errors.merge(st);
            if (errors.problems().size() >= 20) break;
            bar.update(rank + 1, static_cast<uint64_t>(count), std::to_string(rank + 1) + " files");
        }
    }
    if (!errors.is_ok()) return fail(errors.message());
    inspector.finish();
    std::string out = a.has("json") ? inspector.json(workload) : inspector.text(workload);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace astrolabe::cli
