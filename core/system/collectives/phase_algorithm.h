// One phase of a collective on one NPU, as a reactive state machine.
//
// ASTRA-sim's collective algorithms are driven by three inputs: the stream starting the phase, a packet
// arriving from a peer, and a local "bundle" finishing its endpoint delay (plus, for data that must be
// reduced, the local-memory cost). They answer with a handful of actions: release a bundle, send a
// message, post a receive, finish the phase. Modelling them this way keeps algorithms free of the event
// queue (tests feed inputs and check actions) while reproducing ASTRA-sim's packet timing exactly.
#pragma once

#include <cstdint>
#include <vector>

namespace astrolabe {

enum class PhaseType : uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll };
const char* phase_type_name(PhaseType t);

// What an algorithm asks of the NPU that runs it.
class PhaseActions {
public:
    // A local packet bundle: after the endpoint delay (plus the reduction cost of `bytes` when
    // `needs_processing`) the algorithm's on_bundle_done() is called.
    virtual void release_bundle(bool needs_processing, uint64_t bytes) = 0;
    virtual void send(uint32_t dst_npu, uint64_t bytes) = 0;
    virtual void post_recv(uint32_t src_npu, uint64_t bytes) = 0;
    virtual void finish_phase() = 0;

protected:
    ~PhaseActions() = default;
};

// The members of a phase, in ring order: an explicit list (a communicator group) or a strided slice of
// NPU ids (one dimension of the network).
struct PhaseMembers {
    const std::vector<uint32_t>* list = nullptr; // when set, member i is (*list)[i]
    uint32_t base = 0;                           // else member i is base + i * stride
    uint32_t stride = 1;
    uint32_t size = 0;
    uint32_t npu(uint32_t i) const { return list ? (*list)[i] : base + i * stride; }
};

class RingPhase;

class PhaseAlgorithm {
public:
    virtual ~PhaseAlgorithm() = default;
    // The ring/direct phase this is, if it is one (so make_phase_algorithm can reuse it).
    virtual RingPhase* as_ring() { return nullptr; }
    virtual void on_start(PhaseActions& act) = 0;
    virtual void on_packet_received(PhaseActions& act) = 0;
    virtual void on_bundle_done(PhaseActions& act) = 0;
    // Bytes this NPU holds after the phase: the next phase's input.
    virtual uint64_t final_data_size() const = 0;
};

} // namespace astrolabe
