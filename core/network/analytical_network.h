// The analytical, congestion-unaware network: ASTRA-sim's analytical backend, reproduced to the ns.
//
// A message between NPUs that first differ in dimension d costs, in whole ns,
//     floor(hops_d * latency_d + bytes / bw_d)        bw_d in bytes/ns = GB/s * 2^30 / 1e9
// computed in double and truncated once per message. The whole message is charged to that one dimension.
// Messages never contend: any number of them go at full speed at once (this model's known optimism).
#pragma once

#include "core/engine/engine.h"
#include "core/network/network_model.h"
#include "core/network/topology.h"

namespace astrolabe {

class AnalyticalNetwork final : public NetworkModel {
public:
    AnalyticalNetwork(const NetworkTopology& topo, Engine& engine) : topo_(topo), engine_(engine) {}

    void send(uint32_t src, uint32_t dst, uint64_t bytes, const Callback& on_delivered) override {
        count(bytes);
        engine_.schedule_in(delay(src, dst, bytes), on_delivered);
    }
    void send_on_link(uint32_t src, uint32_t dst, uint64_t bytes, double latency_ns, double bytes_per_ns,
                      const Callback& on_delivered) override {
        count(bytes);
        TimeNs t = src == dst ? 0 : time_from_ns(latency_ns + static_cast<double>(bytes) / bytes_per_ns);
        engine_.schedule_in(t, on_delivered);
    }
    bool fixed_delay(uint32_t src, uint32_t dst, uint64_t bytes, TimeNs& t) const override {
        t = delay(src, dst, bytes);
        return true;
    }
    void send_after(uint64_t bytes, TimeNs t, const Callback& on_delivered) override {
        count(bytes);
        engine_.schedule_in(t, on_delivered);
    }
    const char* name() const override { return "analytical"; }

    TimeNs delay(uint32_t src, uint32_t dst, uint64_t bytes) const;

private:
    const NetworkTopology& topo_;
    Engine& engine_;
};

} // namespace astrolabe
