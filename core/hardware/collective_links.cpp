#include "core/hardware/collective_links.h"

#include "core/hardware/hardware_mapping.h"

#include <algorithm>
#include <map>
#include <string>

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

} // namespace

GroupShape group_shape(const config::HardwareConfig& hw, const PhaseMembers& members) {
    GroupShape s;
    s.ranks = members.size;
    std::map<uint32_t, uint32_t> per_node;
    for (uint32_t i = 0; i < members.size; ++i)
        ++per_node[members.npu(i) / std::max<uint32_t>(1, hw.gpus_per_node)];
    s.nodes = static_cast<uint32_t>(per_node.size());
    for (const auto& [node, count] : per_node)
        s.gpus_per_node = std::max(s.gpus_per_node, count);
    for (const auto& [node, count] : per_node)
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

NcclChoice run_choice(const config::HardwareConfig& hw, PhaseType type, uint64_t bytes,
                      const PhaseMembers& members) {
    const GroupShape shape = group_shape(hw, members);
    const CollOp op = coll_op(type);
    // nccl-tests' size: the gathered output of an all-gather, the buffer of the others.
    const uint64_t nccl_bytes = op == CollOp::AllGather ? bytes * members.size : bytes;
    return choose(group_system(hw, shape), op, nccl_bytes);
}

CollectiveLinks collective_links(const config::HardwareConfig& hw) {
    return [hw](PhaseType type, uint64_t bytes, const PhaseMembers& members, CollectiveLink& out) {
        if (members.size < 2) return false;
        const NcclChoice c = run_choice(hw, type, bytes, members);
        if (c.busbw_gbs <= 0) return false;
        // The link the engine's ring runs on in collective-perf: two hops of a Switch dimension per
        // message, bytes at the dimension's rate (GB/s of 2^30 bytes, as the analytical network reads it).
        const config::NetworkDim d = engine_dim(coll_op(type), members.size, c);
        out.latency_ns = 2 * d.latency_ns;
        out.bytes_per_ns = d.bandwidth_gbps * 1073741824.0 / 1e9;
        const GroupShape shape = group_shape(hw, members);
        out.note = std::string(coll_op_name(coll_op(type))) + " timed as NCCL's " +
                   config::nccl_algo_name(c.algo) + "/" + config::nccl_proto_name(c.proto) + " on " +
                   std::to_string(shape.nodes) + " node(s) x " + std::to_string(shape.gpus_per_node) +
                   " GPU(s) (hardware description)";
        return true;
    };
}

} // namespace astrolabe::hardware
