#include "core/generate/system_preset.h"

namespace astrolabe::generate {

std::vector<std::string> system_preset_names() {
    return {"h100"};
}

Result<SystemPresetFiles> system_preset(const std::string& name, uint32_t npus) {
    if (name != "h100")
        return Status::error("system-preset: '" + name +
                             "' is not a known hardware preset; h100 was expected");
    if (npus == 0) return Status::error("system-preset: the workload has no NPUs");
    // One switch dimension inside a node; a second one across nodes when the NPUs fill whole 8-GPU nodes.
    const bool two_dims = npus > 8 && npus % 8 == 0;
    if (npus > 8 && !two_dims)
        return Status::error(
            "system-preset: h100 needs at most 8 NPUs or a multiple of 8 (whole 8-GPU nodes); "
            "the workload has " +
            std::to_string(npus));
    SystemPresetFiles f;
    const std::string per_dim = two_dims ? "[\"ring\", \"ring\"]" : "[\"ring\"]";
    f.system_json = "{\n"
                    "  \"scheduling-policy\": \"LIFO\",\n"
                    "  \"endpoint-delay\": 10,\n"
                    "  \"active-chunks-per-dimension\": 1,\n"
                    "  \"preferred-dataset-splits\": 4,\n"
                    "  \"collective-optimization\": \"localBWAware\",\n"
                    "  \"local-mem-bw\": 3350,\n"
                    "  \"boost-mode\": 0,\n"
                    "  \"roofline-enabled\": 1,\n"
                    "  \"peak-perf\": 989,\n"
                    "  \"all-reduce-implementation\": " +
                    per_dim +
                    ",\n"
                    "  \"all-gather-implementation\": " +
                    per_dim +
                    ",\n"
                    "  \"reduce-scatter-implementation\": " +
                    per_dim +
                    ",\n"
                    "  \"all-to-all-implementation\": " +
                    per_dim + "\n}\n";
    if (two_dims) {
        f.network_yaml =
            "# H100 preset: NVSwitch inside 8-GPU nodes, 400 Gb/s InfiniBand per GPU between nodes\n"
            "topology: [ Switch, Switch ]\n"
            "npus_count: [ 8, " +
            std::to_string(npus / 8) +
            " ]\n"
            "bandwidth: [ 400.0, 50.0 ]  # GB/s\n"
            "latency: [ 936.25, 2000.0 ]  # ns\n";
    } else {
        f.network_yaml = "# H100 preset: NVSwitch inside one 8-GPU node\n"
                         "topology: [ Switch ]\n"
                         "npus_count: [ " +
                         std::to_string(npus) +
                         " ]\n"
                         "bandwidth: [ 400.0 ]  # GB/s\n"
                         "latency: [ 936.25 ]  # ns\n";
    }
    return f;
}

} // namespace astrolabe::generate
