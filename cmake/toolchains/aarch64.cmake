# Cross build for the Zynq UltraScale+'s Cortex-A53 (64-bit ARM) with
# Debian's cross compiler (gcc-aarch64-linux-gnu); the tests run under
# qemu-user (qemu-user-static). Use: cmake --toolchain cmake/toolchains/aarch64.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-a53")
set(BIKE_CROSS_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH ${BIKE_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# ctest runs the target's programs through this; -L: the target's libc
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L ${BIKE_CROSS_SYSROOT})
