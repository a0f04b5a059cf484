// Everything a testbench shares, in one include: the command line
// (tb_args.h), random inputs (tb_vectors.h), the KAT files (tb_kat.h),
// comparison and report (tb_check.h), the model and its clock (tb_dut.h)
// and the frame of main() (tb_bench.h). The scoreboard of every testbench
// is libbike (bike/ops.h), linked in.
#ifndef BIKECO_TB_COMMON_H
#define BIKECO_TB_COMMON_H

#include "tb_args.h"
#include "tb_bench.h"
#include "tb_check.h"
#include "tb_dut.h"
#include "tb_kat.h"
#include "tb_vectors.h"

#endif
