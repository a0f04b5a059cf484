# Cross build for the Zynq-7000's Cortex-A9 (32-bit ARM, hard float) with
# Debian's cross compiler (gcc-arm-linux-gnueabihf); the tests run under
# qemu-user (qemu-user-static). Use: cmake --toolchain cmake/toolchains/armhf.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-a9 -mfpu=neon -mfloat-abi=hard")
set(BIKE_CROSS_SYSROOT /usr/arm-linux-gnueabihf)
set(CMAKE_FIND_ROOT_PATH ${BIKE_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# ctest runs the target's programs through this; -L: the target's libc
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm-static -L ${BIKE_CROSS_SYSROOT})
