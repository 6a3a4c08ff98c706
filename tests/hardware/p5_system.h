// The AWS p5 system the hardware tests share: n x p5.48xlarge, 8 H100 each with 32 x 100 Gb/s EFA (four
// per GPU), AMD hosts, RDMA writes. The tuner is NCCL's own unless a test asks for AWS's.
#pragma once

#include "core/config/hardware_types.h"

namespace astrolabe::testing {

inline config::HardwareConfig p5_nodes(uint32_t nodes, config::NcclTuner tuner = config::NcclTuner::Nccl) {
    config::HardwareConfig hw;
    hw.nodes = nodes;
    hw.nics_per_node = 32;
    hw.nic_gbps = 100;
    hw.fabric = config::Fabric::Efa;
    hw.cpu = config::CpuVendor::Amd;
    hw.efa_transport = config::EfaTransport::Rdma;
    hw.tuner = tuner;
    return hw;
}

} // namespace astrolabe::testing
