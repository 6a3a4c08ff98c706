// Network cost (cost_model.h).
#include "core/search/cost_model.h"

#include "core/hardware/nccl_model.h"

#include <algorithm>

namespace astrolabe::search {

namespace {

double price(const std::vector<double>& per_dim, size_t d) {
    if (per_dim.empty()) return 0;
    if (d < per_dim.size()) return per_dim[d];
    double p = per_dim.back();
    for (size_t k = per_dim.size(); k <= d; ++k)
        p *= 2;
    return p;
}

} // namespace

Result<double> network_cost(const NetworkShape& net, const CostModel& model) {
    const size_t dims = net.topology.size();
    if (net.npus_count.size() != dims || net.bandwidth.size() != dims)
        return Status::error(
            "network cost: topology, npus_count and bandwidth must have one entry per dimension");
    double npus = 1;
    for (double n : net.npus_count)
        npus *= n;
    double per_npu = model.npu;
    for (size_t d = 0; d < dims; ++d) {
        const double n = net.npus_count[d];
        double links = 0, ports = 0;
        const std::string& t = net.topology[d];
        if (t == "Ring") {
            links = n <= 1 ? 0 : n == 2 ? 1 : 2;
        } else if (t == "FullyConnected") {
            links = n - 1;
        } else if (t == "Switch") {
            links = n <= 1 ? 0 : 2;
            ports = n <= 1 ? 0 : 1;
        } else {
            return Status::error("network cost: unknown topology '" + t + "'");
        }
        per_npu += net.bandwidth[d] *
                   (links * price(model.link_per_gbps, d) + ports * price(model.switch_port_per_gbps, d));
    }
    return npus * per_npu;
}

NetworkShape hardware_network(const config::HardwareConfig& hw) {
    NetworkShape net;
    net.topology = {"Switch", "Switch"};
    net.npus_count = {double(hw.gpus_per_node), double(hw.nodes)};
    net.bandwidth = {hardware::gpu_spec(hw.gpu).nvlink_gbs,
                     double(hw.nics_per_node) * hw.nic_gbps / 8.0 / std::max<uint32_t>(1, hw.gpus_per_node)};
    return net;
}

double npu_bandwidth(const NetworkShape& net) {
    double s = 0;
    for (double b : net.bandwidth)
        s += b;
    return s;
}

} // namespace astrolabe::search
