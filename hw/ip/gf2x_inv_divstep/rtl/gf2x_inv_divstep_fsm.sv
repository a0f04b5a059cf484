// Control of gf2x_inv_divstep (doc/gf2x_inv_divstep.md): the phases, the
// word and step counters, and the one-cycle pipeline from a memory read to
// the datapath stage that processes the word read.
//
//   StIdle --start_i-->  StLoad: N operand words (in_ready_o)
//   StLoad --word N-1-->  StStep: K/S cycles of S divsteps on the windows
//   StStep --last step-->  StPass: slots 0..N, reading words 0..N-1 (slot N
//                          flushes the carries); then StStep for the next
//                          batch, or StOut after batch B-1
//   StOut  --slot N-->    StIdle: slots 0..N, reading v's words N-1..0
// Every phase has a fixed length: the cycles do not depend on the data.
module gf2x_inv_divstep_fsm #(
  parameter int unsigned N       = 193,  // words per polynomial
  parameter int unsigned Steps   = 4,    // step cycles per batch (K / S)
  parameter int unsigned Batches = 386,  // ceil((2R - 1) / K)
  localparam int unsigned CntW   = $clog2(N + 1),
  localparam int unsigned AW     = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned StepW  = (Steps > 1) ? $clog2(Steps) : 1,
  localparam int unsigned BatW   = (Batches > 1) ? $clog2(Batches) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic            in_valid_i,
  output logic            in_ready_o,
  output logic            busy_o,
  // load: operand word cnt_o is taken this cycle
  output logic            load_o,
  output logic [CntW-1:0] cnt_o,
  // S divsteps this cycle
  output logic            step_o,
  // memory reads (registered data next cycle)
  output logic            rd_o,
  output logic [AW-1:0]   rd_addr_o,
  // this cycle's slot for the processing stage: one cycle after its read
  output logic            last_slot_o,  // the pass's slot N is issued this cycle
  output logic            proc_pass_o,
  output logic            proc_out_o,
  output logic [CntW-1:0] proc_j_o,
  // the slot's place, decoded a cycle ahead (no compare after the register)
  output logic            proc_first_o,  // slot 0
  output logic            proc_win_o,    // slot 1
  output logic            proc_top_o,    // slot N - 1
  output logic            proc_flush_o,  // slot N (of a pass or the output only)
  output logic [AW-1:0]   proc_prev_o    // slot - 1 (mod 2^AW)
);

  typedef enum logic [2:0] {
    StIdle,
    StLoad,
    StStep,
    StPass,
    StOut
  } state_e;

  state_e          state_d, state_q;
  logic [CntW-1:0] cnt_d, cnt_q;
  logic [StepW-1:0] stp_d, stp_q;
  logic [BatW-1:0] bat_d, bat_q;
  logic            ppass_d, ppass_q, pout_d, pout_q;
  logic [CntW-1:0] pj_d, pj_q;
  logic            pfirst_d, pfirst_q, pwin_d, pwin_q, ptop_d, ptop_q, pflush_d, pflush_q;
  logic [AW-1:0]   pprev_d, pprev_q;

  always_comb begin
    state_d     = state_q;
    cnt_d       = cnt_q;
    stp_d       = stp_q;
    bat_d       = bat_q;
    ppass_d     = 1'b0;
    pout_d      = 1'b0;
    pj_d        = cnt_q;
    pfirst_d    = (cnt_q == '0);
    pwin_d      = (cnt_q == CntW'(1));
    ptop_d      = (cnt_q == CntW'(N - 1));
    // slot N of a pass or the output only (the datapath's steps rely on it;
    // the count is also N through the first batch's steps)
    pflush_d    = (cnt_q == CntW'(N)) && (state_q inside {StPass, StOut});
    pprev_d     = AW'(cnt_q - 1'b1);
    in_ready_o  = 1'b0;
    load_o      = 1'b0;
    step_o      = 1'b0;
    rd_o        = 1'b0;
    rd_addr_o   = AW'(cnt_q);
    last_slot_o = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d = StLoad;
          cnt_d   = '0;
        end
      end
      StLoad: begin
        in_ready_o = 1'b1;
        if (in_valid_i) begin
          load_o = 1'b1;
          cnt_d  = cnt_q + 1'b1;
          if (cnt_q == CntW'(N - 1)) begin
            state_d = StStep;
            stp_d   = '0;
            bat_d   = '0;
          end
        end
      end
      StStep: begin
        step_o = 1'b1;
        stp_d  = stp_q + 1'b1;
        if (stp_q == StepW'(Steps - 1)) begin
          state_d = StPass;
          cnt_d   = '0;
        end
      end
      StPass: begin
        rd_o    = (cnt_q != CntW'(N));
        ppass_d = 1'b1;
        cnt_d   = cnt_q + 1'b1;
        if (cnt_q == CntW'(N)) begin
          last_slot_o = 1'b1;
          stp_d       = '0;
          cnt_d       = '0;
          bat_d       = bat_q + 1'b1;
          state_d     = (bat_q == BatW'(Batches - 1)) ? StOut : StStep;
        end
      end
      StOut: begin
        rd_o      = (cnt_q != CntW'(N));
        rd_addr_o = AW'(CntW'(N - 1) - cnt_q);
        pout_d    = 1'b1;
        cnt_d     = cnt_q + 1'b1;
        if (cnt_q == CntW'(N)) begin
          state_d = StIdle;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  assign busy_o       = (state_q != StIdle) || pout_q;
  assign cnt_o        = cnt_q;
  assign proc_pass_o  = ppass_q;
  assign proc_out_o   = pout_q;
  assign proc_j_o     = pj_q;
  assign proc_first_o = pfirst_q;
  assign proc_win_o   = pwin_q;
  assign proc_top_o   = ptop_q;
  assign proc_flush_o = pflush_q;
  assign proc_prev_o  = pprev_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= StIdle;
      cnt_q    <= '0;
      stp_q    <= '0;
      bat_q    <= '0;
      ppass_q  <= 1'b0;
      pout_q   <= 1'b0;
      pj_q     <= '0;
      pfirst_q <= 1'b0;
      pwin_q   <= 1'b0;
      ptop_q   <= 1'b0;
      pflush_q <= 1'b0;
      pprev_q  <= '0;
    end else begin
      state_q  <= state_d;
      cnt_q    <= cnt_d;
      stp_q    <= stp_d;
      bat_q    <= bat_d;
      ppass_q  <= ppass_d;
      pout_q   <= pout_d;
      pj_q     <= pj_d;
      pfirst_q <= pfirst_d;
      pwin_q   <= pwin_d;
      ptop_q   <= ptop_d;
      pflush_q <= pflush_d;
      pprev_q  <= pprev_d;
    end
  end

endmodule
