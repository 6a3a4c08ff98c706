// The network cost of a design point, COSMIC/LIBRA style: every dimension's links and switch ports are
// priced per GB/s, with dearer tiers further from the chip. docs/search.md derives it.
//
// Per dimension d (size n, bandwidth B GB/s per link and direction, as ASTRA-sim's `bandwidth` means), per
// NPU, counting the unidirectional links link_topology.h builds:
//   Ring            2 links (1 when n = 2; 0 when n = 1)     no switch ports
//   FullyConnected  n - 1 links                              no switch ports
//   Switch          2 links (up to the switch and down)      1 switch port
// cost = N * sum_d B_d * (links_d * link_per_gbps[d] + ports_d * switch_port_per_gbps[d]) + N * npu.
// The unit is whatever the per-GB/s prices are in (the defaults are relative: a dimension-0 link GB/s = 1).
#pragma once

#include "core/base/status.h"
#include "core/config/hardware_types.h"

#include <string>
#include <vector>

namespace astrolabe::search {

struct CostModel {
    // Price per GB/s of one unidirectional link, per dimension; dimensions past the list reuse its last
    // entry doubled once per extra dimension. Defaults double per tier (package, node, pod, cluster).
    std::vector<double> link_per_gbps = {1, 2, 4, 8};
    // Price per GB/s of one switch port, per dimension (same rule past the end).
    std::vector<double> switch_port_per_gbps = {1, 2, 4, 8};
    double npu = 0; // fixed price per NPU (0: compare networks only)
};

struct NetworkShape {
    std::vector<std::string> topology;
    std::vector<double> npus_count;
    std::vector<double> bandwidth;
};

// The network's cost; an unknown topology or mismatched list lengths give an error.
Result<double> network_cost(const NetworkShape& net, const CostModel& model);

// The network a hardware description (astrolabe.hardware/1) buys, in the same terms: dimension 0 a Switch of
// the node's GPUs at the GPU's NVLink line rate per direction (450 GB/s on H100-SXM, 300 on A100-SXM4),
// dimension 1 a Switch of the nodes at each GPU's share of its node's NICs (nics_per_node x nic_gbps / 8 /
// gpus_per_node GB/s). Line rates, not what NCCL reaches: the cost is of what is installed.
NetworkShape hardware_network(const config::HardwareConfig& hw);

// The injection bandwidth of one NPU: the sum over dimensions of B_d (GB/s), COSMIC's denominator of
// "performance per bandwidth".
double npu_bandwidth(const NetworkShape& net);

} // namespace astrolabe::search
