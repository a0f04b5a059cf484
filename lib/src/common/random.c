/* The operating system's randomness. */
#define _DEFAULT_SOURCE
#include "common/random.h"

#include <errno.h>
#include <sys/random.h>

int bike_os_random(uint8_t *out, size_t len) {
  while (len > 0) {
    ssize_t got = getrandom(out, len, 0);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      return -1;
    }
    out += got;
    len -= (size_t)got;
  }
  return 0;
}
