#include "native/commands.h"
namespace astrolabe::cli {
int convert_command(const std::vector<std::string>&) { return fail("convert: TODO"); }
}
