#include "native/commands.h"
namespace astrolabe::cli {
int inspect_command(const std::vector<std::string>&) { return fail("inspect: TODO"); }
}
