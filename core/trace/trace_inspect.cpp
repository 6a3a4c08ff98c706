// The trace set analysis (trace_inspect.h).
//
// Index:
// [SECTION] statistics gathered per node and per file
// [SECTION] checks that need a whole file (ids, dangling edges, cycles) or the whole set (send/recv pairs)
// [SECTION] the inspector
#include "core/trace/trace_inspect.h"

#include "core/trace/trace_json.h"
#include "core/trace/trace_reader.h"

#include <tuple>
#include <unordered_map>

namespace astrolabe::trace {

std::string collective_label(uint64_t t) {
    if (t == kNoCommType) return "(no comm_type)";
    if (t < static_cast<uint64_t>(kCollectiveTypeCount))
        return collective_type_name(static_cast<CollectiveType>(t));
    return "comm_type " + std::to_string(t);
}

// [SECTION] statistics gathered per node and per file

class TraceInspector::Walker {
public:
    // `ranks_known`: the files are ranks 0..N-1 of one set (a prefix or a directory), not one file whose
    // rank is unknown, so a peer equal to the file's position really is the node's own rank.
    explicit Walker(bool ranks_known) : ranks_known_(ranks_known) {}

    // Streams one file's nodes; decode problems go to `errors` (they make the command fail).
    // `file_size` is the size on disk (a JSON trace arrives re-encoded).
    void add_file(uint32_t rank, const std::string& path, const std::string& bytes, uint64_t file_size,
                  Status& errors) {
        InspectedFile f;
        f.path = path;
        f.bytes = file_size;
        ReadOptions opt;
        opt.keep_attributes = true; // attribute names and kinds
        opt.keep_names = false;
        opt.keep_io = false;
        GlobalMetadata meta;
        ids_.clear(), edges_.clear();
        Status st = for_each_node(bytes, path, opt, meta, [&](const Node& n) { visit(rank, n, f); });
        if (!st.is_ok()) return errors.merge(st);
        ++s_.versions[meta.version];
        for (const auto& a : meta.attrs) {
            ++s_.meta_attrs[a.name];
            if (a.name == "schema" && a.kind == AttrKind::String && !a.strings.empty())
                ++s_.schemas[a.strings[0]];
        }
        check_graph(path);
        s_.total_bytes += f.bytes;
        s_.nodes_per_file.add(f.nodes);
        for (int t = 0; t < kNodeTypeCount; ++t)
            s_.per_type[t].add(f.by_type[t]);
        s_.files.push_back(std::move(f));
    }

    void finish() { check_pairs(); }

    TraceSummary s_;

private:
    void visit(uint32_t rank, const Node& n, InspectedFile& f) {
        const auto t = static_cast<int>(n.type);
        const std::string& path = f.path;
        ++f.nodes, ++f.by_type[t], ++s_.type_total[t];
        ids_.push_back(n.id);
        for (auto d : n.data_deps)
            edges_.emplace_back(static_cast<uint32_t>(ids_.size() - 1), d);
        for (auto d : n.ctrl_deps)
            edges_.emplace_back(static_cast<uint32_t>(ids_.size() - 1), d);
        s_.data_deps += n.data_deps.size();
        s_.ctrl_deps += n.ctrl_deps.size();
        s_.roots += n.data_deps.empty() && n.ctrl_deps.empty();
        s_.max_fan_in = std::max<uint64_t>(s_.max_fan_in, n.data_deps.size() + n.ctrl_deps.size());
        for (const auto& a : n.attrs) {
            auto& seen = s_.attrs[a.name];
            ++seen.first;
            ++seen.second[attr_kind_name(a.kind)];
        }
        if (n.pg_name) ++s_.groups[*n.pg_name];
        const uint64_t size = n.comm_size.value_or(0);
        switch (n.type) {
        case NodeType::CommColl: {
            uint64_t ct = n.comm_type.value_or(kNoCommType);
            s_.collectives[ct].add(size);
            f.coll_bytes[ct] += size;
            if (n.is_cpu_op)
                ++s_.host_collectives;
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
            (send ? s_.sends : s_.recvs).add(size);
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
            ++s_.compute.count;
            if (n.is_cpu_op) ++s_.host_compute;
            if (n.duration_micros) ++s_.with_duration, s_.duration_us += n.duration_micros;
            if (n.num_ops) ++s_.with_num_ops, s_.num_ops += *n.num_ops, f.num_ops += *n.num_ops;
            if (!n.duration_micros && !n.num_ops)
                note("COMP_NODE with neither duration_micros nor num_ops (takes no time)", path, n);
            break;
        case NodeType::MemLoad:
        case NodeType::MemStore:
            (n.type == NodeType::MemLoad ? s_.loads : s_.stores).add(n.tensor_size.value_or(0));
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
        auto it = std::find_if(s_.notes.begin(), s_.notes.end(),
                               [&](const InspectNote& x) { return x.what == what; });
        if (it == s_.notes.end()) {
            std::string first = path.empty() ? where : where.empty() ? path : path + ", " + where;
            s_.notes.push_back({what, 0, 0, first, "", unit});
            it = s_.notes.end() - 1;
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
        if (s_.files.size() < 2) return; // a single file cannot hold both ends
        for (const auto& [key, counts] : pairs_) {
            auto [src, dst, tag, bytes] = key;
            std::string where = "src " + std::to_string(src) + " dst " + std::to_string(dst) + " tag " +
                                std::to_string(tag) + " size " + std::to_string(bytes);
            if (src >= s_.files.size() || dst >= s_.files.size())
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
    std::map<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>>
        pairs_; // (sends, recvs)
    // The file being read.
    std::vector<uint64_t> ids_;
    std::vector<std::pair<uint32_t, uint64_t>> edges_;
};

// [SECTION] the inspector

TraceInspector::TraceInspector(bool ranks_known) : walker_(std::make_unique<Walker>(ranks_known)) {}
TraceInspector::~TraceInspector() = default;

void TraceInspector::add_file(uint32_t rank, const std::string& path, std::string bytes, Status& errors) {
    const uint64_t file_size = bytes.size();
    if (path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
        // One trace in Chakra's JSON form (as `convert` writes it): validate, then inspect its wire form.
        auto t = trace_from_json(bytes, path);
        if (!t.is_ok()) return errors.merge(t.status());
        bytes = encode_trace(t.value());
    }
    walker_->add_file(rank, path, bytes, file_size, errors);
}

void TraceInspector::finish() {
    walker_->finish();
}

const TraceSummary& TraceInspector::summary() const {
    return walker_->s_;
}

} // namespace astrolabe::trace
