#include "core/memory/remote_memory.h"

#include "core/base/assert.h"

#include <algorithm>

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
    return time_add(cfg_.latency_ns, time_from_ns(ns));
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
    if (cfg_.sharing == config::MemorySharing::Fair) {
        fair_advance(servers_[s]);
        servers_[s].active.push_back({npu, static_cast<double>(bytes), done});
        fair_schedule(s);
        return;
    }
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
    buckets_.add(r.npu, t, Callback{this, kServerFree, server});
}

void RemoteMemory::on_event(uint32_t kind, uint64_t arg) {
    if (kind == kFairStep) return fair_step(static_cast<uint32_t>(arg), static_cast<uint32_t>(arg >> 32));
    Server& s = servers_[arg];
    if (s.waiting.empty()) {
        s.busy = false;
        return;
    }
    Request next = s.waiting.front();
    s.waiting.pop_front();
    start(static_cast<uint32_t>(arg), next);
}

// [SECTION] fair bandwidth sharing

// Moves every access in flight forward by its share of the bytes served since the last update.
void RemoteMemory::fair_advance(Server& s) {
    TimeNs now = buckets_.now();
    if (!s.active.empty() && now > s.updated) {
        double each = static_cast<double>(now - s.updated) * static_cast<double>(cfg_.bandwidth_gbps) /
                      static_cast<double>(s.active.size());
        for (auto& t : s.active)
            t.remaining -= each;
    }
    s.updated = now;
}

// Schedules the memory's next completion: the access with the fewest bytes left, at the current share.
// Truncated to whole ns as in FIFO mode; fair_step then finishes whatever has less than a ns of work left.
void RemoteMemory::fair_schedule(uint32_t server) {
    Server& s = servers_[server];
    ++s.generation;
    if (s.active.empty()) return;
    double least = s.active.front().remaining;
    for (const auto& t : s.active)
        least = std::min(least, t.remaining);
    double ns = std::max(0.0, least) * static_cast<double>(s.active.size()) /
                static_cast<double>(cfg_.bandwidth_gbps);
    const TimeNs delay = time_from_ns(ns);
    buckets_.add(s.active.front().npu, delay,
                 Callback{this, kFairStep, uint64_t(server) | uint64_t(s.generation) << 32});
}

void RemoteMemory::fair_step(uint32_t server, uint32_t generation) {
    Server& s = servers_[server];
    if (generation != s.generation) return; // superseded by a later start or finish
    fair_advance(s);
    // Whatever would finish within the next ns at the current share is done (the truncation above).
    double one_ns = static_cast<double>(cfg_.bandwidth_gbps) / static_cast<double>(s.active.size());
    finished_.clear();
    size_t kept = 0;
    for (size_t i = 0; i < s.active.size(); ++i) {
        if (s.active[i].remaining < one_ns)
            finished_.push_back(s.active[i]);
        else
            s.active[kept++] = s.active[i];
    }
    s.active.resize(kept);
    fair_schedule(server);
    // In arrival order; the latency is a fixed delay after the bytes, on the requester's bucket.
    for (const auto& t : finished_)
        buckets_.add(t.npu, cfg_.latency_ns, t.done);
}

} // namespace astrolabe
