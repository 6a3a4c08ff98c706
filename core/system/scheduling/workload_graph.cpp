// [SECTION] node conversion and attribute checks
// [SECTION] sorting, dependency resolution and cycle detection
#include "core/system/scheduling/workload_graph.h"

#include "core/compute/gemm_shape.h"
#include "core/engine/engine.h"

#include <algorithm>
#include <numeric>

namespace astrolabe {

const char* node_kind_name(NodeKind k) {
    switch (k) {
    case NodeKind::Nop:
        return "no-op";
    case NodeKind::Compute:
        return "compute";
    case NodeKind::MemLoad:
        return "memory load";
    case NodeKind::MemStore:
        return "memory store";
    case NodeKind::Send:
        return "send";
    case NodeKind::Recv:
        return "receive";
    case NodeKind::Collective:
        return "collective";
    }
    return "?";
}

size_t WorkloadGraph::memory_bytes() const {
    size_t b = nodes.capacity() * sizeof(GraphNode) + children.capacity() * sizeof(uint32_t) +
               gemms.capacity() * sizeof(Gemm);
    for (const auto& n : names)
        b += sizeof(std::string) + (n.size() > 15 ? n.capacity() : 0);
    return b;
}

GraphBuilder::GraphBuilder(std::string source, const GraphBuildOptions& options)
    : source_(std::move(source)), opt_(options) {
    g_.rank = options.rank;
}

void GraphBuilder::problem(const trace::Node& n, const std::string& what) {
    if (problems_.problems().size() >= opt_.max_problems) return;
    std::string label = n.name.empty() ? "" : " ('" + n.name + "')";
    problems_.add(source_ + ": node " + std::to_string(n.id) + label + ": " + what);
}

// [SECTION] node conversion and attribute checks

void GraphBuilder::add(const trace::Node& n) {
    GraphNode g;
    g.id = n.id;
    if (n.is_cpu_op) g.flags |= kCpuOp;
    if (n.num_ops) {
        g.flags |= kHasNumOps;
        g.num_ops = *n.num_ops;
    }
    if (n.tensor_size) g.flags |= kHasTensorSize;
    if (n.duration_micros > 0) {
        g.flags |= kHasDuration;
        if (n.duration_micros > kTimeLimit / 1000)
            problem(n, "duration_micros " + std::to_string(n.duration_micros) +
                           " is too large; the simulated clock ends at 2^62 ns (about 146 years)");
        else
            g.duration_ns = n.duration_micros * 1000;
    }
    auto need = [&](const auto& field, const char* attr, const char* why) {
        if (!field) problem(n, std::string("attribute '") + attr + "' is missing; " + why);
        return static_cast<bool>(field);
    };
    auto rank_ok = [&](uint32_t r, const char* attr) {
        if (r < opt_.npus) return true;
        problem(n, std::string("attribute '") + attr + "' is " + std::to_string(r) +
                       ", but the network has only " + std::to_string(opt_.npus) + " NPUs (ranks 0.." +
                       std::to_string(opt_.npus - 1) + ")");
        return false;
    };

    // raw_type is what the file said; nodes built in code may only set `type`.
    const uint32_t raw_type = n.raw_type != 0 ? n.raw_type : static_cast<uint32_t>(n.type);
    switch (raw_type) {
    case static_cast<uint32_t>(trace::NodeType::Invalid):
        ++invalid_nodes_; // a node without a type: nothing to simulate, but the user should know
        g.kind = NodeKind::Nop;
        break;
    case static_cast<uint32_t>(trace::NodeType::Metadata):
        g.kind = NodeKind::Nop;
        break;
    case static_cast<uint32_t>(trace::NodeType::Comp):
        g.kind = NodeKind::Compute;
        g.bytes = n.tensor_size.value_or(0);
        if (opt_.roofline && !n.is_cpu_op && !opt_.roofline_or_duration) {
            need(n.num_ops, "num_ops", "the roofline compute model needs it");
            need(n.tensor_size, "tensor_size", "the roofline compute model needs it");
        } else if (!n.duration_micros && !n.num_ops && !opt_.gemm_shapes) {
            ++no_time_compute_;
        }
        if (!n.is_cpu_op) ++gpu_compute_;
        if (opt_.gemm_shapes) read_gemm(n, g, static_cast<uint32_t>(g_.nodes.size()));
        break;
    case static_cast<uint32_t>(trace::NodeType::MemLoad):
    case static_cast<uint32_t>(trace::NodeType::MemStore):
        g.kind = raw_type == static_cast<uint32_t>(trace::NodeType::MemLoad) ? NodeKind::MemLoad
                                                                             : NodeKind::MemStore;
        if (need(n.tensor_size, "tensor_size", "a memory node moves tensor_size bytes"))
            g.bytes = *n.tensor_size;
        break;
    case static_cast<uint32_t>(trace::NodeType::CommSend):
    case static_cast<uint32_t>(trace::NodeType::CommRecv):
    case static_cast<uint32_t>(trace::NodeType::CommColl):
        if (n.is_cpu_op) {
            // PyTorch-converted traces wrap each NCCL kernel in a CPU-side c10d node flagged is_cpu_op;
            // ASTRA-sim aborts on those. They are host work: replay their duration on the CPU slot.
            g.kind = NodeKind::Compute;
            ++cpu_comm_nodes_;
            break;
        }
        if (raw_type == static_cast<uint32_t>(trace::NodeType::CommColl)) {
            g.kind = NodeKind::Collective;
            auto type = n.collective();
            if (!n.comm_type) {
                problem(n, "attribute 'comm_type' is missing; a collective needs its type (0 ALL_REDUCE .. 9 "
                           "BARRIER)");
            } else if (!type) {
                problem(n, "attribute 'comm_type' is " + std::to_string(*n.comm_type) +
                               "; a collective type 0..9 was expected");
            } else {
                g.collective = *type;
                if (*type == trace::CollectiveType::ReduceScatterBlock)
                    g.collective = trace::CollectiveType::ReduceScatter;
            }
            if (n.comm_size)
                g.bytes = *n.comm_size;
            else if (type != trace::CollectiveType::Barrier)
                need(n.comm_size, "comm_size", "a collective needs its size in bytes");
            g.tag = n.comm_priority.value_or(0);
            if (n.involved_dim) {
                g.involved_dims = 0;
                for (size_t d = 0; d < n.involved_dim->size() && d < 8; ++d)
                    if ((*n.involved_dim)[d]) g.involved_dims |= uint8_t(1u << d);
            }
            if (n.pg_name && !n.pg_name->empty() && *n.pg_name != "0") {
                uint64_t id = 0;
                bool numeric = n.pg_name->size() <= 9;
                for (char c : *n.pg_name) {
                    numeric = numeric && c >= '0' && c <= '9';
                    if (numeric) id = id * 10 + uint64_t(c - '0');
                }
                int idx = numeric && opt_.groups ? opt_.groups->find(static_cast<uint32_t>(id)) : -1;
                if (!numeric) {
                    problem(n, "attribute 'pg_name' is \"" + *n.pg_name +
                                   "\"; a communicator group id (a number) was expected");
                } else if (idx < 0) {
                    problem(n, "communicator group " + *n.pg_name +
                                   " is not defined; pass the communicator-group file "
                                   "(--comm-group-configuration) that defines it");
                } else {
                    const auto& ranks = opt_.groups->groups[static_cast<size_t>(idx)].ranks;
                    if (std::find(ranks.begin(), ranks.end(), opt_.rank) == ranks.end())
                        problem(n, "communicator group " + *n.pg_name + " does not include this NPU (rank " +
                                       std::to_string(opt_.rank) + ")");
                    g.peer = static_cast<uint32_t>(idx);
                }
            }
        } else if (raw_type == static_cast<uint32_t>(trace::NodeType::CommSend)) {
            g.kind = NodeKind::Send;
            if (need(n.comm_dst, "comm_dst", "a send needs its destination rank") &&
                rank_ok(*n.comm_dst, "comm_dst"))
                g.peer = *n.comm_dst;
            if (n.comm_src && *n.comm_src != opt_.rank)
                problem(n, "attribute 'comm_src' is " + std::to_string(*n.comm_src) +
                               ", but this is the trace of rank " + std::to_string(opt_.rank) +
                               "; a send must leave from its own NPU");
            if (need(n.comm_size, "comm_size", "a send needs its size in bytes")) g.bytes = *n.comm_size;
            if (need(n.comm_tag, "comm_tag", "a send is matched to its receive by tag")) g.tag = *n.comm_tag;
        } else {
            g.kind = NodeKind::Recv;
            if (need(n.comm_src, "comm_src", "a receive needs its source rank") &&
                rank_ok(*n.comm_src, "comm_src"))
                g.peer = *n.comm_src;
            if (n.comm_dst && *n.comm_dst != opt_.rank)
                problem(n, "attribute 'comm_dst' is " + std::to_string(*n.comm_dst) +
                               ", but this is the trace of rank " + std::to_string(opt_.rank) +
                               "; a receive must arrive at its own NPU");
            if (need(n.comm_size, "comm_size", "a receive needs its size in bytes")) g.bytes = *n.comm_size;
            if (need(n.comm_tag, "comm_tag", "a receive is matched to its send by tag")) g.tag = *n.comm_tag;
        }
        break;
    default:
        problem(n, "node type " + std::to_string(raw_type) + " is not a Chakra node type (0..7)");
    }

    auto index = static_cast<uint32_t>(g_.nodes.size());
    g_.nodes.push_back(g);
    if (opt_.keep_names) g_.names.push_back(n.name);
    for (uint64_t p : n.data_deps)
        edges_.emplace_back(index, p);
    if (!opt_.ignore_ctrl_deps)
        for (uint64_t p : n.ctrl_deps)
            edges_.emplace_back(index, p);
}

// Explicit attributes win; they must come as a complete, positive set. A matrix-multiply operator whose
// shapes cannot be read is not an error (converted traces carry all kinds of operands): it falls back.
void GraphBuilder::read_gemm(const trace::Node& n, GraphNode& g, uint32_t index) {
    std::optional<Gemm> gemm;
    if (n.gemm_m || n.gemm_n || n.gemm_k || n.gemm_batch) {
        const std::pair<const char*, const std::optional<uint64_t>*> dims[] = {
            {"gemm_m", &n.gemm_m}, {"gemm_n", &n.gemm_n}, {"gemm_k", &n.gemm_k}};
        bool ok = true;
        for (const auto& [attr, v] : dims) {
            if (!*v || **v == 0) {
                problem(n, std::string("attribute '") + attr + "' is " + (*v ? "0" : "missing") +
                               "; a GEMM shape needs gemm_m, gemm_n and gemm_k, all positive");
                ok = false;
            }
        }
        if (n.gemm_batch && *n.gemm_batch == 0) {
            problem(n, "attribute 'gemm_batch' is 0; a positive number of GEMMs was expected");
            ok = false;
        }
        if (!ok) return;
        gemm = Gemm{*n.gemm_m, *n.gemm_n, *n.gemm_k, n.gemm_batch.value_or(1)};
    } else if (is_matmul_op(n.name)) {
        gemm = gemm_from_op(n.name, n.inputs.shapes);
        if (!gemm) ++unread_matmuls_;
    }
    if (!gemm) {
        // A kernel without a shape may take its launching operator's (finish()).
        if (!n.is_cpu_op && !n.ctrl_deps.empty()) kernel_parents_.emplace_back(index, n.ctrl_deps.front());
        return;
    }
    g.tag = static_cast<uint32_t>(g_.gemms.size() + 1);
    g_.gemms.push_back(*gemm);
    if (n.is_cpu_op) host_gemms_.push_back(index);
}

// [SECTION] sorting, dependency resolution and cycle detection

Result<WorkloadGraph> GraphBuilder::finish(std::vector<std::string>& warnings) {
    const size_t n = g_.nodes.size();
    if (n > UINT32_MAX / 2) return Status::error(source_ + ": too many nodes (" + std::to_string(n) + ")");
    if (no_time_compute_)
        warnings.push_back(
            source_ + ": " + std::to_string(no_time_compute_) +
            " compute node(s) have neither duration_micros nor num_ops; each takes 1 ns, as in ASTRA-sim");
    if (invalid_nodes_)
        warnings.push_back(source_ + ": " + std::to_string(invalid_nodes_) +
                           " node(s) have type INVALID_NODE (0, or no type); they take no time");
    if (cpu_comm_nodes_)
        warnings.push_back(
            source_ + ": " + std::to_string(cpu_comm_nodes_) +
            " communication node(s) are flagged is_cpu_op; they are replayed as host CPU work");

    if (unread_matmuls_)
        warnings.push_back(source_ + ": " + std::to_string(unread_matmuls_) +
                           " matrix-multiply operator(s) have input shapes that give no GEMM; they fall back "
                           "from the systolic model");
    // A host-only PyTorch trace holds the aten operators and no kernels: the matmul's NPU work exists only
    // as the host node, so the array runs it (on the NPU compute slot). With kernels, see
    // hand_gemms_to_kernels below.
    if (!host_gemms_.empty() && gpu_compute_ == 0) {
        for (uint32_t i : host_gemms_)
            g_.nodes[i].flags = static_cast<uint8_t>(g_.nodes[i].flags & ~kCpuOp);
        warnings.push_back(source_ + ": " + std::to_string(host_gemms_.size()) +
                           " matrix-multiply host operator(s) (is_cpu_op) run on the systolic array as NPU "
                           "work: the trace has no kernel nodes");
    }
    // Order by id. `order[k]` is the arrival index of the k-th smallest id; `where[i]` the inverse.
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [this](uint32_t a, uint32_t b) { return g_.nodes[a].id < g_.nodes[b].id; });
    for (size_t k = 1; k < n; ++k)
        if (g_.nodes[order[k]].id == g_.nodes[order[k - 1]].id &&
            problems_.problems().size() < opt_.max_problems)
            problems_.add(source_ + ": node id " + std::to_string(g_.nodes[order[k]].id) +
                          " appears more than once");
    std::vector<uint32_t> where(n);
    for (size_t k = 0; k < n; ++k)
        where[order[k]] = static_cast<uint32_t>(k);
    WorkloadGraph out;
    out.rank = g_.rank;
    out.gemms = std::move(g_.gemms);
    out.nodes.resize(n);
    for (size_t k = 0; k < n; ++k)
        out.nodes[k] = g_.nodes[order[k]];
    if (opt_.keep_names) {
        out.names.resize(n);
        for (size_t k = 0; k < n; ++k)
            out.names[k] = std::move(g_.names[order[k]]);
    }
    auto index_of = [&out](uint64_t id) -> int64_t {
        auto it = std::lower_bound(out.nodes.begin(), out.nodes.end(), id,
                                   [](const GraphNode& a, uint64_t v) { return a.id < v; });
        return (it != out.nodes.end() && it->id == id) ? it - out.nodes.begin() : -1;
    };
    if (!host_gemms_.empty() && gpu_compute_ > 0) {
        // A trace with kernels: the Chakra converter makes each GPU kernel a ctrl_deps child of the aten
        // operator that launched it. The kernel (named after itself, no shapes) is the NPU work, so the
        // first kernel of a GEMM-shaped operator takes its GEMM and the operator stays host work; an
        // operator without a kernel child keeps none. Either way the matmul is counted once.
        uint64_t handed = 0;
        for (const auto& [kernel, parent_id] : kernel_parents_) {
            GraphNode& k = out.nodes[where[kernel]];
            int64_t p = index_of(parent_id);
            if (p < 0 || k.tag != 0) continue;
            GraphNode& host = out.nodes[static_cast<size_t>(p)];
            if (host.kind != NodeKind::Compute || !host.has(kCpuOp) || host.tag == 0) continue;
            k.tag = host.tag;
            host.tag = 0;
            ++handed;
        }
        for (auto& node : out.nodes)
            if (node.kind == NodeKind::Compute && node.has(kCpuOp)) node.tag = 0;
        warnings.push_back(source_ + ": " + std::to_string(host_gemms_.size()) +
                           " matrix-multiply host operator(s) (is_cpu_op) stay host work; " +
                           std::to_string(handed) +
                           " of them hand their GEMM to the kernel they launch (its ctrl_deps child)");
    }
    decltype(kernel_parents_)().swap(kernel_parents_);

