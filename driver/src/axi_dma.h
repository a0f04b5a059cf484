/* The Xilinx AXI DMA in direct register (simple) mode: the registers and
 * bits the uio platform uses, from "AXI DMA v7.1 LogiCORE IP Product Guide"
 * (PG021), Register Space, Tables "Direct Register Mode Register Address
 * Map", MM2S_DMACR, MM2S_DMASR (S2MM's are the same bits at base 0x30). */
#ifndef BIKE_ACC_AXI_DMA_H
#define BIKE_ACC_AXI_DMA_H

/* Channel bases: MM2S (memory to the shell's s_axis), S2MM (m_axis to memory). */
#define DMA_MM2S 0x00u
#define DMA_S2MM 0x30u
/* Offsets within a channel's block */
#define DMA_CR 0x00u       /* MM2S_DMACR / S2MM_DMACR */
#define DMA_SR 0x04u       /* MM2S_DMASR / S2MM_DMASR */
#define DMA_ADDR 0x18u     /* MM2S_SA / S2MM_DA: buffer address, bits 31:0 */
#define DMA_ADDR_MSB 0x1Cu /* MM2S_SA_MSB / S2MM_DA_MSB: bits 63:32 (addresses > 32 bits) */
#define DMA_LENGTH 0x28u   /* bytes; writing it starts the transfer. S2MM: bytes received */

/* DMACR */
#define DMA_CR_RS (1u << 0)    /* run/stop */
#define DMA_CR_RESET (1u << 2) /* soft reset of the whole DMA; reads 1 until done */
/* DMASR */
#define DMA_SR_HALTED (1u << 0)
#define DMA_SR_IDLE (1u << 1)      /* simple mode: the transfer is complete */
#define DMA_SR_INT_ERR (1u << 4)   /* DMAIntErr */
#define DMA_SR_SLV_ERR (1u << 5)   /* DMASlvErr */
#define DMA_SR_DEC_ERR (1u << 6)   /* DMADecErr */
#define DMA_SR_IOC_IRQ (1u << 12)  /* write 1 to clear */
#define DMA_SR_ERR_IRQ (1u << 14)  /* write 1 to clear */
#define DMA_SR_ERRORS (DMA_SR_INT_ERR | DMA_SR_SLV_ERR | DMA_SR_DEC_ERR)

#endif
