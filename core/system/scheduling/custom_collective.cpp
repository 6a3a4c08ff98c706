#include "core/system/scheduling/custom_collective.h"

#include "core/base/assert.h"
#include "core/compute/compute_time.h"

#include <algorithm>

namespace astrolabe {

void CustomCollectives::start(uint32_t npu, const WorkloadGraph& algorithm,
                              const std::vector<uint32_t>* ranks, const Callback& done) {
    Run& r = runs_[npu];
    SIM_ASSERT(r.graph == nullptr, "one custom collective per NPU at a time");
    r.graph = &algorithm;
    r.ranks = ranks;
    r.done = done;
    r.in_flight = 0;
    r.parents_left.resize(algorithm.size());
    r.ready.clear();
    for (uint32_t k = 0; k < algorithm.size(); ++k) {
        r.parents_left[k] = algorithm.nodes[k].parents;
        if (r.parents_left[k] == 0) r.ready.push_back(k);
    }
    if (algorithm.size() == 0) {
        buckets_.add(npu, 0, Callback{this, kEmpty, npu});
        return;
    }
    issue_ready(npu);
}

void CustomCollectives::release_children(Run& r, uint32_t node) {
    for (uint32_t c = r.graph->nodes[node].child_begin; c < r.graph->child_end(node); ++c)
        if (--r.parents_left[r.graph->children[c]] == 0) r.ready.push_back(r.graph->children[c]);
}

void CustomCollectives::issue_ready(uint32_t npu) {
    Run& r = runs_[npu];
    // Zero-time nodes finish here and may make more nodes ready; keep going until none is left.
    while (!r.ready.empty()) {
        r.batch.clear();
        r.batch.swap(r.ready); // both keep their buffers: no allocation per pass
        std::sort(r.batch.begin(), r.batch.end());
        for (uint32_t node : r.batch) {
            const GraphNode& n = r.graph->nodes[node];
            Callback cb{this, kNodeDone, pack(npu, node)};
            switch (n.kind) {
            case NodeKind::Send:
                ++r.in_flight;
                matcher_.send(
                    MessageKey{MessageSpace::Workload, workload_tag(n.tag), npu, npu_of(r, n.peer), n.bytes},
                    cb);
                break;
            case NodeKind::Recv:
                ++r.in_flight;
                matcher_.recv(
                    MessageKey{MessageSpace::Workload, workload_tag(n.tag), npu_of(r, n.peer), npu, n.bytes},
                    cb);
                break;
            case NodeKind::Compute:
                ++r.in_flight;
                buckets_.add(npu, replay_time(n.duration_ns), cb);
                break;
            default: // no-ops (other kinds are refused when the simulation is built)
                release_children(r, node);
                break;
            }
        }
    }
}

void CustomCollectives::finish(uint32_t npu, uint32_t node) {
    Run& r = runs_[npu];
    --r.in_flight;
    release_children(r, node);
    issue_ready(npu);
}

void CustomCollectives::on_event(uint32_t kind, uint64_t arg) {
    auto npu = static_cast<uint32_t>(kind == kEmpty ? arg : arg >> 32);
    Run& r = runs_[npu];
    SIM_ASSERT(r.graph != nullptr, "a custom-collective event arrived for an NPU running none");
    if (kind == kNodeDone) finish(npu, static_cast<uint32_t>(arg));
    if (r.in_flight == 0 && r.ready.empty()) {
        Callback done = r.done;
        r.graph = nullptr;
        done.invoke();
    }
}

} // namespace astrolabe
