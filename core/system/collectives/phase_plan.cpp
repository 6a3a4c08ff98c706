#include "core/system/collectives/phase_plan.h"

#include "core/base/assert.h"
#include "core/system/collectives/double_binary_tree.h"
#include "core/system/collectives/halving_doubling.h"
#include "core/system/collectives/ring.h"

#include <algorithm>

namespace astrolabe {

LogicalTopology make_logical_topology(const config::NetworkConfig& net) {
    LogicalTopology t;
    uint32_t stride = 1;
    for (const auto& dim : net.dims) {
        t.sizes.push_back(dim.npus);
        t.strides.push_back(stride);
        stride *= dim.npus;
    }
    t.npus = stride;
    return t;
}

std::vector<config::AlgorithmChoice> implementations(PhaseType type, const config::SystemConfig& sys,
                                                     const LogicalTopology& topo) {
    int kind = 0;
    switch (type) {
    case PhaseType::AllReduce:
        kind = int(config::CollectiveKind::AllReduce);
        break;
    case PhaseType::AllGather:
        kind = int(config::CollectiveKind::AllGather);
        break;
    case PhaseType::ReduceScatter:
        kind = int(config::CollectiveKind::ReduceScatter);
        break;
    case PhaseType::AllToAll:
        kind = int(config::CollectiveKind::AllToAll);
        break;
    }
    if (sys.implementation[kind].empty()) return std::vector<config::AlgorithmChoice>(topo.sizes.size());
    return sys.implementation[kind];
}

namespace {

PhaseSpec dim_phase(PhaseType type, size_t d, const config::AlgorithmChoice& alg, const LogicalTopology& topo,
                    uint32_t npu, bool clockwise) {
    PhaseSpec p;
    p.type = type;
    p.queue = static_cast<uint32_t>(d);
    p.algorithm = alg;
    uint32_t idx = topo.index_in_dim(npu, d);
    p.members.base = npu - idx * topo.strides[d];
    p.members.stride = topo.strides[d];
    p.members.size = topo.sizes[d];
    p.my_index = idx;
    p.clockwise = clockwise;
    return p;
}

} // namespace

std::vector<PhaseSpec> plan_collective(const PlanRequest& req, const config::SystemConfig& sys,
                                       const LogicalTopology& topo) {
    std::vector<PhaseSpec> phases;
    if (req.group && req.group->size() != topo.npus) {
        if (req.group->size() < 2) return phases;
        PhaseSpec p;
        p.type = req.type;
        p.queue = 0;
        p.algorithm = config::AlgorithmChoice{config::CollectiveAlgorithm::Ring, -1};
        p.members.list = req.group;
        p.members.size = static_cast<uint32_t>(req.group->size());
        for (uint32_t i = 0; i < req.group->size(); ++i)
            if ((*req.group)[i] == req.npu) p.my_index = i;
        p.local = true;
        phases.push_back(p);
        return phases;
    }
    // One logical dimension per implementation entry (a shorter list leaves the higher dimensions out, as
    // in ASTRA-sim; the session warns about it when such a collective is used).
    std::vector<config::AlgorithmChoice> algs = implementations(req.type, sys, topo);
    size_t logical = std::min(algs.size(), topo.sizes.size());
    std::vector<size_t> dims;
    for (size_t d = 0; d < logical; ++d) {
        bool involved = req.group || d >= 8 || (req.involved_dims >> d & 1);
        if (involved && topo.sizes[d] > 1) dims.push_back(d);
    }
    if (dims.empty()) return phases;
    if (req.type == PhaseType::AllReduce &&
        sys.collective_optimization == config::CollectiveOptimization::LocalBWAware && dims.size() > 1) {
        for (size_t i = 0; i + 1 < dims.size(); ++i)
            phases.push_back(
                dim_phase(PhaseType::ReduceScatter, dims[i], algs[dims[i]], topo, req.npu, true));
        phases.push_back(
            dim_phase(PhaseType::AllReduce, dims.back(), algs[dims.back()], topo, req.npu, true));
        for (size_t i = dims.size() - 1; i-- > 0;)
            phases.push_back(dim_phase(PhaseType::AllGather, dims[i], algs[dims[i]], topo, req.npu, false));
        return phases;
    }
    if (req.type == PhaseType::AllGather) {
        for (size_t i = dims.size(); i-- > 0;)
            phases.push_back(dim_phase(req.type, dims[i], algs[dims[i]], topo, req.npu, true));
        return phases;
    }
    for (size_t d : dims)
        phases.push_back(dim_phase(req.type, d, algs[d], topo, req.npu, true));
    return phases;
}

bool restart_as_ring(RingPhase& ring, const PhaseSpec& spec, uint64_t data_size) {
    const auto algorithm = spec.algorithm.algorithm;
    if (algorithm != config::CollectiveAlgorithm::Ring && algorithm != config::CollectiveAlgorithm::Direct)
        return false;
    bool direct = algorithm == config::CollectiveAlgorithm::Direct;
    ring.restart(spec.type, data_size, spec.members, spec.my_index, direct,
                 direct ? spec.algorithm.window : -1, spec.clockwise);
    return true;
}

std::unique_ptr<PhaseAlgorithm> make_phase_algorithm(const PhaseSpec& spec, uint64_t data_size, bool min_tree,
                                                     std::unique_ptr<PhaseAlgorithm> recycled) {
    switch (spec.algorithm.algorithm) {
    case config::CollectiveAlgorithm::Ring:
    case config::CollectiveAlgorithm::Direct: {
        if (recycled && recycled->as_ring()) {
            restart_as_ring(*recycled->as_ring(), spec, data_size);
            return recycled;
        }
        auto ring = std::make_unique<RingPhase>();
        restart_as_ring(*ring, spec, data_size);
        return ring;
    }
    case config::CollectiveAlgorithm::HalvingDoubling:
        return std::make_unique<HalvingDoublingPhase>(spec.type, data_size, spec.members, spec.my_index);
    case config::CollectiveAlgorithm::DoubleBinaryTree:
        return std::make_unique<DoubleBinaryTreePhase>(data_size, spec.members, spec.my_index, min_tree);
    }
    SIM_ASSERT(false, "unknown collective algorithm");
    return nullptr;
}

} // namespace astrolabe
