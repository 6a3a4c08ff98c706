// The Catch2 entry point, alone in its file so the (slow to compile) runner is built once.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
