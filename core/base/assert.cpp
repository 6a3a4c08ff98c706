#include "core/base/assert.h"

namespace astrolabe {

void fail_assert(const char* file, int line, const std::string& what) {
    throw InternalError(std::string("internal error at ") + file + ":" + std::to_string(line) + ": " + what);
}

void fail_assert(const char* file, int line, const char* what) {
    fail_assert(file, line, std::string(what));
}

} // namespace astrolabe
