// The network seam: a model moves `bytes` from one NPU to another and calls back on delivery.
//
// The system layer only sees this interface, so the analytical model and the congestion-aware and flow
// models plug in behind it. `send` starts the transfer at the current time; `on_delivered` runs (as an
// engine event) when the last byte has arrived at `dst`.
#pragma once

#include "core/engine/callback.h"

#include <cstdint>

namespace astrolabe {

class NetworkModel {
public:
    virtual ~NetworkModel() = default;
    virtual void send(uint32_t src, uint32_t dst, uint64_t bytes, const Callback& on_delivered) = 0;
    virtual const char* name() const = 0;
    uint64_t messages() const { return messages_; }
    uint64_t bytes() const { return bytes_; }

protected:
    void count(uint64_t bytes) {
        ++messages_;
        bytes_ += bytes;
    }

private:
    uint64_t messages_ = 0;
    uint64_t bytes_ = 0;
};

} // namespace astrolabe
