# The library targets, all three made of vsgrid_objects (CMakeLists.txt compiles the sources once,
# position-independent):
#   vsgrid_core    internal static library (libvsgrid_core.a): what the tests, the benchmarks and
#                  the vsgrid command link; it carries the build tree's interface (the source root
#                  on the include path, VSG_HAVE_* definitions, every dependency's flags).
#   vsgrid_shared  libvsgrid.so.MAJOR.MINOR.PATCH, SONAME libvsgrid.so.MAJOR; installed and exported
#                  as vsgrid::vsgrid. It exports the functions declared in grids/base/vsgrid.h and
#                  nothing else (a version script written from the header, vsgrid_exports.cmake).
#   vsgrid_static  libvsgrid.a, installed and exported as vsgrid::vsgrid_static.
# The installed header is include/vsgrid/vsgrid.h: a program writes #include <vsgrid/vsgrid.h>.

add_library(vsgrid_core STATIC)
target_link_libraries(vsgrid_core PUBLIC vsgrid_objects)  # objects + the build tree's interface

include(GNUInstallDirs)
set(VSG_LIB_INCLUDES $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)  # <vsgrid/vsgrid.h>

# ---- libvsgrid.so ----------------------------------------------------------------------
set(VSG_EXPORTS_MAP ${PROJECT_BINARY_DIR}/vsgrid.map)
add_custom_command(OUTPUT ${VSG_EXPORTS_MAP}
                   COMMAND ${CMAKE_COMMAND} -DHEADER=${PROJECT_SOURCE_DIR}/grids/base/vsgrid.h
                           -DOUT=${VSG_EXPORTS_MAP} -P ${PROJECT_SOURCE_DIR}/cmake/vsgrid_exports.cmake
                   DEPENDS ${PROJECT_SOURCE_DIR}/grids/base/vsgrid.h ${PROJECT_SOURCE_DIR}/cmake/vsgrid_exports.cmake
                   COMMENT "Version script: the functions of grids/base/vsgrid.h")
add_custom_target(vsgrid_exports_map DEPENDS ${VSG_EXPORTS_MAP})

add_library(vsgrid_shared SHARED $<TARGET_OBJECTS:vsgrid_objects>)
add_dependencies(vsgrid_shared vsgrid_exports_map)
target_link_libraries(vsgrid_shared PRIVATE ${VSG_LIB_LINK})
target_include_directories(vsgrid_shared INTERFACE ${VSG_LIB_INCLUDES})
set_target_properties(vsgrid_shared PROPERTIES
  OUTPUT_NAME vsgrid EXPORT_NAME vsgrid
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  LINK_DEPENDS ${VSG_EXPORTS_MAP})
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  target_link_options(vsgrid_shared PRIVATE "LINKER:--version-script=${VSG_EXPORTS_MAP}")
  if(NOT VSG_SANITIZE)  # the sanitizers' runtime symbols are resolved by the program
    target_link_options(vsgrid_shared PRIVATE "LINKER:--no-undefined")
  endif()
endif()

# ---- libvsgrid.a -----------------------------------------------------------------------
add_library(vsgrid_static STATIC $<TARGET_OBJECTS:vsgrid_objects>)
target_link_libraries(vsgrid_static PRIVATE ${VSG_LIB_LINK})  # link-only for the program
target_include_directories(vsgrid_static INTERFACE ${VSG_LIB_INCLUDES})
set_target_properties(vsgrid_static PROPERTIES OUTPUT_NAME vsgrid EXPORT_NAME vsgrid_static)

# A library with C++ objects (Open Babel, and the CUDA kernels' host code: static guards,
# the static CUDA runtime) links with the C++ driver; the runtime library is named for programs
# that link the static library with a C compiler (here and in vsgrid.pc).
if(VSG_HAVE_OPENBABEL)
  set_target_properties(vsgrid_shared vsgrid_static PROPERTIES LINKER_LANGUAGE CXX)
endif()
if((VSG_HAVE_OPENBABEL OR VSG_HAVE_CUDA) AND (CMAKE_C_COMPILER_ID STREQUAL "GNU" OR CMAKE_CXX_COMPILER_ID STREQUAL "GNU"))
  target_link_libraries(vsgrid_static PRIVATE stdc++)
endif()
