# The provider's C sources: the module (CMakeLists.txt) and the fuzz
# targets (fuzz/), which compile them into each program, use this one list.
set(BIKEPROV_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/src/provider.c
  ${CMAKE_CURRENT_LIST_DIR}/src/algs.c
  ${CMAKE_CURRENT_LIST_DIR}/src/keymgmt.c
  ${CMAKE_CURRENT_LIST_DIR}/src/keypool.c
  ${CMAKE_CURRENT_LIST_DIR}/src/kem.c
  ${CMAKE_CURRENT_LIST_DIR}/src/classical.c
  ${CMAKE_CURRENT_LIST_DIR}/src/pq.c
  ${CMAKE_CURRENT_LIST_DIR}/src/keycodec.c)
