// The compact, validated form of one NPU's trace that the simulator runs on.
//
// Nodes are sorted by id, so "ascending id" (ASTRA-sim's issue order) is ascending index; dependencies are
// resolved to indices and stored as child lists (CSR). Only what the models need is kept (about 56 bytes a
// node, plus 4 per edge; a generated rank's thin copy keeps only its peer maps: see WorkloadGraph::model),
// so traces of thousands of NPUs fit in memory. Built from a stream of decoded nodes; every problem is
// reported with the file, node id and name, and attribute.
#pragma once

#include "core/base/status.h"
#include "core/compute/systolic.h"
#include "core/trace/trace_types.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

// What a node does in the simulation (a refinement of the Chakra node type).
enum class NodeKind : uint8_t {
    Nop,        // INVALID and METADATA nodes: no work, zero time
    Compute,    // COMP_NODE
    MemLoad,    // MEM_LOAD_NODE
    MemStore,   // MEM_STORE_NODE
    Send,       // COMM_SEND_NODE
    Recv,       // COMM_RECV_NODE
    Collective, // COMM_COLL_NODE
};
const char* node_kind_name(NodeKind k);

enum NodeFlags : uint8_t {
    kCpuOp = 1,         // is_cpu_op: runs on the host CPU slot, always replayed from its duration
    kHasNumOps = 2,     // num_ops present
    kHasTensorSize = 4, // tensor_size present
    kHasDuration = 8,   // duration_micros > 0
};

struct GraphNode {
    uint64_t id = 0;
    uint64_t bytes = 0;       // Compute/Mem: tensor_size; Send/Recv/Collective: comm_size
    uint64_t num_ops = 0;     // Compute
    uint64_t duration_ns = 0; // duration_micros * 1000
    uint32_t peer = 0;        // Send: destination; Recv: source; Collective: group index (0 = all NPUs)
    uint32_t tag = 0;         // Send/Recv: comm_tag; Collective: comm_priority; Compute: gemm slot
    uint32_t child_begin = 0; // children are children[child_begin, next node's child_begin)
    uint32_t parents = 0;     // number of distinct parents
    NodeKind kind = NodeKind::Nop;
    uint8_t flags = 0;
    trace::CollectiveType collective = trace::CollectiveType::AllReduce;
    uint8_t involved_dims = 0xff; // bit d: network dimension d takes part (Collective without a group)
    bool has(NodeFlags f) const { return (flags & f) != 0; }
    // Compute nodes with a GEMM shape: 1 + its index in WorkloadGraph::gemms (0 = none). Kept in `tag`,
    // which compute nodes do not otherwise use, so the node stays 56 bytes.
    uint32_t gemm_slot() const { return kind == NodeKind::Compute ? tag : 0; }
};

// Communicator groups as the simulation sees them. Index 0 is always the whole system.
struct GroupTable {
    struct Group {
        uint32_t id = 0;             // the config's group id (0 = whole system)
        std::vector<uint32_t> ranks; // ring order; empty for the whole system
    };
    std::vector<Group> groups{Group{}};
    int find(uint32_t id) const {
        for (size_t i = 0; i < groups.size(); ++i)
            if (groups[i].id == id) return static_cast<int>(i);
        return -1;
    }
};

struct WorkloadGraph {
    uint32_t rank = 0;
    std::vector<GraphNode> nodes;   // ascending id (empty in a thin copy: see model)
    std::vector<uint32_t> children; // CSR payload
    std::vector<std::string> names; // per node, only when kept
    std::vector<Gemm> gemms;        // GEMM shapes of compute nodes (GraphBuildOptions::gemm_shapes)
    // Set on a thin copy (core/session/graph_cache.h, retarget_graph): the graph of the rank's pipeline
    // stage it was retargeted from, equal to this rank's in everything but the send/recv peers and the
    // collective group indices. A thin copy holds no nodes, edges, names or GEMMs of its own: read them
    // through shape(), size(), child_end(), name() and the peers through peer() or node(). Every rank of a
    // stage shares the model, so a thousand ranks cost one graph and a few bytes each, and the executor's
    // walks over nodes and edges stay in cache.
    std::shared_ptr<const WorkloadGraph> model;
    // With a model, how this rank's peers follow from the model's: a send/recv peer plus model_shift, a
    // collective's group index through model_groups ((model's index, this rank's), one per group the
    // model uses: a handful; none for the model's own rank, whose groups are the model's).
    int64_t model_shift = 0;
    std::vector<std::pair<uint32_t, uint32_t>> model_groups;

