# Debian packages by CPack, one per install component:
#   libbike<abi>      the shared library             (component library)
#   libbike-dev       headers, static library, bike.pc, CMake package
#   libmlkem<abi>     libmlkem's shared library      (component mlkem_library)
#   libmlkem-dev      its header, static library, mlkem.pc, CMake package
#   bike-tools        the bike tool and its man page
#   bikeprovider      the OpenSSL 3 provider module
# Configure with -DCMAKE_INSTALL_PREFIX=/usr so that GNUInstallDirs picks
# Debian's multiarch library folder (and the provider lands in OpenSSL's
# modules folder), build, then run `cpack` in the build folder (`make deb`).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bike)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "bikeco developers")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL library development mlkem_library mlkem_development tool)
if(TARGET bikeprovider)
  list(APPEND CPACK_COMPONENTS_ALL provider)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# Depends: from the ELF files (dpkg-shlibdeps), plus the dependencies
# between the components below.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Where dpkg-shlibdeps finds libbike.so.0 for the tool (the build tree's copy;
# the dependency on its package is the component dependency).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
# The libraries get a shlibs file, so that packages built against them depend on them.
set(CPACK_DEBIAN_LIBRARY_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_MLKEM_LIBRARY_PACKAGE_GENERATE_SHLIBS ON)

set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME libbike${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libbike-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_MLKEM_LIBRARY_PACKAGE_NAME libmlkem${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_MLKEM_DEVELOPMENT_PACKAGE_NAME libmlkem-dev)
set(CPACK_DEBIAN_MLKEM_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_TOOL_PACKAGE_NAME bike-tools)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PROVIDER_PACKAGE_NAME bikeprovider)

set(CPACK_DEBIAN_LIBRARY_DESCRIPTION "BIKE post-quantum key encapsulation: shared library
libbike, the BIKE key encapsulation mechanism (round 4) at levels 1, 3 and 5,
constant time, with back ends chosen at run time for the CPU.")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION "BIKE post-quantum key encapsulation: development files
Headers, static library, pkg-config file (bike) and CMake package (bike) of
libbike.")
set(CPACK_DEBIAN_MLKEM_LIBRARY_DESCRIPTION "ML-KEM post-quantum key encapsulation: shared library
libmlkem, ML-KEM-512, -768 and -1024 (FIPS 203), constant time, with NTT back
ends chosen at run time for the CPU.")
set(CPACK_DEBIAN_MLKEM_DEVELOPMENT_DESCRIPTION "ML-KEM post-quantum key encapsulation: development files
Header, static library, pkg-config file (mlkem) and CMake package (mlkem) of
libmlkem.")
set(CPACK_DEBIAN_TOOL_DESCRIPTION "BIKE post-quantum key encapsulation: the bike tool
BIKE key generation, encapsulation and decapsulation on files, the NIST
Known Answer Tests and a benchmark, from the shell.")
set(CPACK_DEBIAN_PROVIDER_DESCRIPTION "BIKE post-quantum key encapsulation: OpenSSL 3 provider
BIKE and hybrid KEMs and TLS 1.3 groups for OpenSSL 3, loaded by name
(bikeprovider) from a configuration file.")

include(CPack)
cpack_add_component(library)
cpack_add_component(development DEPENDS library)
cpack_add_component(mlkem_library)
# The static libmlkem needs the static libbike.
cpack_add_component(mlkem_development DEPENDS mlkem_library development)
cpack_add_component(tool DEPENDS library)
cpack_add_component(provider)
