// Hardware presets written next to a generated workload: an ASTRA-sim system JSON and analytical network
// YAML sized for its NPU count, so `generate ... --system-preset h100 -o P` is ready to run with
// `run --workload P --system P.system.json --network P.network.yml --comm-groups P.json`.
#pragma once

#include "core/base/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::generate {

struct SystemPresetFiles {
    std::string system_json;
    std::string network_yaml;
};

// "h100": DGX/HGX H100 nodes of 8 GPUs. Inside a node NVLink/NVSwitch (400 GB/s per GPU, 936.25 ns, the
// figures of ASTRA-sim's validated HGX-H100 config), between nodes one 400 Gb/s InfiniBand NIC per GPU
// (50 GB/s, 2 us) on a switch; roofline compute at 989 TFLOPS dense BF16 and 3350 GB/s HBM3.
Result<SystemPresetFiles> system_preset(const std::string& name, uint32_t npus);
std::vector<std::string> system_preset_names();

} // namespace astrolabe::generate
