#include "core/hardware/collective_links.h"

#include "core/hardware/hardware_mapping.h"

#include <algorithm>
#include <string>
#include <vector>

namespace astrolabe::hardware {

namespace {

// PhaseType and CollOp list the operations in the same order (config::CollectiveKind's).
CollOp coll_op(PhaseType t) {
    switch (t) {
    case PhaseType::AllReduce:
        return CollOp::AllReduce;
    case PhaseType::AllGather:
        return CollOp::AllGather;
    case PhaseType::ReduceScatter:
        return CollOp::ReduceScatter;
    case PhaseType::AllToAll:
        return CollOp::AllToAll;
    }
    return CollOp::AllReduce;
}

// One collective's group shape and NCCL's choice on it (the note names both).
struct RunPick {
    GroupShape shape;
    NcclChoice choice;
};

RunPick run_pick(const config::HardwareConfig& hw, PhaseType type, uint64_t bytes,
                 const PhaseMembers& members) {
    RunPick p;
    p.shape = group_shape(hw, members);
    const CollOp op = coll_op(type);
    // nccl-tests' size: the gathered output of an all-gather, the buffer of the others.
    const uint64_t nccl_bytes = op == CollOp::AllGather ? bytes * members.size : bytes;
    p.choice = choose(group_system(hw, p.shape), op, nccl_bytes);
    return p;
}

// The run report's note for one collective, counted per NPU in the report's notes.
std::string run_note(CollOp op, const NcclChoice& c, const GroupShape& shape) {
    return std::string(coll_op_name(op)) + " timed as NCCL's " + config::nccl_algo_name(c.algo) + "/" +
           config::nccl_proto_name(c.proto) + (c.by_aws_map ? " (aws-ofi-nccl's map)" : "") + " on " +
           std::to_string(shape.nodes) + " node(s) x " + std::to_string(shape.gpus_per_node) +
           " GPU(s) (hardware description)";
}

} // namespace

GroupShape group_shape(const config::HardwareConfig& hw, const PhaseMembers& members) {
    GroupShape s;
    s.ranks = members.size;
    // Each member's node, sorted: the runs of equal nodes are the members per node (once per collective
    // when its link is built, so a sort of the group rather than a table over the system's nodes).
    std::vector<uint32_t> node(members.size);
    const uint32_t g = std::max<uint32_t>(1, hw.gpus_per_node);
    for (uint32_t i = 0; i < members.size; ++i)
        node[i] = members.npu(i) / g;
    std::sort(node.begin(), node.end());
    std::vector<uint32_t> counts;
    for (size_t i = 0; i < node.size(); ++i) {
        if (i == 0 || node[i] != node[i - 1]) counts.push_back(0);
        ++counts.back();
    }
    s.nodes = static_cast<uint32_t>(counts.size());
    for (uint32_t count : counts)
        s.gpus_per_node = std::max(s.gpus_per_node, count);
    for (uint32_t count : counts)
        s.regular = s.regular && count == s.gpus_per_node;
    return s;
}

config::HardwareConfig group_system(const config::HardwareConfig& hw, const GroupShape& shape) {
    config::HardwareConfig sub = hw;
    sub.nodes = std::max<uint32_t>(1, shape.nodes);
    sub.gpus_per_node = std::max<uint32_t>(1, shape.gpus_per_node);
    sub.nvls = hw.nvls && sub.gpus_per_node >= 2;
    if (sub.gpus_per_node != hw.gpus_per_node) {
        // The group's GPUs keep their NICs (the other GPUs of the node run their own groups meanwhile):
        // nics_per_node x g' / g of them, at the same line rate when that is a whole number of NICs (else
        // one NIC carrying that share of the rate), and each GPU exactly the share it has in the system.
        const double share = double(hw.nics_per_node) * sub.gpus_per_node / hw.gpus_per_node;
        sub.nics_per_node = std::max<uint32_t>(1, static_cast<uint32_t>(share));
        sub.nic_gbps = hw.nic_gbps * share / sub.nics_per_node;
        sub.nics_per_gpu = nics_per_gpu(hw) * hw.nic_gbps / sub.nic_gbps;
    }
    return sub;
}

CollectiveLinks collective_links(const config::HardwareConfig& hw) {
    return [hw](PhaseType type, uint64_t bytes, const PhaseMembers& members, CollectiveLink& out) {
        if (members.size < 2) return false;
        const RunPick p = run_pick(hw, type, bytes, members);
        if (p.choice.busbw_gbs <= 0) return false;
        // The link the engine's ring runs on in collective-perf: two hops of a Switch dimension per
        // message, bytes at the dimension's rate (GB/s of 2^30 bytes, as the analytical network reads it).
        const config::NetworkDim d = engine_dim(coll_op(type), members.size, p.choice);
        out.latency_ns = 2 * d.latency_ns;
        out.bytes_per_ns = d.bandwidth_gbps * 1073741824.0 / 1e9;
        out.algorithm = engine_algorithm(coll_op(type));
        out.note = run_note(coll_op(type), p.choice, p.shape);
        return true;
    };
}

} // namespace astrolabe::hardware
