# Dependencies of the Emscripten build, from the sources `scripts/setup --web` unpacked into third_party/
# (Debian's source packages; never committed). The native build uses Debian's installed packages instead.
#
# Targets made here carry the same names as the native find_package targets, so core/ links the same way
# in both builds: protobuf::libprotobuf-lite, nlohmann_json::nlohmann_json, ZLIB::ZLIB, plus imgui.

set(ASTROLABE_THIRD_PARTY "${PROJECT_SOURCE_DIR}/third_party" CACHE PATH "Unpacked third-party sources")
foreach(probe imgui/imgui.cpp protobuf/CMakeLists.txt zlib/inflate.c)
  if(NOT EXISTS "${ASTROLABE_THIRD_PARTY}/${probe}")
    message(FATAL_ERROR "wasm build: ${ASTROLABE_THIRD_PARTY}/${probe} is missing; run `scripts/setup --web` "
                        "(it fetches Debian's imgui, protobuf and zlib sources)")
  endif()
endforeach()

# protoc runs on the host; the generated 3.21 code matches the 3.21 runtime compiled below.
find_program(ASTROLABE_PROTOC protoc REQUIRED)

# protobuf-lite runtime, compiled for wasm.
set(protobuf_BUILD_TESTS OFF CACHE BOOL "" FORCE)
set(protobuf_BUILD_PROTOC_BINARIES OFF CACHE BOOL "" FORCE)
set(protobuf_WITH_ZLIB OFF CACHE BOOL "" FORCE)
set(protobuf_BUILD_SHARED_LIBS OFF CACHE BOOL "" FORCE)
set(protobuf_INSTALL OFF CACHE BOOL "" FORCE)
set(protobuf_BUILD_LIBPROTOC OFF CACHE BOOL "" FORCE)
add_subdirectory("${ASTROLABE_THIRD_PARTY}/protobuf" "${CMAKE_BINARY_DIR}/third_party/protobuf" EXCLUDE_FROM_ALL)
# Their warnings are not ours to fix, in their sources or in their headers that our generated code includes.
target_compile_options(libprotobuf-lite PRIVATE -w)
get_target_property(protobuf_includes libprotobuf-lite INTERFACE_INCLUDE_DIRECTORIES)
set_target_properties(libprotobuf-lite PROPERTIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${protobuf_includes}")

# zlib: inflate (gzip-compressed traces, share links) and deflate (making share links).
enable_language(C)
set(zlib_dir "${ASTROLABE_THIRD_PARTY}/zlib")
add_library(astrolabe_zlib STATIC ${zlib_dir}/adler32.c ${zlib_dir}/crc32.c ${zlib_dir}/inflate.c
                                  ${zlib_dir}/inffast.c ${zlib_dir}/inftrees.c ${zlib_dir}/zutil.c
                                  ${zlib_dir}/deflate.c ${zlib_dir}/trees.c)
target_include_directories(astrolabe_zlib SYSTEM PUBLIC ${zlib_dir})
target_compile_options(astrolabe_zlib PRIVATE -w)
add_library(ZLIB::ZLIB ALIAS astrolabe_zlib)

# nlohmann_json is header-only: link only its folder into the build tree (an -I/usr/include would replace
# the Emscripten sysroot's libc headers).
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/hostinc")
file(CREATE_LINK /usr/include/nlohmann "${CMAKE_BINARY_DIR}/hostinc/nlohmann" SYMBOLIC)
add_library(astrolabe_nlohmann INTERFACE)
target_include_directories(astrolabe_nlohmann SYSTEM INTERFACE "${CMAKE_BINARY_DIR}/hostinc")
add_library(nlohmann_json::nlohmann_json ALIAS astrolabe_nlohmann)

# Dear ImGui with its GLFW (Emscripten's built-in GLFW) and OpenGL ES 3 (WebGL 2) back ends.
set(imgui_dir "${ASTROLABE_THIRD_PARTY}/imgui")
add_library(astrolabe_imgui STATIC ${imgui_dir}/imgui.cpp ${imgui_dir}/imgui_draw.cpp ${imgui_dir}/imgui_tables.cpp
                                   ${imgui_dir}/imgui_widgets.cpp ${imgui_dir}/backends/imgui_impl_glfw.cpp
                                   ${imgui_dir}/backends/imgui_impl_opengl3.cpp)
target_include_directories(astrolabe_imgui SYSTEM PUBLIC ${imgui_dir} ${imgui_dir}/backends)
target_compile_definitions(astrolabe_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3 IMGUI_DISABLE_FILE_FUNCTIONS)
target_compile_options(astrolabe_imgui PRIVATE -w)
