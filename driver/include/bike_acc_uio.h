/* The uio platform of bike_acc (Linux): the shell's register page mapped
 * from a UIO device (map0), the Xilinx AXI DMA's registers from another, and
 * the operands and results in a u-dma-buf buffer. Instance i of the platform
 * defaults to the UIO devices named "bike-acc<i>" and "bike-dma<i>" (the
 * device-tree node names, /sys/class/uio/uioN/name) and to the buffer
 * /dev/udmabuf<i>; driver/README.md shows the device-tree nodes. */
#ifndef BIKE_ACC_UIO_H
#define BIKE_ACC_UIO_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *shell_name; /* UIO name of the shell; NULL: "bike-acc<instance>" */
  const char *dma_name;   /* UIO name of the AXI DMA; NULL: "bike-dma<instance>" */
  const char *udmabuf;    /* u-dma-buf device; NULL: "udmabuf<instance>" */
  const char *sys_root;   /* NULL: "/sys" (another root for tests) */
  const char *dev_root;   /* NULL: "/dev" */
} bike_acc_uio_config;

#ifdef __cplusplus
}
#endif

#endif
