// The network seam: a model moves `bytes` from one NPU to another and calls back on delivery.
//
// The system layer only sees this interface, so the analytical model and the congestion-aware and flow
// models plug in behind it. `send` starts the transfer at the current time; `on_delivered` runs (as an
// engine event) when the last byte has arrived at `dst`. Models with explicit links also report per-link
// traffic (`link_stats`); the analytical model has no links and reports none.
#pragma once

#include "core/base/assert.h"
#include "core/base/time.h"
#include "core/engine/callback.h"
#include "core/engine/engine.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace astrolabe {

// What one unidirectional link carried over a run.
struct LinkStats {
    uint32_t src = 0, dst = 0;      // device ids: NPUs 0..N-1, switches from N on
    std::string src_name, dst_name; // "npu3", "switch0.1" (dimension 0, line 1)
    uint32_t dim = 0;
    uint64_t bytes = 0;
    TimeNs busy_ns = 0;      // time spent serialising (congestion) or carrying at least one flow (flow)
    uint64_t peak_queue = 0; // most chunks waiting behind the one on the wire (congestion); most flows (flow)
};

// A run of representatives (core/system/scheduling/symmetry.h): the translations of NPU ranks that map the
// whole run onto itself. Under them every link has the same traffic at every ns as its translated image, so
// a model with links keeps state only for one link per class (the one leaving a representative's class
// position) and lets it stand for the class; the report lists every link.
struct NpuFold {
    std::function<uint32_t(uint32_t)> representative; // the NPU's class representative
    std::function<uint32_t(uint32_t, uint32_t, bool)>
        shift;                     // x moved by `by`'s symmetric coordinates (or back)
    std::vector<uint32_t> offsets; // every translation, as NPU 0's class
};

class NetworkModel {
public:
    virtual ~NetworkModel() = default;
    virtual void send(uint32_t src, uint32_t dst, uint64_t bytes, const Callback& on_delivered) = 0;
    // A message on a link of its own instead of the network's dimensions (a collective timed by its
    // hardware choice, core/system/collectives/collective_link.h): floor(latency_ns + bytes / bytes_per_ns).
    // Only the analytical model has it; Simulation gives per-collective links to no other model.
    virtual void send_on_link(uint32_t /*src*/, uint32_t /*dst*/, uint64_t /*bytes*/, double /*latency_ns*/,
                              double /*bytes_per_ns*/, const Callback& /*on_delivered*/) {
        SIM_ASSERT(false, "a per-collective link on a network model with links of its own");
    }
    // A model whose delay depends on nothing but (src, dst, bytes) (the analytical one) sets `delay` to the
    // delay send() would give that message now and returns true, so a sender of many equal messages (a
    // ring phase) can compute it once and use send_after(). Other models return false.
    virtual bool fixed_delay(uint32_t /*src*/, uint32_t /*dst*/, uint64_t /*bytes*/,
                             TimeNs& /*delay*/) const {
        return false;
    }
    // send() of a message whose fixed_delay() is `delay`: the same count and the same delivery event.
    virtual void send_after(uint64_t /*bytes*/, TimeNs /*delay*/, const Callback& /*on_delivered*/) {
        SIM_ASSERT(false, "send_after on a network model without fixed delays");
    }
    virtual const char* name() const = 0;
    // Links that carried traffic, ordered by (src, dst); empty for models without links.
    virtual std::vector<LinkStats> link_stats() const { return {}; }
    // Only representatives send from now on; links fold onto their class's (models without links ignore it).
    virtual void fold_links(NpuFold) {}
    uint64_t messages() const { return messages_; }
    uint64_t bytes() const { return bytes_; }

protected:
    void count(uint64_t bytes) {
        ++messages_;
        bytes_ += bytes;
    }
    // The start of a link model's `send`: counts the message, and delivers one to its own sender in the
    // same ns (nothing to cross; ASTRA-sim has no route for it, its assertion). True when that was all.
    bool begin_send(uint32_t src, uint32_t dst, uint64_t bytes, Engine& engine,
                    const Callback& on_delivered) {
        count(bytes);
        if (src != dst) return false;
        engine.schedule_in(0, on_delivered);
        return true;
    }

private:
    uint64_t messages_ = 0;
    uint64_t bytes_ = 0;
};

} // namespace astrolabe
