#ifndef BIKE_COMMON_RANDOM_H
#define BIKE_COMMON_RANDOM_H

#include <stddef.h>
#include <stdint.h>

/* Fill out with getrandom(); 0 on success, -1 on failure. */
int bike_os_random(uint8_t *out, size_t len);

#endif
