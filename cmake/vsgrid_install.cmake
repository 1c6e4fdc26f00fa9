# cmake --install <build> --prefix P installs
#   bin/vsgrid                          the command (vsgrid_core linked in)
#   lib/libvsgrid.so.X.Y.Z, .so.X, .so  vsgrid::vsgrid
#   lib/libvsgrid.a                     vsgrid::vsgrid_static
#   include/vsgrid/vsgrid.h             the public API (standard headers only)
#   lib/pkgconfig/vsgrid.pc             relocatable (prefix from the .pc's own folder)
#   lib/cmake/vsgrid/                   vsgridConfig.cmake, vsgridConfigVersion.cmake, targets
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS vsgrid RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS vsgrid_shared vsgrid_static EXPORT vsgridTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/grids/base/vsgrid.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vsgrid)

set(VSG_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vsgrid)
install(EXPORT vsgridTargets NAMESPACE vsgrid:: DESTINATION ${VSG_CMAKE_DIR})

# What vsgridConfig.cmake must find again for vsgrid::vsgrid_static's link interface (the shared
# library carries its own dependencies).
set(VSG_CONFIG_DEPS "find_dependency(ZLIB)\nfind_dependency(Threads)\n")
set(VSG_PC_PRIVATE "-lz -lpthread")
if(MATH_LIB)
  string(APPEND VSG_PC_PRIVATE " -lm")
endif()
if(OpenMP_C_FOUND)
  string(APPEND VSG_CONFIG_DEPS "find_dependency(OpenMP COMPONENTS C)\n")
  string(APPEND VSG_PC_PRIVATE " ${OpenMP_C_FLAGS}")
endif()
if(VSG_HAVE_ISAL)
  string(APPEND VSG_PC_PRIVATE " -lisal")
endif()
if(VSG_HAVE_MPI)
  string(APPEND VSG_CONFIG_DEPS "find_dependency(MPI COMPONENTS C)\n")
  foreach(lib IN LISTS MPI_C_LIBRARIES)
    string(APPEND VSG_PC_PRIVATE " ${lib}")
  endforeach()
endif()
if(VSG_HAVE_CUDA)
  # The toolkit this library was built with, unless the program names another.
  get_filename_component(VSG_CUDA_ROOT "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  string(APPEND VSG_CONFIG_DEPS "if(NOT DEFINED CUDAToolkit_ROOT AND NOT DEFINED ENV{CUDAToolkit_ROOT})\n"
                                "  set(CUDAToolkit_ROOT \"${VSG_CUDA_ROOT}\")\n"
                                "endif()\nfind_dependency(CUDAToolkit)\n")
  string(APPEND VSG_PC_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt")
endif()
if(VSG_HAVE_OPENBABEL)
  if(VSG_OB3_FOUND)
    string(APPEND VSG_CONFIG_DEPS "find_dependency(PkgConfig)\n"
                                  "pkg_check_modules(VSG_OB3 REQUIRED QUIET IMPORTED_TARGET openbabel-3)\n")
    foreach(lib IN LISTS VSG_OB3_LINK_LIBRARIES)
      string(APPEND VSG_PC_PRIVATE " ${lib}")
    endforeach()
  else()
    string(APPEND VSG_PC_PRIVATE " ${VSG_OPENBABEL_LIBRARY}")
  endif()
endif()
if(VSG_HAVE_OPENBABEL OR VSG_HAVE_CUDA)
  string(APPEND VSG_PC_PRIVATE " -lstdc++") # C++ host code (Open Babel, CUDA objects)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vsgridConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/vsgridConfig.cmake INSTALL_DESTINATION ${VSG_CMAKE_DIR})
# The header's rule: a program built against X.Y runs with any X.Z, Z >= Y.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vsgridConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
file(RELATIVE_PATH VSG_PC_UP /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)  # "../.."
configure_file(${PROJECT_SOURCE_DIR}/cmake/vsgrid.pc.in ${PROJECT_BINARY_DIR}/vsgrid.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/vsgridConfig.cmake ${PROJECT_BINARY_DIR}/vsgridConfigVersion.cmake
        DESTINATION ${VSG_CMAKE_DIR})
install(FILES ${PROJECT_BINARY_DIR}/vsgrid.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
