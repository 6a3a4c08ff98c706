// What the network tests hand a network as the target of its delivery callbacks: when each message arrived.
#pragma once

#include "core/engine/engine.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace astrolabe::test {

struct Deliveries final : EventTarget {
    explicit Deliveries(Engine& e) : engine(&e) {}
    Engine* engine;
    std::vector<std::pair<TimeNs, uint64_t>> log; // (time, message id)
    void on_event(uint32_t, uint64_t arg) override { log.emplace_back(engine->now(), arg); }
    // When message `id` arrived; kTimeNever if it did not.
    TimeNs at(uint64_t id) const {
        for (const auto& e : log)
            if (e.second == id) return e.first;
        return kTimeNever;
    }
};

} // namespace astrolabe::test