    // The graph to read everything but peers from: the model when there is one.
    const WorkloadGraph& shape() const { return model ? *model : *this; }
    // Node i's send/recv peer or collective group index for this rank.
    uint32_t peer(size_t i) const {
        return model ? mapped_peer(model->nodes[i], model_shift, model_groups) : nodes[i].peer;
    }
    // A model node's peer moved by `shift` (send/recv) or through `groups` (collective).
    static uint32_t mapped_peer(const GraphNode& n, int64_t shift,
                                const std::vector<std::pair<uint32_t, uint32_t>>& groups) {
        if (n.kind == NodeKind::Send || n.kind == NodeKind::Recv)
            return static_cast<uint32_t>(int64_t(n.peer) + shift);
        if (n.kind != NodeKind::Collective || n.peer == 0) return n.peer;
        for (const auto& m : groups)
            if (m.first == n.peer) return m.second;
        return n.peer; // the model's own rank
    }
    // Node i as this rank has it (the shape's node with this rank's peer): for loops off the hot path.
    GraphNode node(size_t i) const {
        if (!model) return nodes[i];
        GraphNode n = model->nodes[i];
        n.peer = peer(i);
        return n;
    }
    size_t size() const { return shape().nodes.size(); }
    uint32_t child_end(size_t i) const {
        const WorkloadGraph& g = shape();
        return i + 1 < g.nodes.size() ? g.nodes[i + 1].child_begin : static_cast<uint32_t>(g.children.size());
    }
    const std::string& name(size_t i) const {
        static const std::string kEmpty;
        const WorkloadGraph& g = shape();
        return i < g.names.size() ? g.names[i] : kEmpty;
    }
    size_t memory_bytes() const;
};

struct GraphBuildOptions {
    uint32_t rank = 0;
    uint32_t npus = 1;
    const GroupTable* groups = nullptr;
    bool keep_names = true;
    bool ignore_ctrl_deps = false;     // converter traces: ctrl_deps encode CPU call nesting
    bool roofline = false;             // COMP nodes then need num_ops and tensor_size
    bool roofline_or_duration = false; // ... or else replay their duration (hardware descriptions)
    // Read GEMM shapes of COMP nodes (the systolic model): the gemm_m/gemm_n/gemm_k(/gemm_batch)
    // attributes, else the input shapes of a PyTorch matrix-multiply operator (core/compute/gemm_shape.h).
    // The reader must then keep node names and inputs.
    bool gemm_shapes = false;
    size_t max_problems = 20;
};

// Collects decoded nodes one at a time and builds the graph at the end.
class GraphBuilder {
public:
    GraphBuilder(std::string source, const GraphBuildOptions& options);
    void add(const trace::Node& n);
    // Sorts, resolves dependencies, checks for cycles. `warnings` receives non-fatal notes.
    Result<WorkloadGraph> finish(std::vector<std::string>& warnings);

private:
    void problem(const trace::Node& n, const std::string& what);
    void read_gemm(const trace::Node& n, GraphNode& g, uint32_t index);

    std::string source_;
    GraphBuildOptions opt_;
    WorkloadGraph g_;
    std::vector<std::pair<uint32_t, uint64_t>> edges_; // (child index in arrival order, parent id)
    Status problems_;
    uint64_t no_time_compute_ = 0;     // COMP nodes with neither duration nor num_ops
    uint64_t invalid_nodes_ = 0;       // INVALID_NODE (type 0) nodes, run as no-ops
    uint64_t cpu_comm_nodes_ = 0;      // communication nodes flagged is_cpu_op (replayed as CPU work)
    uint64_t gpu_compute_ = 0;         // COMP nodes not flagged is_cpu_op
    uint64_t unread_matmuls_ = 0;      // matrix-multiply operators whose input shapes gave no GEMM
    std::vector<uint32_t> host_gemms_; // arrival indices of GEMM-shaped COMP nodes flagged is_cpu_op
    // (arrival index, first ctrl_deps id) of GPU COMP nodes without a GEMM shape: kernels that may take
    // their launching operator's shape.
    std::vector<std::pair<uint32_t, uint64_t>> kernel_parents_;
};

} // namespace astrolabe
