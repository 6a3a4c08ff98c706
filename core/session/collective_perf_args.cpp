#include "core/session/collective_perf_args.h"

#include "core/config/config_parse.h"
#include "core/session/share_link.h"

namespace astrolabe {

namespace {

constexpr const char* kLinkKey = "perf=";

} // namespace

Result<CollectivePerfRequest> collective_perf_request(const CollectivePerfArgs& args,
                                                      const std::string& min_key,
                                                      const std::string& max_key) {
    Status problems;
    CollectivePerfRequest req;
    req.astra_reference = args.astra_reference;
    auto hw = config::parse_hardware_json(args.hardware_json, "hardware");
    if (hw.is_ok())
        req.hardware = hw.value();
    else
        problems.merge(hw.status());
    if (!hardware::parse_coll_op(args.op, req.op))
        problems.add("op: '" + args.op + "'; " + hardware::coll_op_expected(args.op));
    if (!args.algo.empty() && !config::parse_nccl_algo(args.algo, req.algo))
        problems.add("algo: '" + args.algo + "'; auto, ring, tree, nvls, nvls_tree or collnet was expected");
    if (!args.min_bytes.empty() && !parse_nccl_size(args.min_bytes, req.min_bytes))
        problems.add(min_key + ": '" + args.min_bytes +
                     "'; a positive size such as 8, 64K, 16G was expected");
    if (!args.max_bytes.empty() && !parse_nccl_size(args.max_bytes, req.max_bytes))
        problems.add(max_key + ": '" + args.max_bytes +
                     "'; a positive size such as 8, 64K, 16G was expected");
    if (problems.is_ok() && req.min_bytes > req.max_bytes)
        problems.add(min_key + ": " + args.min_bytes + " is larger than " + max_key + ": " + args.max_bytes +
                     "; nothing to run");
    if (!args.type.empty() && !hardware::parse_nccl_type(args.type, req.type))
        problems.add(hardware::nccl_type_problem("type", args.type));
    if (!args.red_op.empty() && !hardware::parse_nccl_red_op(args.red_op, req.red_op))
        problems.add(hardware::nccl_red_op_problem("redop", args.red_op));
    if (problems.is_ok() && req.hardware.ranks() < 2)
        problems.add("hardware: nodes x gpus_per_node is 1; a collective needs two or more GPUs");
    if (problems.is_ok()) problems.merge(collective_perf_algo_problems(req, "algo"));
    if (problems.is_ok()) problems.merge(collective_perf_size_problems(req, min_key, max_key));
    if (!problems.is_ok()) return problems;
    return req;
}

Result<std::string> collective_perf_link_fragment(const CollectivePerfArgs& args) {
    auto doc = config::perf_link_json(args);
    if (!doc.is_ok()) return Status::error("collective-perf link: " + doc.status().message());
    std::string frag = kLinkKey + encode_share_fragment(doc.value()).substr(2); // "s=..." under our key
    if (frag.size() > kMaxShareFragment)
        return Status::error("collective-perf link: " + std::to_string(frag.size() / 1024) +
                             " KiB, beyond the " + std::to_string(kMaxShareFragment / 1024) +
                             " KiB a link may have: share the description's file instead");
    return frag;
}

Result<CollectivePerfArgs> parse_collective_perf_link(std::string_view link) {
    const auto value = share_link_param(link, kLinkKey);
    if (!value)
        return Status::error("collective-perf link: no curve in it; a fragment #perf=<data> was expected");
    auto text = decode_share_link("s=" + std::string(*value));
    if (!text.is_ok()) // share_link's message names its own s= part: say which part it was here
        return Status::error("collective-perf link: the perf= part cannot be read (" +
                             text.status().message() + ")");
    return config::parse_perf_link_json(text.value(), "collective-perf link");
}

} // namespace astrolabe