    // Resolve edges to (child, parent) indices, drop duplicates, count.
    std::vector<std::pair<uint32_t, uint32_t>> edges; // (parent, child) in sorted indices
    edges.reserve(edges_.size());
    for (const auto& e : edges_) {
        uint32_t child = where[e.first];
        int64_t parent = index_of(e.second);
        if (parent < 0) {
            if (problems_.problems().size() < opt_.max_problems)
                problems_.add(source_ + ": node " + std::to_string(out.nodes[child].id) +
                              " depends on node " + std::to_string(e.second) + ", which is not in the file");
            continue;
        }
        edges.emplace_back(static_cast<uint32_t>(parent), child);
    }
    decltype(edges_)().swap(edges_);
    if (!problems_.is_ok()) return problems_;
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

    out.children.resize(edges.size());
    std::vector<uint32_t> count(n + 1, 0);
    for (const auto& e : edges) {
        ++count[e.first];
        ++out.nodes[e.second].parents;
    }
    uint32_t pos = 0;
    for (size_t i = 0; i < n; ++i) {
        out.nodes[i].child_begin = pos;
        pos += count[i];
    }
    for (size_t i = 0; i < edges.size(); ++i)
        out.children[i] = edges[i].second; // sorted by parent already

    // Kahn's algorithm: every node must be reachable from the dependency-free ones.
    std::vector<uint32_t> left(n), stack;
    for (size_t i = 0; i < n; ++i) {
        left[i] = out.nodes[i].parents;
        if (left[i] == 0) stack.push_back(static_cast<uint32_t>(i));
    }
    size_t seen = 0;
    while (!stack.empty()) {
        uint32_t v = stack.back();
        stack.pop_back();
        ++seen;
        for (uint32_t c = out.nodes[v].child_begin; c < out.child_end(v); ++c)
            if (--left[out.children[c]] == 0) stack.push_back(out.children[c]);
    }
    if (seen != n) {
        // Walk parents among the stuck nodes until one repeats: that walk closes a cycle.
        std::vector<int32_t> parent_of(n, -1);
        for (const auto& e : edges)
            if (left[e.first] > 0 && left[e.second] > 0) parent_of[e.second] = static_cast<int32_t>(e.first);
        uint32_t v = 0;
        while (left[v] == 0)
            ++v;
        std::vector<int32_t> visit(n, -1);
        std::vector<uint32_t> path;
        while (visit[v] < 0) {
            visit[v] = static_cast<int32_t>(path.size());
            path.push_back(v);
            v = static_cast<uint32_t>(parent_of[v]);
        }
        std::string members;
        size_t shown = 0;
        for (size_t k = static_cast<size_t>(visit[v]); k < path.size() && shown < 12; ++k, ++shown)
            members += (shown ? " <- " : "") + std::to_string(out.nodes[path[k]].id);
        if (path.size() - static_cast<size_t>(visit[v]) > 12) members += " <- ...";
        return Status::error(source_ + ": the dependencies form a cycle (" + std::to_string(n - seen) +
                             " nodes can never start); one cycle, each node waiting on the next: " + members);
    }
    return out;
}

} // namespace astrolabe
