// Appends Chakra nodes to one rank's trace with the attributes consumers read (CHAKRA_FORMAT.md §5), in
// the kinds ASTRA-sim's own writers use: is_cpu_op bool, num_ops int64, tensor_size uint64, comm_type /
// comm_size int64, comm_src / comm_dst / comm_tag int32, pg_name string, and gemm_m / gemm_n / gemm_k int64
// on GEMM compute nodes (docs/trace-format.md). Ids count up from 1 in emission order, and every node's
// parents were emitted before it, so file order is a topological order.
#pragma once

#include "core/trace/trace_types.h"

#include <cstdint>
#include <initializer_list>
#include <string>

namespace astrolabe::generate {

struct Gemm {
    uint64_t m = 0, n = 0, k = 0; // C[m x n] = A[m x k] * B[k x n]
};

// Dependencies of a new node: up to a few parent ids; 0 means "no parent" and is skipped.
using Parents = std::initializer_list<uint64_t>;

class TraceEmitter {
public:
    explicit TraceEmitter(trace::Trace& t) : t_(t) {}

    uint64_t comp(std::string name, uint64_t num_ops, uint64_t tensor_bytes, Parents deps);
    uint64_t gemm(std::string name, const Gemm& g, uint64_t dtype_bytes, Parents deps);
    uint64_t coll(std::string name, trace::CollectiveType type, uint64_t bytes, const std::string& pg,
                  Parents deps);
    uint64_t send(std::string name, uint64_t bytes, uint32_t dst, uint32_t tag, Parents deps);
    uint64_t recv(std::string name, uint64_t bytes, uint32_t src, uint32_t tag, Parents deps);
    uint64_t mem(std::string name, trace::NodeType type, uint64_t bytes, Parents deps);
    // Adds a parent to an already emitted node (a join that is only known later).
    void add_dep(uint64_t node, uint64_t parent);

private:
    trace::Node& add(std::string name, trace::NodeType type, Parents deps);
    // A COMM_SEND to `peer` or a COMM_RECV from it (the one thing that differs: comm_dst or comm_src).
    uint64_t point_to_point(std::string name, trace::NodeType type, uint64_t bytes, uint32_t peer,
                            uint32_t tag, Parents deps);
    trace::Trace& t_;
    uint64_t next_id_ = 1;
};

} // namespace astrolabe::generate
