// SIM_ASSERT: internal invariants of the simulator.
//
// A failed assert is a bug in Astrolabe, never a user error (user errors are Status values). It throws
// InternalError with the sentence given, so the CLI reports it and exits nonzero and the browser keeps
// running.
#pragma once

#include <stdexcept>
#include <string>

namespace astrolabe {

struct InternalError : std::logic_error {
    using std::logic_error::logic_error;
};

[[noreturn]] void fail_assert(const char* file, int line, const std::string& what);
// The usual case, a string literal: the caller passes a pointer and builds no std::string, so a hot
// function with an assert keeps no string temporary, stack frame or unwinding code for its failure path.
[[noreturn, gnu::cold, gnu::noinline]] void fail_assert(const char* file, int line, const char* what);

} // namespace astrolabe

#define SIM_ASSERT(cond, sentence)                                                                           \
    do {                                                                                                     \
        if (!(cond)) ::astrolabe::fail_assert(__FILE__, __LINE__, (sentence));                               \
    } while (0)
