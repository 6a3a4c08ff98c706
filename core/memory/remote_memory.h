// Remote memory: how long MEM_LOAD / MEM_STORE nodes take (ASTRA-sim's analytical remote-memory model).
//
// An access of `bytes` costs latency + floor(bytes / bw) ns, bw in GB/s with 1 GB = 1e9 bytes.
//   PER_NPU_MEMORY_EXPANSION   each NPU has its own expansion memory: accesses never wait for others.
//   PER_NODE_MEMORY_EXPANSION  NPUs of one node (rank / num-npus-per-node) share one memory; it serves one
//                              access at a time, first come first served, so concurrent NPUs slow each other.
//   MEMORY_POOL                one memory for all NPUs, served the same way.
//   NO_MEMORY_EXPANSION        there is no remote memory: a trace with memory nodes is refused up front.
//   LOCAL_MEMORY               (ours, not ASTRA-sim's) each NPU's own local memory: local-mem-latency +
//                              floor(bytes / local-mem-bw), never waiting for other NPUs (as PER_NPU).
// Completions run on the requesting NPU's event bucket, as in ASTRA-sim, so same-tick order matches.
//
// With `bandwidth-sharing: "fair"` (not ASTRA-sim's; MemorySharing::Fair) a shared memory is a link of
// bw bytes/ns that every access in flight shares equally (processor sharing): with k accesses each moves
// bw/k bytes per ns; when one finishes or starts the shares change. After its bytes an access waits the
// latency, which does not occupy the memory. One pending event per memory (the earliest finish); a lone
// access takes latency + floor(bytes / bw) ns, the same as in FIFO mode.
#pragma once

#include "core/config/config_types.h"
#include "core/engine/npu_buckets.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace astrolabe {

class RemoteMemory final : public EventTarget {
public:
    RemoteMemory(const config::MemoryConfig& cfg, NpuBuckets& buckets, uint32_t npus);

    // Starts an access of `bytes` for `npu` now; `done` runs when it completes.
    void access(uint32_t npu, uint64_t bytes, const Callback& done);
    void on_event(uint32_t kind, uint64_t arg) override;

    TimeNs access_time(uint64_t bytes) const;
    uint64_t accesses() const { return accesses_; }
    uint64_t bytes() const { return bytes_; }

private:
    struct Request {
        uint32_t npu;
        uint64_t bytes;
        Callback done;
    };
    struct Transfer {
        uint32_t npu;
        double remaining; // bytes
        Callback done;
    };
    struct Server {
        bool busy = false;
        std::deque<Request> waiting;
        // Fair sharing: the accesses in flight, when their progress was last brought up to date, and the
        // generation of the one pending completion event (older events are stale and ignored).
        std::vector<Transfer> active;
        TimeNs updated = 0;
        uint32_t generation = 0;
    };
    enum Kind : uint32_t { kServerFree = 0, kFairStep = 1 };
    void start(uint32_t server, const Request& r);
    uint32_t server_of(uint32_t npu) const;
    void fair_advance(Server& s);
    void fair_schedule(uint32_t server);
    void fair_step(uint32_t server, uint32_t generation);

    config::MemoryConfig cfg_;
    NpuBuckets& buckets_;
    std::vector<Server> servers_;    // empty for per-NPU memory (no sharing)
    std::vector<Transfer> finished_; // scratch for fair_step, reused
    uint64_t accesses_ = 0;
    uint64_t bytes_ = 0;
};

} // namespace astrolabe
