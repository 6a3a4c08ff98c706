#include "core/memory/remote_memory.h"

#include "core/base/assert.h"

namespace astrolabe {

RemoteMemory::RemoteMemory(const config::MemoryConfig& cfg, NpuBuckets& buckets, uint32_t npus)
    : cfg_(cfg), buckets_(buckets) {
    if (cfg_.type == config::MemoryType::Pool) servers_.resize(1);
    if (cfg_.type == config::MemoryType::PerNodeExpansion)
        servers_.resize((npus + cfg_.npus_per_node - 1) / cfg_.npus_per_node);
}

TimeNs RemoteMemory::access_time(uint64_t bytes) const {
    // Computed as ASTRA-sim does: seconds in double, scaled to ns, truncated once.
    double bw = static_cast<double>(cfg_.bandwidth_gbps) * 1e9;
    double ns = static_cast<double>(bytes) / bw * 1e9;
    return cfg_.latency_ns + static_cast<TimeNs>(ns);
}

uint32_t RemoteMemory::server_of(uint32_t npu) const {
    return cfg_.type == config::MemoryType::Pool ? 0 : npu / cfg_.npus_per_node;
}

void RemoteMemory::access(uint32_t npu, uint64_t bytes, const Callback& done) {
    SIM_ASSERT(cfg_.type != config::MemoryType::NoExpansion,
               "a memory access with no remote memory configured");
    ++accesses_;
    bytes_ += bytes;
    if (servers_.empty()) {
        buckets_.add(npu, access_time(bytes), done);
        return;
    }
    uint32_t s = server_of(npu);
    if (servers_[s].busy) {
        servers_[s].waiting.push_back({npu, bytes, done});
        return;
    }
    start(s, {npu, bytes, done});
}

void RemoteMemory::start(uint32_t server, const Request& r) {
    servers_[server].busy = true;
    TimeNs t = access_time(r.bytes);
    // The requester's completion first, then the server frees up, in the same bucket (ASTRA-sim's order):
    // a new access issued by that completion queues behind the ones already waiting.
    buckets_.add(r.npu, t, r.done);
    buckets_.add(r.npu, t, Callback{this, 0, server});
}

void RemoteMemory::on_event(uint32_t, uint64_t arg) {
    Server& s = servers_[arg];
    if (s.waiting.empty()) {
        s.busy = false;
        return;
    }
    Request next = s.waiting.front();
    s.waiting.pop_front();
    start(static_cast<uint32_t>(arg), next);
}

} // namespace astrolabe
